/**
 * How each Pulumi language spells a schema name and type, as the SDK generators write them (pkg/codegen of the
 * pinned CLI: nodejs, python, go, dotnet) and the Pulumi registry's API pages show them: plain types, objects by
 * their type's name. test/plugin/sdkNames.test.ts checks every name against the generated Go, Python and
 * C# SDKs, so a rule here that drifts from the generators fails there.
 */
import type { PropertySpecJson, TypeSpec } from "../../provider/plugin/schemaTypes";

export const LANGUAGES = ["TypeScript", "Python", "Go", "C#", "YAML"] as const;
export type Language = (typeof LANGUAGES)[number];

const PYTHON_KEYWORDS = new Set(
  (
    "False None True and as assert async await break class continue def del elif else except finally for from " +
    "global if import in is lambda nonlocal not or pass raise return try while with yield"
  ).split(" "),
);

/**
 * camelCase to snake_case as Pulumi's Python generator does it (codegen/python/python.go, pyName): an acronym
 * stays one word (`sha256Hash` → `sha256_hash`, `URLs` → `urls`), a digit joins the word before it
 * (`custom3DEnvironment` → `custom3_d_environment`), a keyword gets a trailing underscore.
 */
export function pythonName(name: string): string {
  const words: string[] = [];
  let current = "";
  let state: "first" | "upper" | "acronym" | "lower" = "first";
  const isUpper = (c: string) => c >= "A" && c <= "Z";
  const isDigit = (c: string) => c >= "0" && c <= "9";
  for (const raw of name) {
    const c = /[A-Za-z0-9_]/.test(raw) ? raw : "_";
    if (state === "first") {
      if (isDigit(c)) current += "_";
      current += c.toLowerCase();
      state = isUpper(c) ? "upper" : "lower";
    } else if (state === "upper") {
      current += c.toLowerCase();
      state = isUpper(c) ? "acronym" : "lower";
    } else if (state === "acronym") {
      if (isUpper(c)) current += c.toLowerCase();
      else if (isDigit(c) || c === "s") {
        current += c;
        state = "lower";
      } else {
        words.push(current.slice(0, -1));
        current = current.slice(-1) + c;
        state = "lower";
      }
    } else if (isUpper(c)) {
      words.push(current);
      current = c.toLowerCase();
      state = "upper";
    } else current += c;
  }
  if (current) words.push(current);
  const snake = words.filter(Boolean).join("_");
  return PYTHON_KEYWORDS.has(snake) ? `${snake}_` : snake;
}

/** Go and C# export a property by its name with the first letter in upper case. */
export const titleName = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/** A property's name in each language (YAML and TypeScript keep the schema's). */
export function propertyNames(name: string): Record<Language, string> {
  return {
    TypeScript: name,
    Python: pythonName(name),
    Go: titleName(name),
    "C#": titleName(name),
    YAML: name,
  };
}

/** The name of a `#/types/<token>` reference: its last segment. */
const refName = (ref: string) => ref.slice(ref.lastIndexOf(":") + 1);

/**
 * A type as each language writes it, plainly (the registry's notation): `side` "input" names an object type by
 * its Args class (Python, Go, C#), as a program passes it; "output" by the type itself.
 */
export function typeNames(type: TypeSpec, side: "input" | "output"): Record<Language, string> {
  if (type.$ref?.startsWith("#/types/")) {
    const name = refName(type.$ref);
    const args = side === "input" ? `${name}Args` : name;
    return { TypeScript: name, Python: args, Go: args, "C#": args, YAML: "Property Map" };
  }
  if (type.$ref === "pulumi.json#/Any" || type.type === undefined)
    return { TypeScript: "any", Python: "Any", Go: "interface{}", "C#": "object", YAML: "Any" };
  switch (type.type) {
    case "string":
      return { TypeScript: "string", Python: "str", Go: "string", "C#": "string", YAML: "String" };
    case "integer":
      return { TypeScript: "number", Python: "int", Go: "int", "C#": "int", YAML: "Integer" };
    case "number":
      return { TypeScript: "number", Python: "float", Go: "float64", "C#": "double", YAML: "Number" };
    case "boolean":
      return { TypeScript: "boolean", Python: "bool", Go: "bool", "C#": "bool", YAML: "Boolean" };
    case "array": {
      const item = typeNames(type.items ?? {}, side);
      return {
        TypeScript: `${item.TypeScript}[]`,
        Python: `Sequence[${item.Python}]`,
        Go: `[]${item.Go}`,
        "C#": `List<${item["C#"]}>`,
        YAML: `List<${item.YAML}>`,
      };
    }
    case "object": {
      const value = typeNames(type.additionalProperties ?? {}, side);
      return {
        TypeScript: `{[key: string]: ${value.TypeScript}}`,
        Python: `Mapping[str, ${value.Python}]`,
        Go: `map[string]${value.Go}`,
        "C#": `Dictionary<string, ${value["C#"]}>`,
        YAML: `Map<${value.YAML}>`,
      };
    }
  }
}

/** One property as each language declares it: name and type. */
export function declarations(
  name: string,
  property: PropertySpecJson,
  side: "input" | "output",
): Record<Language, string> {
  const names = propertyNames(name);
  const types = typeNames(property, side);
  return Object.fromEntries(LANGUAGES.map((l) => [l, `${names[l]} ${types[l]}`])) as Record<Language, string>;
}

/** A function's entry point per language (Go's generator calls `get<Resource>` `Lookup<Resource>`). */
export function functionNames(token: string, resourceTypes: Set<string>): Record<Language, string> {
  const name = refName(token);
  const title = titleName(name);
  const goName =
    name.startsWith("get") && resourceTypes.has(name.slice(3)) ? `Lookup${name.slice(3)}` : title;
  return {
    TypeScript: name,
    Python: pythonName(name),
    Go: goName,
    "C#": title,
    YAML: `devicemgmt:${name}`,
  };
}
