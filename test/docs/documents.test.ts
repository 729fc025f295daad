// The README and the user's documents in docs/ against the package, so that they cannot go stale again: every
// TypeScript snippet compiles on its own (it defines or imports what it uses) against the sources, the lookups
// table lists every lookup the package exports with its arguments and result fields, the README's table of kinds
// and the guide's table of inputs and the adoption table list every resource kind, the adoption table gives each
// kind's adoptId form as its check takes it, a Theme a document declares can be created in the sandbox, and the
// tests the documents point at exist and hold the tests they name. docs/reference (typedoc's output) has its own
// test, reference.test.ts; links.test.ts checks every file a document names.
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

const REPOSITORY = "https://github.com/pulumi-devicemgmt/pulumi-devicemgmt/blob/main/";

/** Every Markdown file under `folder` (repository-relative), sorted. */
function markdownUnder(folder: string): string[] {
  return (fs.readdirSync(path.join(repoRoot, folder), { recursive: true, encoding: "utf8" }) as string[])
    .filter((file) => file.endsWith(".md"))
    .map((file) => path.posix.join(folder, file.split(path.sep).join("/")))
    .sort();
}

/** The documents a user reads: the README, docs/ but for typedoc's output, and the contributor notes. */
const DOCUMENTS = [
  "README.md",
  ...markdownUnder("docs").filter((file) => !file.startsWith("docs/reference/")),
  "CONTRIBUTING.md",
];
const texts = new Map(DOCUMENTS.map((file) => [file, fs.readFileSync(path.join(repoRoot, file), "utf8")]));
const readme = texts.get("README.md")!;

/**
 * The body of the section of `document` headed `title` (at any level, `## Lookups` or `# Lookups`), up to the
 * next heading of the same or a higher level. Headings inside code blocks (a shell comment) are not headings.
 */
function section(document: string, title: string): string {
  const lines = texts.get(document)!.split("\n");
  let inCode = false;
  const headings = lines.flatMap((line, index) => {
    if (line.startsWith("```")) inCode = !inCode;
    const match = inCode ? null : /^(#{1,6}) (.*)$/.exec(line);
    return match ? [{ index, level: match[1].length, text: match[2].trim() }] : [];
  });
  const start = headings.find((heading) => heading.text === title);
  if (!start) throw new Error(`${document} has no section "${title}"`);
  const end = headings.find((heading) => heading.index > start.index && heading.level <= start.level);
  return lines.slice(start.index + 1, end?.index).join("\n");
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

/** One program over the package's entry point and every document's snippets, each its own module. */
const snippetDir = fs.mkdtempSync(path.join(os.tmpdir(), "devicemgmt-docs-"));
const snippets = [...texts].flatMap(([document, text]) =>
  [...text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m, i) => {
    const file = path.join(snippetDir, `${document.replace(/[/.]/g, "_")}_${i + 1}.ts`);
    const line = text.slice(0, m.index).split("\n").length;
    // `export {}` keeps a snippet without imports a module of its own (no clash with another's names).
    fs.writeFileSync(file, `${m[1]}\nexport {};\n`);
    return { document, file, line };
  }),
);
const entry = path.join(repoRoot, "provider/index.ts");
const program = snippetProgram([entry, ...snippets.map((s) => s.file)]);
const checker = program.getTypeChecker();

afterAll(() => fs.rmSync(snippetDir, { recursive: true, force: true }));

describe("the documents' TypeScript snippets", () => {
  it("are found: the README's Quick start and the guide's examples", () => {
    expect(DOCUMENTS).toEqual(
      expect.arrayContaining(["docs/guide/README.md", "docs/guide/lookups.md", "docs/architecture.md"]),
    );
    expect(snippets.length).toBeGreaterThanOrEqual(5);
    expect(snippets.filter((s) => s.document === "README.md").length).toBeGreaterThanOrEqual(1);
  });

  it("each compile on their own against the package (strict), defining or importing what they use", () => {
    const errors = snippets.flatMap(({ document, file, line }) =>
      errorsOf(program, file, document, line + 1),
    );
    expect(errors).toEqual([]);
  });
});

describe("the README", () => {
  it("is at most 300 lines: the rest of what a user reads is in docs/", () => {
    expect(readme.split("\n").length).toBeLessThanOrEqual(300);
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

describe("the guide's Lookups table", () => {
  const rows = tableRows(section("docs/guide/lookups.md", "Lookups"));
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

describe("the Configuration table", () => {
  it("gives the client's defaults for the budget, the retries and the two upload timeouts", () => {
    const defaults = Object.fromEntries(
      tableRows(section("docs/configuration.md", "Configuration")).flatMap(([setting, stackConfig]) => {
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
    expect(section("docs/troubleshooting.md", "Rate limits (429)")).toContain(
      `${DEFAULT_RATE_LIMIT.limit} requests per minute`,
    );
  });
});

describe("the tables of kinds and the adoption table", () => {
  it.each([
    ["README.md", "Resources"],
    ["docs/guide/README.md", "Every kind at a glance"],
  ])("%s's table under %s lists every resource kind once", (document, title) => {
    const listed = tableRows(section(document, title)).flatMap((row) => codeIn(row[0]));
    expect(listed.sort()).toEqual(kindTypes);
  });

  it("the README's table links each kind to its reference page and to a guide page", () => {
    const wrong = tableRows(section("README.md", "Resources")).flatMap(([kind, , guide]) => {
      const name = codeIn(kind)[0];
      const reference = `${REPOSITORY}docs/reference/classes/${name}.md`;
      return [
        ...(kind.includes(`](${reference})`) ? [] : [`${name}: no link to ${reference}`]),
        ...(/\]\(https:\/\/github\.com\/[^)]+\/docs\/guide\/\w+\.md\)/.test(guide)
          ? []
          : [`${name}: no guide page`]),
      ];
    });
    expect(wrong).toEqual([]);
  });

  it("the adoption table lists every kind once, with the adoptId form its check takes, or none", () => {
    const forms = new Map(
      tableRows(section("docs/guide/adoption.md", "Adopting existing objects")).flatMap(([kinds, form]) =>
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

describe("the documents' Theme examples", () => {
  it("declare names the sandbox organization has no custom theme of (a create there would be refused)", async () => {
    const declared = [
      ...[...texts.values()].join("\n").matchAll(/new dm\.Theme\([^{]*\{\s*name: "([^"]+)"/g),
    ].map((m) => m[1]);
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

describe("the tests the documents point at", () => {
  const links = [...[...texts.values()].join("\n").matchAll(/\]\((https:[^)]+)\)/g)]
    .map((m) => m[1])
    .filter((href) => href.startsWith(`${REPOSITORY}test/`))
    .map((href) => href.slice(REPOSITORY.length).split("#")[0]);

  it("exist", () => {
    expect(links).toEqual(expect.arrayContaining(["test/programs/org.test.ts"]));
    expect(links.filter((file) => !fs.existsSync(path.join(repoRoot, file)))).toEqual([]);
  });

  it("hold the tests named for the promises about preview, repair and a second up", () => {
    const guide = texts.get("docs/guide/README.md")!;
    const start = guide.indexOf("Each of these is a test");
    expect(start).toBeGreaterThan(0);
    const paragraph = guide.slice(start, guide.indexOf("\n\n", start));
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
