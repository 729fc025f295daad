// docs/reference is generated from the TSDoc (typedoc.json, `npm run docs`) and checked in, so a reader of the
// repository sees it; these tests regenerate it into a temporary folder and fail when the checked-in pages are
// not what the source gives, when a resource kind or lookup has no example, and when an example does not compile
// on its own (with `dm` and `pulumi` imported, as every page writes them).
import { execFile } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { promisify } from "util";
import { errorsOf, snippetProgram } from "./snippets";

const repoRoot = path.resolve(__dirname, "../..");
const checkedIn = path.join(repoRoot, "docs/reference");
const STALE = "docs/reference is not what the TSDoc gives now: run npm run docs (and commit docs/reference)";

/** Every file under `dir`, as relative paths, sorted. */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => fs.statSync(path.join(dir, f)).isFile())
    .map((f) => f.split(path.sep).join("/"))
    .sort();
}

/** The pages a section of the index links to ("## Resources", "## Lookups"), as paths under docs/reference. */
function linkedFrom(section: string): string[] {
  const index = fs.readFileSync(path.join(checkedIn, "README.md"), "utf8");
  const body = index.split(/^## /m).find((part) => part.startsWith(`${section}\n`)) ?? "";
  return [...body.matchAll(/\]\(([^)]+\.md)\)/g)].map((m) => m[1]);
}

let generated: string;

beforeAll(async () => {
  generated = await fs.promises.mkdtemp(path.join(os.tmpdir(), "docs-reference-"));
  // TypeDoc is an ES module; its command line runs it in a process of its own, as `npm run docs` does.
  await promisify(execFile)(
    process.execPath,
    [path.join(repoRoot, "node_modules/typedoc/bin/typedoc"), "--out", generated, "--logLevel", "Error"],
    { cwd: repoRoot },
  );
}, 180_000);

afterAll(async () => {
  if (generated) await fs.promises.rm(generated, { recursive: true, force: true });
});

test("the checked-in reference pages are the ones the TSDoc generates", () => {
  const want = filesUnder(generated);
  // plugin/ holds the provider plugin's pages, generated from its schema (test/plugin/referencePages.test.ts).
  const have = filesUnder(checkedIn).filter((f) => !f.startsWith("plugin/"));
  expect(want).toContain("README.md");
  const missing = want.filter((f) => !have.includes(f));
  const extra = have.filter((f) => !want.includes(f));
  const changed = want.filter(
    (f) =>
      have.includes(f) &&
      fs.readFileSync(path.join(generated, f), "utf8") !== fs.readFileSync(path.join(checkedIn, f), "utf8"),
  );
  const stale = [
    ...missing.map((f) => `missing ${f}`),
    ...extra.map((f) => `no longer generated ${f}`),
    ...changed.map((f) => `changed ${f}`),
  ];
  if (stale.length > 0) throw new Error(`${STALE}\n${stale.join("\n")}`);
});

test("every resource kind and every lookup has a page with an example", () => {
  const resources = linkedFrom("Resources");
  // The Output forms (variables/getXOutput.md) link to their lookup's page, which carries the example.
  const lookups = linkedFrom("Lookups").filter((page) => page.startsWith("functions/"));
  expect(resources).toEqual(expect.arrayContaining(["classes/Group.md", "classes/User.md"]));
  expect(lookups).toEqual(expect.arrayContaining(["functions/getRole.md", "functions/getDevice.md"]));
  const withoutExample = [...resources, ...lookups].filter(
    (page) => !/^## Example/m.test(fs.readFileSync(path.join(checkedIn, page), "utf8")),
  );
  expect(withoutExample).toEqual([]);
});

test("every example compiles on its own, defining what it uses but dm and pulumi", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "docs-examples-"));
  try {
    const examples = filesUnder(checkedIn).flatMap((page) => {
      const text = fs.readFileSync(path.join(checkedIn, page), "utf8");
      const [before, after] = text.split(/^## Examples?$/m);
      if (after === undefined) return [];
      const code = [...after.split(/^#{1,3} /m)[0].matchAll(/^```ts\n([\s\S]*?)^```$/gm)];
      const firstLine = before.split("\n").length + after.slice(0, code[0]?.index ?? 0).split("\n").length;
      const file = path.join(dir, `${page.replace(/[/.]/g, "_")}.ts`);
      fs.writeFileSync(
        file,
        'import * as pulumi from "@pulumi/pulumi";\nimport * as dm from "pulumi-devicemgmt";\n' +
          `${code.map((m) => m[1]).join("\n")}\nexport { pulumi, dm };\n`,
      );
      return [{ page, file, firstLine: firstLine - 2 }];
    });
    expect(examples.map((e) => e.page)).toEqual(
      expect.arrayContaining(["classes/Group.md", "functions/getFile.md"]),
    );
    const program = snippetProgram(examples.map((e) => e.file));
    const errors = examples.flatMap((e) =>
      errorsOf(program, e.file, `docs/reference/${e.page}`, e.firstLine),
    );
    expect(errors).toEqual([]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
