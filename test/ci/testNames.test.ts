// The tests mirror the code (CONTRIBUTING.md, "Where a test goes"): a kind's tests in test/kinds/<kind>/, named
// after provider/kinds/<kind>/, a framework mechanism's in test/framework/, each as <name>[.<topic>].<layer>.test.ts
// where the layer says what the test needs: pure (no emulator, no Pulumi engine), provider (the handlers or the
// dynamic-provider plugin against the emulator), program (the real Pulumi CLI). Every TypeScript file under test/
// is named in camelCase like the source tree. A test in the wrong place or under another style fails here, with
// the rule it breaks.
import * as fs from "fs";
import * as path from "path";
import { spawnSync } from "child_process";

const root = path.resolve(__dirname, "../..");
const LAYERS = ["pure", "provider", "program"] as const;

/** Every file under `folder` (repository-relative, posix separators). */
function filesUnder(folder: string): string[] {
  return fs
    .readdirSync(path.join(root, folder), { recursive: true, encoding: "utf8" })
    .map((entry) => `${folder}/${entry.split(path.sep).join("/")}`)
    .filter((entry) => fs.statSync(path.join(root, entry)).isFile());
}

/** camelCase parts separated by dots (`group.create.pure.test.ts`, `upgradeFrom0.1.0.test.ts`). */
const CAMEL_CASE_FILE = /^[a-z0-9][a-zA-Z0-9]*(\.[a-z0-9][a-zA-Z0-9]*)*\.ts$/;
const CAMEL_CASE_FOLDER = /^[a-z][a-zA-Z0-9]*$/;

/** What is wrong with a test file's repository-relative path under test/kinds/ or test/framework/, if anything. */
function misplaced(file: string, kinds: Set<string>): string | undefined {
  const parts = file.split("/");
  const name = parts.at(-1)!;
  const layered = new RegExp(
    `^([a-z][a-zA-Z0-9]*)(\\.[a-z][a-zA-Z0-9]*)?\\.(${LAYERS.join("|")})\\.test\\.ts$`,
  );
  if (parts[1] === "kinds") {
    // test/kinds/<name>.test.ts: a test over the whole kind table (exports, kind tables).
    if (parts.length === 3) return name.endsWith(".test.ts") ? undefined : "not a test file";
    const kind = parts[2];
    if (parts.length !== 4) return "nested below test/kinds/<kind>/";
    if (!kinds.has(kind)) return `test/kinds/${kind}/ has no provider/kinds/${kind}/`;
    const match = layered.exec(name);
    if (!match) return `not <kind>[.<topic>].<layer>.test.ts with a layer of ${LAYERS.join(", ")}`;
    if (match[1] !== kind) return `named after ${match[1]}, in the folder of ${kind}`;
    return undefined;
  }
  if (parts[1] === "framework") {
    if (parts.length !== 3) return "nested below test/framework/";
    return layered.test(name)
      ? undefined
      : `not <concept>[.<topic>].<layer>.test.ts with a layer of ${LAYERS.join(", ")}`;
  }
  return undefined;
}

const kinds = new Set(
  fs
    .readdirSync(path.join(root, "provider/kinds"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name),
);
const testTree = filesUnder("test");

describe("test file names", () => {
  it("every TypeScript file and folder under test/ is named in camelCase", () => {
    const typescript = testTree.filter((file) => file.endsWith(".ts"));
    expect(typescript.length).toBeGreaterThan(100);
    expect(typescript.filter((file) => !CAMEL_CASE_FILE.test(path.posix.basename(file)))).toEqual([]);
    const folders = new Set(typescript.map((file) => path.posix.dirname(file)));
    const badFolders = [...folders].filter((folder) =>
      folder
        .split("/")
        .slice(1)
        .some((part) => !CAMEL_CASE_FOLDER.test(part)),
    );
    expect(badFolders).toEqual([]);
  });

  it("test/kinds/ and test/framework/ hold <name>[.<topic>].<layer>.test.ts files of a kind there is", () => {
    const placed = [...filesUnder("test/kinds"), ...filesUnder("test/framework")];
    expect(placed.length).toBeGreaterThan(50);
    const wrong = placed.flatMap((file) => {
      const why = misplaced(file, kinds);
      return why ? [`${file}: ${why}`] : [];
    });
    expect(wrong).toEqual([]);
  });

  it("tells a misplaced test from a placed one (the rule itself)", () => {
    const verdicts = [
      "test/kinds/group/group.provider.test.ts",
      "test/kinds/group/group.create.pure.test.ts",
      "test/kinds/kindTables.test.ts",
      "test/framework/claims.repairedDelete.provider.test.ts",
      "test/kinds/group/group.plugin.test.ts",
      "test/kinds/group/groupCreate.test.ts",
      "test/kinds/group/user.pure.test.ts",
      "test/kinds/groups/groups.pure.test.ts",
      "test/framework/bad-input.test.ts",
      "test/framework/claims.test.ts",
    ].map((file) => misplaced(file, kinds) === undefined);
    expect(verdicts).toEqual([true, true, true, true, false, false, false, false, false, false]);
    expect(CAMEL_CASE_FILE.test("catalogue-checks.test.ts")).toBe(false);
    expect(CAMEL_CASE_FILE.test("upgradeFrom0.1.0.test.ts")).toBe(true);
  });

  it("a pure test file imports neither the emulator nor the test engine", () => {
    const pure = testTree.filter((file) => file.endsWith(".pure.test.ts"));
    expect(pure.length).toBeGreaterThan(10);
    const reaching = pure.flatMap((file) => {
      const text = fs.readFileSync(path.join(root, file), "utf8");
      const specifiers = [...text.matchAll(/\bfrom\s+"(\.[^"]+)"/g)].map((m) => m[1]);
      return specifiers
        .map((specifier) => path.posix.relative(".", path.posix.join(path.posix.dirname(file), specifier)))
        .filter((target) => /^(emulator|test\/engine)(\/|$)/.test(target))
        .map((target) => `${file} imports ${target}`);
    });
    expect(reaching).toEqual([]);
  });

  it("the layer in a name says which jest project runs the file: program files the slow one, others the fast", () => {
    const listed = spawnSync(
      process.execPath,
      [require.resolve("jest/bin/jest"), "--listTests", "--json", "--selectProjects", "slow"],
      { cwd: root, encoding: "utf8" },
    );
    expect(listed.status).toBe(0);
    const line = listed.stdout.split("\n").find((l) => l.startsWith("["));
    const slow = new Set(
      (JSON.parse(line!) as string[]).map((file) => path.relative(root, file).split(path.sep).join("/")),
    );
    const layered = testTree.filter((file) => new RegExp(`\\.(${LAYERS.join("|")})\\.test\\.ts$`).test(file));
    expect(layered.filter((file) => file.endsWith(".program.test.ts") !== slow.has(file))).toEqual([]);
  });
});
