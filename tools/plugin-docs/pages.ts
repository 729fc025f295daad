/**
 * The provider plugin's reference pages (docs/reference/plugin/), written from its package schema: a page per
 * resource and per function, one for the provider's configuration and one for the object types, and an index.
 * Each property shows its type, description, secrecy and replace-on-change as the schema gives them (which the
 * kind definitions give it: provider/plugin/schema.ts), and its name and type in every language (names.ts).
 * `npm run docs:plugin` writes them; test/plugin/referencePages.test.ts fails when they are stale.
 */
import type {
  FunctionSpec,
  ObjectTypeSpec,
  PackageSchema,
  PropertySpecJson,
  ResourceSpec,
} from "../../provider/plugin/schemaTypes";
import { declarations, functionNames, LANGUAGES, pythonName, typeNames } from "./names";

const GENERATED =
  "<!-- Generated from the provider plugin's schema by `npm run docs:plugin` (tools/plugin-docs): edit the kind " +
  "definitions, not this page. -->";

const lastSegment = (token: string) => token.slice(token.lastIndexOf(":") + 1);
/** A page's file name: the type or function name, as written in the schema. */
const pageOf = (token: string) => `${lastSegment(token)}.md`;
/** Table cells hold one line, and a `|` would end the cell. */
const cell = (text: string) => text.replace(/\s*\n\s*/g, " ").replace(/\|/g, "\\|");
const code = (text: string) => `\`${text.replace(/\|/g, "\\|")}\``;

/** The schema's type, with a link for an object type (to types.md). */
function schemaType(property: PropertySpecJson): string {
  if (property.$ref?.startsWith("#/types/")) {
    const name = lastSegment(property.$ref);
    return `[${name}](types.md#${name.toLowerCase()})`;
  }
  if (property.type === "array") return `array of ${schemaType(property.items ?? {})}`;
  if (property.type === "object") return `map of ${schemaType(property.additionalProperties ?? {})}`;
  return property.type ?? "any";
}

/** The property table: what the schema says of each property. */
function propertyTable(
  properties: Record<string, PropertySpecJson>,
  required: string[],
  replaceable: boolean,
  requiredLabel = "Required",
): string[] {
  const header = replaceable
    ? [
        `| Property | Type | ${requiredLabel} | Secret | Change replaces | Description |`,
        "|---|---|---|---|---|---|",
      ]
    : [`| Property | Type | ${requiredLabel} | Secret | Description |`, "|---|---|---|---|---|"];
  const rows = Object.entries(properties)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, p]) =>
      [
        code(name),
        schemaType(p),
        required.includes(name) ? "yes" : "",
        p.secret ? "secret" : "",
        ...(replaceable ? [p.replaceOnChanges ? "replaces" : ""] : []),
        cell(p.description ?? ""),
      ].join(" | "),
    )
    .map((row) => `| ${row} |`);
  return [...header, ...rows];
}

/** The names table: each property's name and type in every language. */
function namesTable(properties: Record<string, PropertySpecJson>, side: "input" | "output"): string[] {
  return [
    `| Property | ${LANGUAGES.join(" | ")} |`,
    `|---|${LANGUAGES.map(() => "---").join("|")}|`,
    ...Object.entries(properties)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, p]) => {
        const names = declarations(name, p, side);
        return `| ${code(name)} | ${LANGUAGES.map((l) => code(names[l])).join(" | ")} |`;
      }),
  ];
}

function section(title: string, lines: string[]): string[] {
  return [`## ${title}`, "", ...lines, ""];
}

/** How each language declares one resource of the type. */
function resourceUsage(type: string, rootNamespace: string): string[] {
  const python = pythonName(type);
  return [
    "| Language | Declared as |",
    "|---|---|",
    `| TypeScript | ${code(`new devicemgmt.${type}(name, args, opts?)`)} (a generated Node.js SDK; the classes of this package are the dynamic resources, [docs/reference](../README.md)) |`,
    `| Python | ${code(`pulumi_devicemgmt.${type}(resource_name, opts=None, **args)`)} (module ${code(`pulumi_devicemgmt.${python}`)}) |`,
    `| Go | ${code(`devicemgmt.New${type}(ctx, name, &devicemgmt.${type}Args{…}, opts...)`)} |`,
    `| C# | ${code(`new ${rootNamespace}.Devicemgmt.${type}(name, new ${type}Args { … }, options)`)} |`,
    `| YAML | ${code(`type: devicemgmt:${type}`)} |`,
  ];
}

function resourcePage(token: string, resource: ResourceSpec, schema: PackageSchema): string {
  const type = lastSegment(token);
  const rootNamespace = String(schema.language.csharp?.rootNamespace ?? "Pulumi");
  const inputs = resource.inputProperties;
  const outputsOnly = Object.fromEntries(
    Object.entries(resource.properties).filter(([name]) => !(name in inputs)),
  );
  const replacing = Object.keys(inputs).filter((name) => inputs[name].replaceOnChanges);
  return [
    GENERATED,
    "",
    `# ${type}`,
    "",
    `Resource ${code(token)} of the provider plugin ([index](README.md)).${resource.description ? ` ${resource.description}` : ""}`,
    "",
    ...resourceUsage(type, rootNamespace),
    "",
    replacing.length > 0
      ? `A change of ${replacing.map(code).join(", ")} replaces the object (delete, then create); every other input updates it in place.`
      : "Every input updates the object in place.",
    "",
    ...section("Inputs", [
      ...propertyTable(inputs, resource.requiredInputs, true),
      "",
      "### Inputs by language",
      "",
      ...namesTable(inputs, "input"),
    ]),
    ...section("Outputs", [
      "Every input is an output too (with the value the API holds), and `id`. Besides them:",
      "",
      ...propertyTable(outputsOnly, resource.required, false, "Always set"),
      "",
      "### Outputs by language",
      "",
      ...namesTable(outputsOnly, "output"),
    ]),
  ].join("\n");
}

