// The README against the package, so that it cannot go stale again: every TypeScript snippet compiles on its own
// (it defines or imports what it uses) against the sources, the lookups table lists every lookup the package
// exports with its arguments and result fields, the resource table and the adoption table list every resource
// kind, the adoption table gives each kind's adoptId form as its check takes it, a Theme the README declares
// can be created in the sandbox, and the tests the README points at exist and hold the tests it names.
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as ts from "typescript";
import { startEmulator } from "../../emulator";
import {
  DEFAULT_BACKOFF,
  DEFAULT_PROCESSING_TIMEOUT_MS,
  DEFAULT_RATE_LIMIT,
  DeviceMgmtClient,
} from "../../provider/client";
import { KINDS } from "../../provider/kinds";
import { errorsOf, repoRoot, snippetProgram } from "./snippets";

const readme = fs.readFileSync(path.join(repoRoot, "README.md"), "utf8");
const REPOSITORY = "https://github.com/pulumi-devicemgmt/pulumi-devicemgmt/blob/main/";

/** The body of a `## ` section of the README, up to the next one. */
function section(title: string): string {
  const body = readme.split(/^## /m).find((part) => part.startsWith(`${title}\n`));
  if (!body) throw new Error(`README has no section "## ${title}"`);
  return body;
}

/** The rows of the first Markdown table in `text`, as cells (header and separator left out). */
function tableRows(text: string): string[][] {
  const lines = text.split("\n");
  const start = lines.findIndex((line) => line.startsWith("|"));
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

/** The `code` spans of a cell. */
const codeIn = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);

/** One program over the package's entry point and every README snippet, each its own module. */
const snippetDir = fs.mkdtempSync(path.join(os.tmpdir(), "devicemgmt-readme-"));
const snippets = [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m, i) => {
  const file = path.join(snippetDir, `snippet${i + 1}.ts`);
  const line = readme.slice(0, m.index).split("\n").length;
  // `export {}` keeps a snippet without imports a module of its own (no clash with another's names).
  fs.writeFileSync(file, `${m[1]}\nexport {};\n`);
  return { file, line };
});
const entry = path.join(repoRoot, "provider/index.ts");
const program = snippetProgram([entry, ...snippets.map((s) => s.file)]);
const checker = program.getTypeChecker();

afterAll(() => fs.rmSync(snippetDir, { recursive: true, force: true }));

describe("README snippets", () => {
  it("are found", () => {
    expect(snippets.length).toBeGreaterThanOrEqual(5);
  });

  it("each compile on their own against the package (strict), defining or importing what they use", () => {
    const errors = snippets.flatMap(({ file, line }) => errorsOf(program, file, "README.md", line + 1));
    expect(errors).toEqual([]);
  });
});

/** The package's exports, by name, as the compiler sees them. */
const exported = new Map(
  checker
    .getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(entry)!)!)
    .map((symbol) => [symbol.name, symbol]),
);

/** The property names of a type, across the alternatives of a union. */
function propertyNames(type: ts.Type): string[] {
  const alternatives = type.isUnion() ? type.types : [type];
  return [...new Set(alternatives.flatMap((t) => checker.getPropertiesOfType(t).map((p) => p.name)))];
}

/** A lookup's argument keys (none for one without arguments) and result fields (an element's, for a list). */
function lookupShape(name: string): { args: string[]; result: string[] } {
  const symbol = exported.get(name)!;
  const declaration = symbol.valueDeclaration ?? symbol.declarations![0];
  const [signature] = checker.getTypeOfSymbolAtLocation(symbol, declaration).getCallSignatures();
  const first = signature.parameters[0];
  const args =
    first && first.name === "args"
      ? propertyNames(checker.getTypeOfSymbolAtLocation(first, declaration))
      : [];
  let result = checker.getAwaitedType(signature.getReturnType())!;
  if (checker.isArrayType(result)) result = checker.getTypeArguments(result as ts.TypeReference)[0];
  return { args, result: propertyNames(result) };
}

describe("the README's Lookups table", () => {
  const rows = tableRows(section("Lookups"));
  const lookups = [...exported.keys()].filter((n) => /^get[A-Z]\w*$/.test(n) && !n.endsWith("Output")).sort();

  it("lists every lookup the package exports, and nothing else", () => {
    expect(lookups).toEqual(expect.arrayContaining(["getRole", "getFile", "getDevices"]));
    expect(rows.map((row) => codeIn(row[0])[0]).sort()).toEqual(lookups);
  });

  it("names each lookup's argument keys and exactly its result fields", () => {
    const wrong = rows.flatMap(([name, by, result]) => {
      const shape = lookupShape(codeIn(name)[0]);
      const missingArgs = shape.args.filter((key) => !codeIn(by).includes(key));
      const documented = codeIn(result);
      return [
        ...missingArgs.map((key) => `${name}: argument ${key} is not in "by"`),
        ...shape.result.filter((f) => !documented.includes(f)).map((f) => `${name}: result ${f} missing`),
        ...documented.filter((f) => !shape.result.includes(f)).map((f) => `${name}: ${f} is no result field`),
      ];
    });
    expect(wrong).toEqual([]);
  });
});

