// The SDKs Pulumi's own generators write from the schema the real CLI gets from the installed plugin (`pulumi
// package get-schema`), read without a compiler: the C# SDK (no .NET toolchain here, so what is checked is what
// can be read: a file per resource, function and object type, class and property names and the types of scalar
// properties as the schema gives them, secrets), and the names the reference pages (docs/reference/plugin,
// tools/plugin-docs/names.ts) give each property in Python, Go and C#, which must be the generated SDKs' own.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { packageSchema } from "../../provider/plugin/schema";
import { pluginVersion } from "../../provider/plugin/version";
import type { PackageSchema, PropertySpecJson } from "../../provider/plugin/schemaTypes";
import { offlineEnvironment, readyPulumiCli } from "../../tools/pulumi-cli";
import { installPlugin, packPlugin } from "../../tools/plugin";
import { ensureDotnetSdkGenerator, ensureSdkGenerator, generateDotnetSdk } from "../../tools/sdk";
import { functionNames, propertyNames, pythonName, typeNames } from "../../tools/plugin-docs/names";
import { execFileSync } from "node:child_process";

/**
 * The schema the definitions give, which names the tests (jest collects them before beforeAll runs); the first
 * test checks that the CLI gets this very schema from the installed plugin, which the SDKs are generated from.
 */
const schema = packageSchema(pluginVersion());
let served: PackageSchema;
const last = (token: string) => token.slice(token.lastIndexOf(":") + 1);
const resources = Object.entries(schema.resources).map(([token, r]) => ({ token, type: last(token), ...r }));
const functions = Object.entries(schema.functions).map(([token, f]) => ({ token, name: last(token), ...f }));
const resourceTypes = new Set(resources.map((r) => r.type));
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const isScalar = (p: PropertySpecJson) =>
  p.type === "string" || p.type === "boolean" || p.type === "integer" || p.type === "number";

let dir: string;
let cs: string;
let go: string;
let py: string;
const read = (folder: string, file: string) => fs.readFileSync(path.join(folder, file), "utf8");

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "sdk-names-"));
  const pulumi = readyPulumiCli().binary;
  const env = { ...process.env, ...offlineEnvironment(dir, "sdk-names-passphrase") };
  installPlugin(pulumi, packPlugin(path.join(dir, "plugin")), env);
  const schemaFile = path.join(dir, "schema.json");
  fs.writeFileSync(
    schemaFile,
    execFileSync(pulumi, ["package", "get-schema", "devicemgmt", "--non-interactive"], { env, cwd: dir }),
  );
  served = JSON.parse(fs.readFileSync(schemaFile, "utf8")) as PackageSchema;
  cs = path.join(dir, "dotnet");
  generateDotnetSdk(ensureDotnetSdkGenerator(), schemaFile, cs);
  const generator = ensureSdkGenerator();
  go = path.join(dir, "go");
  execFileSync(generator, [schemaFile, go, "go"], { stdio: ["ignore", "pipe", "pipe"] });
  go = path.join(go, "devicemgmt");
  py = path.join(dir, "python");
  execFileSync(generator, [schemaFile, py, "python"], { stdio: ["ignore", "pipe", "pipe"] });
  py = path.join(py, "pulumi_devicemgmt");
  // Cold, each generator takes minutes to build (Go's cache warm from tools/pulumi-cli: about one).
}, 1_200_000);

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** A C# class's text, from its declaration to its closing brace (classes sit 4 spaces in their namespace). */
function csClass(source: string, name: string): string {
  const start = source.search(new RegExp(`\\bclass ${escape(name)}\\b`));
  if (start < 0) throw new Error(`no class ${name}`);
  return source.slice(start, source.indexOf("\n    }\n", start));
}

/** A Go struct's body. */
function goStruct(source: string, name: string): string {
  const start = source.indexOf(`type ${name} struct {`);
  if (start < 0) throw new Error(`no struct ${name}`);
  return source.slice(start, source.indexOf("\n}\n", start) + 1);
}

const CS_SCALAR: Record<string, string> = {
  string: "string",
  boolean: "bool",
  integer: "int",
  number: "double",
};
const GO_SCALAR: Record<string, string> = {
  string: "String",
  boolean: "Bool",
  integer: "Int",
  number: "Float64",
};