function functionPage(token: string, fn: FunctionSpec, resourceTypes: Set<string>): string {
  const name = lastSegment(token);
  const names = functionNames(token, resourceTypes);
  const args = fn.inputs?.properties ?? {};
  return [
    GENERATED,
    "",
    `# ${name}`,
    "",
    `Function ${code(token)} of the provider plugin ([index](README.md)). ${cell(fn.description)}`,
    "",
    "| Language | Called as |",
    "|---|---|",
    `| TypeScript | ${code(`devicemgmt.${names.TypeScript}(args, opts?)`)} |`,
    `| Python | ${code(`pulumi_devicemgmt.${names.Python}(**args, opts=None)`)} |`,
    `| Go | ${code(`devicemgmt.${names.Go}(ctx, &devicemgmt.${names.Go}Args{…}, opts...)`)} |`,
    `| C# | ${code(`${names["C#"]}.InvokeAsync(new ${names["C#"]}Args { … }, options)`)} |`,
    `| YAML | ${code(`fn::invoke: { function: ${names.YAML}, arguments: { … } }`)} |`,
    "",
    ...section(
      "Arguments",
      Object.keys(args).length === 0
        ? ["None."]
        : [
            ...propertyTable(args, fn.inputs?.required ?? [], false),
            "",
            "### Arguments by language",
            "",
            ...namesTable(args, "input"),
          ],
    ),
    ...section("Result", [
      ...propertyTable(fn.outputs.properties, fn.outputs.required ?? [], false, "Always set"),
      "",
      "### Result by language",
      "",
      ...namesTable(fn.outputs.properties, "output"),
    ]),
  ].join("\n");
}

function providerPage(schema: PackageSchema): string {
  const config = schema.config.variables;
  return [
    GENERATED,
    "",
    "# Provider configuration",
    "",
    `${schema.provider.description} The default provider reads the stack's configuration \`devicemgmt:<key>\` ` +
      "(`pulumi config set devicemgmt:baseUrl …`); an explicit provider (`pulumi:providers:devicemgmt`, " +
      "`new devicemgmt.Provider(…)` in an SDK) takes the same keys as its inputs. [Index](README.md).",
    "",
    ...propertyTable(config, [], false),
    "",
    "## By language",
    "",
    ...namesTable(config, "input"),
    "",
  ].join("\n");
}

function typesPage(types: Record<string, ObjectTypeSpec>): string {
  const lines = [
    GENERATED,
    "",
    "# Object types",
    "",
    "The objects that resource properties take ([index](README.md)). A program passes one as the type's `Args` " +
      "class (Python, Go, C#), a plain object (TypeScript) or a map (YAML); an output is the type itself.",
    "",
  ];
  for (const [token, type] of Object.entries(types).sort(([a], [b]) => a.localeCompare(b))) {
    const name = lastSegment(token);
    const input = typeNames({ $ref: `#/types/${token}` }, "input");
    lines.push(
      `## ${name}`,
      "",
      `${code(token)}${type.description ? `: ${cell(type.description)}` : ""}; as an input: ` +
        `${LANGUAGES.map((l) => `${l} ${code(input[l])}`).join(", ")}.`,
      "",
      ...propertyTable(type.properties, type.required ?? [], false),
      "",
      ...namesTable(type.properties, "input"),
      "",
    );
  }
  return lines.join("\n");
}

function indexPage(schema: PackageSchema): string {
  const link = (token: string) => `- [${lastSegment(token)}](${pageOf(token)}) — ${code(token)}`;
  return [
    GENERATED,
    "",
    `# ${schema.displayName}: the provider plugin's reference`,
    "",
    `${schema.description} The package \`${schema.name}\` as the provider plugin \`pulumi-resource-${schema.name}\` ` +
      "serves it to every Pulumi language ([docs/plugin.md](../../plugin.md)). Each page gives a property's type, " +
      "description, secrecy and whether a change replaces the object, then its name and type in TypeScript " +
      "(a generated Node.js SDK's shape), Python, Go, C# and YAML. The TypeScript classes of this package (dynamic " +
      "resources) have their own reference: [docs/reference](../README.md).",
    "",
    "- [Provider configuration](provider.md)",
    "- [Object types](types.md)",
    "",
    "## Resources",
    "",
    ...Object.keys(schema.resources).sort().map(link),
    "",
    "## Functions",
    "",
    ...Object.keys(schema.functions).sort().map(link),
    "",
  ].join("\n");
}

/** Every page, by file name under docs/reference/plugin/. */
export function referencePages(schema: PackageSchema): Record<string, string> {
  const resourceTypes = new Set(Object.keys(schema.resources).map(lastSegment));
  const pages: Record<string, string> = {
    "README.md": indexPage(schema),
    "provider.md": providerPage(schema),
    "types.md": typesPage(schema.types),
  };
  for (const [token, resource] of Object.entries(schema.resources))
    pages[pageOf(token)] = `${resourcePage(token, resource, schema)}\n`;
  for (const [token, fn] of Object.entries(schema.functions))
    pages[pageOf(token)] = `${functionPage(token, fn, resourceTypes)}\n`;
  return pages;
}