const kindTypes = Object.values(KINDS)
  .map((k) => k.type as string)
  .sort();

describe("the README's Configuration table", () => {
  it("gives the client's defaults for the budget, the retries and the two upload timeouts", () => {
    const defaults = Object.fromEntries(
      tableRows(section("Configuration")).flatMap(([setting, stackConfig]) => {
        const given = /\(default (\d+)[;)]/.exec(setting);
        return given ? [[codeIn(stackConfig)[0], Number(given[1])]] : [];
      }),
    );
    const client = new DeviceMgmtClient({ baseUrl: "http://127.0.0.1:1/api/v3", apiToken: "1|unused" });
    expect(defaults).toEqual({
      "devicemgmt:requestsPerMinute": DEFAULT_RATE_LIMIT.limit,
      "devicemgmt:maxRetries": DEFAULT_BACKOFF.maxAttempts - 1,
      "devicemgmt:uploadPartTimeoutSeconds": client.storageTimeoutMs / 1000,
      "devicemgmt:processingTimeoutSeconds": DEFAULT_PROCESSING_TIMEOUT_MS / 1000,
    });
    // Troubleshooting says the same budget per organization.
    expect(DEFAULT_RATE_LIMIT.windowMs).toBe(60_000);
    expect(section("Troubleshooting")).toContain(`${DEFAULT_RATE_LIMIT.limit} requests per minute`);
  });
});

describe("the README's resource and adoption tables", () => {
  it("the resource table lists every resource kind once", () => {
    const listed = tableRows(section("Resources")).flatMap((row) => codeIn(row[0]));
    expect(listed.sort()).toEqual(kindTypes);
  });

  it("the adoption table lists every kind once, with the adoptId form its check takes, or none", () => {
    const forms = new Map(
      tableRows(section("Adopting existing objects")).flatMap(([kinds, form]) =>
        codeIn(kinds).map((kind) => [kind, form] as const),
      ),
    );
    expect([...forms.keys()].sort()).toEqual(kindTypes);
    const uuid = "0c4f3b1e-9d7a-4e2b-8f6c-1a2b3c4d5e6f";
    const wrong = Object.values(KINDS).flatMap((kind) => {
      const form = forms.get(kind.type)!;
      const adoptId = (kind.properties as Record<string, { schema: import("zod").ZodType } | undefined>)
        .adoptId;
      if (!adoptId) return form === "—" ? [] : [`${kind.type} takes no adoptId, the table says ${form}`];
      const pair = codeIn(form)[0];
      if (pair) {
        // The form the check's own error names, and a value of that shape passes.
        const message = adoptId.schema.safeParse("not an id").error?.issues[0]?.message ?? "";
        const ok = message.includes(pair) && adoptId.schema.safeParse(`${uuid}/${uuid}`).success;
        return ok ? [] : [`${kind.type}: adoptId ${pair} is not what check takes (${message})`];
      }
      const ok = form === "the object's id" && adoptId.schema.safeParse(uuid).success;
      return ok ? [] : [`${kind.type}: adoptId is the object's id, the table says ${form}`];
    });
    expect(wrong).toEqual([]);
  });
});

describe("the README's Theme examples", () => {
  it("declare names the sandbox organization has no custom theme of (a create there would be refused)", async () => {
    const declared = [...readme.matchAll(/new dm\.Theme\([^{]*\{\s*name: "([^"]+)"/g)].map((m) => m[1]);
    expect(declared.length).toBeGreaterThan(0);
    const emulator = await startEmulator({ port: 0 });
    try {
      const client = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
      const custom = (await client.themes.all()).filter((t) => !t.isSystemOwned).map((t) => t.name);
      expect(custom.length).toBeGreaterThan(0);
      expect(declared.filter((name) => custom.includes(name))).toEqual([]);
    } finally {
      await emulator.close();
    }
  });
});

describe("the tests the README points at", () => {
  const links = [...readme.matchAll(/\]\((https:[^)]+)\)/g)]
    .map((m) => m[1])
    .filter((href) => href.startsWith(`${REPOSITORY}test/`))
    .map((href) => href.slice(REPOSITORY.length).split("#")[0]);

  it("exist", () => {
    expect(links).toEqual(expect.arrayContaining(["test/programs/org.test.ts"]));
    expect(links.filter((file) => !fs.existsSync(path.join(repoRoot, file)))).toEqual([]);
  });

  it("hold the tests named for the promises about preview, repair and a second up", () => {
    const start = readme.indexOf("Each of these is a test");
    const paragraph = readme.slice(start, readme.indexOf("\n\n", start));
    const files = [...paragraph.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1].slice(REPOSITORY.length));
    expect(files).toEqual(expect.arrayContaining(["test/programs/org.test.ts"]));
    const tests = files.map((file) => fs.readFileSync(path.join(repoRoot, file), "utf8")).join("\n");
    const named = [...paragraph.replace(/\]\([^)]+\)/g, "]").matchAll(/"([^"]+)"/g)].map((m) =>
      m[1].replace(/\s+/g, " "),
    );
    expect(named.length).toBeGreaterThanOrEqual(9);
    expect(named.filter((title) => !tests.includes(title))).toEqual([]);
  });
});