it("the CLI gets the definitions' resources, functions and properties from the installed plugin", () => {
  // By name: the CLI prints the schema through its own types, which drop empty lists and unknown fields.
  const keys = (o: object) => Object.keys(o).sort();
  const names = (s: PackageSchema) => ({
    resources: Object.fromEntries(
      Object.entries(s.resources).map(([t, r]) => [t, [keys(r.inputProperties), keys(r.properties)]]),
    ),
    functions: Object.fromEntries(
      Object.entries(s.functions).map(([t, f]) => [
        t,
        [keys(f.inputs?.properties ?? {}), keys(f.outputs.properties)],
      ]),
    ),
    types: Object.fromEntries(Object.entries(s.types).map(([t, o]) => [t, keys(o.properties)])),
    config: keys(s.config.variables),
  });
  expect(names(served)).toEqual(names(schema));
});

describe("the C# SDK (pkg/codegen/dotnet, generated and read, not compiled)", () => {
  it("has the project, the plugin's manifest, a file per resource, function and object type, and the config", () => {
    const files = (fs.readdirSync(cs, { recursive: true }) as string[]).map((f) =>
      f.split(path.sep).join("/"),
    );
    const rootNamespace = String(schema.language.csharp.rootNamespace);
    expect(files).toEqual(
      expect.arrayContaining([
        `${rootNamespace}.Devicemgmt.csproj`,
        "pulumi-plugin.json",
        "Provider.cs",
        "Config/Config.cs",
        "Utilities.cs",
        ...resources.map((r) => `${r.type}.cs`),
        ...functions.map((f) => `${functionNames(f.token, resourceTypes)["C#"]}.cs`),
        ...Object.keys(schema.types).flatMap((t) => [`Inputs/${last(t)}Args.cs`, `Outputs/${last(t)}.cs`]),
      ]),
    );
    expect(JSON.parse(read(cs, "pulumi-plugin.json"))).toMatchObject({ resource: true, name: "devicemgmt" });
    // The plugin's version, which the SDK asks the engine for: version.txt, embedded by the project.
    expect(read(cs, "version.txt").trim()).toBe(schema.version);
    expect(read(cs, `${rootNamespace}.Devicemgmt.csproj`)).toContain(
      '<EmbeddedResource Include="version.txt" />',
    );
    expect(read(cs, "Utilities.cs")).toContain(
      `GetManifestResourceStream("${rootNamespace}.Devicemgmt.version.txt")`,
    );
    const config = read(cs, "Config/Config.cs");
    for (const key of Object.keys(schema.config.variables))
      expect(config).toMatch(new RegExp(`public static \\S+ ${propertyNames(key)["C#"]}\\b`));
  });

  it.each(resources.map((r) => [r.type, r] as const))(
    "%s: the class, its Args, every property by the schema's name and the reference page's",
    (type, resource) => {
      const source = read(cs, `${type}.cs`);
      expect(source).toContain(`[DevicemgmtResourceType("${resource.token}")]`);
      expect(source).toContain(`public partial class ${type} : global::Pulumi.CustomResource`);
      const outputs = csClass(source, type);
      for (const [name, property] of Object.entries(resource.properties)) {
        const csName = propertyNames(name)["C#"];
        const csType = isScalar(property) ? `${escape(CS_SCALAR[property.type!])}\\??` : "[^\\n]*";
        expect(outputs).toMatch(
          new RegExp(`\\[Output\\("${name}"\\)\\]\\s*public Output<${csType}> ${csName} \\{`),
        );
      }
      const args = csClass(source, `${type}Args`);
      for (const [name, property] of Object.entries(resource.inputProperties)) {
        const csName = propertyNames(name)["C#"];
        const required = resource.requiredInputs.includes(name) ? ", required: true" : "";
        expect(args).toContain(`[Input("${name}"${required})]`);
        const csType = isScalar(property) ? `Input<${CS_SCALAR[property.type!]}>\\??` : "[^\\n]*";
        expect(args).toMatch(new RegExp(`public ${csType} ${csName}\\s*\\{`));
      }
      const secrets = Object.keys(resource.inputProperties).filter((n) => resource.inputProperties[n].secret);
      for (const secret of secrets)
        expect(source).toMatch(new RegExp(`AdditionalSecretOutputs =\\s*\\{[^}]*"${secret}"`));
    },
  );

  it.each(functions.map((f) => [f.name, f] as const))(
    "%s: the invoke, its arguments and result by the reference page's names",
    (_name, fn) => {
      const className = functionNames(fn.token, resourceTypes)["C#"];
      const source = read(cs, `${className}.cs`);
      expect(source).toContain(`public static class ${className}`);
      expect(source).toContain(`InvokeAsync<${className}Result>("${fn.token}"`);
      for (const name of Object.keys(fn.inputs?.properties ?? {})) {
        const required = fn.inputs?.required?.includes(name) ? ", required: true" : "";
        expect(csClass(source, `${className}Args`)).toContain(`[Input("${name}"${required})]`);
        expect(csClass(source, `${className}Args`)).toMatch(
          new RegExp(`public \\S+ ${propertyNames(name)["C#"]}\\s*\\{`),
        );
      }
      for (const [name, property] of Object.entries(fn.outputs.properties)) {
        const csType = isScalar(property) ? `${escape(CS_SCALAR[property.type!])}\\??` : "\\S+";
        expect(csClass(source, `${className}Result`)).toMatch(
          new RegExp(`public readonly ${csType} ${propertyNames(name)["C#"]};`),
        );
      }
    },
  );
});

describe("the reference pages' names are the generated Go and Python SDKs' own", () => {
  it.each(resources.map((r) => [r.type, r] as const))("%s", (type, resource) => {
    const goSource = read(go, `${type.charAt(0).toLowerCase()}${type.slice(1)}.go`);
    const pySource = read(py, `${pythonName(type)}.py`);
    expect(goSource).toContain(`func New${type}(ctx *pulumi.Context`);
    expect(pySource).toContain(`class ${type}(pulumi.CustomResource):`);
    const goArgs = goStruct(goSource, `${type}Args`);
    const goOutputs = goStruct(goSource, type);
    const pyArgs = pySource.slice(
      pySource.indexOf(`class ${type}Args:`),
      pySource.indexOf("def __init__", pySource.indexOf(`class ${type}(`)),
    );
    for (const [name, property] of Object.entries(resource.inputProperties)) {
      const names = propertyNames(name);
      const goType = isScalar(property) ? `pulumi\\.${GO_SCALAR[property.type!]}(Ptr)?Input` : "\\S+";
      expect(goArgs).toMatch(new RegExp(`\\n\\t${names.Go} +${goType}\\n`));
      const pyType = isScalar(property)
        ? `(Optional\\[)?_builtins\\.${typeNames(property, "input").Python}\\b`
        : "";
      expect(pyArgs).toMatch(new RegExp(`\\b${names.Python}: pulumi\\.Input\\[${pyType}`));
    }
    for (const name of Object.keys(resource.properties)) {
      const names = propertyNames(name);
      expect(goOutputs).toMatch(new RegExp(`\\n\\t${names.Go} +\\S+ +\`pulumi:"${name}"\``));
      expect(pySource).toContain(`def ${names.Python}(self) -> pulumi.Output[`);
    }
  });

  it.each(functions.map((f) => [f.name, f] as const))("%s", (name, fn) => {
    const names = functionNames(fn.token, resourceTypes);
    const goSource = read(go, `${name}.go`);
    const pySource = read(py, `${pythonName(name)}.py`);
    expect(goSource).toContain(`func ${names.Go}(ctx *pulumi.Context`);
    expect(pySource).toContain(`def ${names.Python}(`);
    for (const property of Object.keys(fn.inputs?.properties ?? {})) {
      expect(goStruct(goSource, `${names.Go}Args`)).toMatch(
        new RegExp(`\\n\\t${propertyNames(property).Go} +\\S+ +\`pulumi:"${property}"\``),
      );
      expect(pySource).toMatch(
        new RegExp(`def ${names.Python}\\([^)]*\\b${propertyNames(property).Python}:`),
      );
    }
    for (const property of Object.keys(fn.outputs.properties)) {
      expect(goStruct(goSource, `${names.Go}Result`)).toMatch(
        new RegExp(`\\n\\t${propertyNames(property).Go} +\\S+ +\`pulumi:"${property}"\``),
      );
      expect(pySource).toContain(`def ${propertyNames(property).Python}(self)`);
    }
  });

  it("the provider's configuration", () => {
    const goConfig = read(go, "config/config.go");
    const pyConfig = read(py, "config/vars.py");
    for (const key of Object.keys(schema.config.variables)) {
      expect(goConfig).toContain(`func Get${propertyNames(key).Go}(ctx *pulumi.Context)`);
      expect(pyConfig).toContain(`def ${propertyNames(key).Python}(self)`);
    }
  });
});
