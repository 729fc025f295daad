// Issue #41 item 1: everything about a kind is in its folder, declared through its definition; outside
// provider/kinds/ only the kind table (provider/kinds/index.ts) lists kinds. This scans every other file of
// provider/ for what a per-kind table looks like in code: an object literal with two or more keys that are kind
// keys (`{ group: …, user: … }`, a `Record<ResourceKind, …>` written out) and a `switch` with two or more `case`
// labels that are kind keys. Either belongs in the kinds' definitions (a facet, the identity, a catalogue
// check), which the framework or the engine then reads through the table.
import * as fs from "fs";
import * as path from "path";
import * as ts from "typescript";

const ROOT = path.join(__dirname, "../..");
const PROVIDER = path.join(ROOT, "provider");

/** The kind keys, read from their declaration (kindKeys.ts) so that a kind added there is scanned for too. */
function kindKeys(): Set<string> {
  const source = fs.readFileSync(path.join(PROVIDER, "kindKeys.ts"), "utf8");
  const declared = /export type ResourceKind =([^;]*);/.exec(source)?.[1] ?? "";
  return new Set([...declared.matchAll(/"([A-Za-z0-9]+)"/g)].map((m) => m[1]));
}

function filesOutsideKinds(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return full === path.join(PROVIDER, "kinds") ? [] : filesOutsideKinds(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

const nameOf = (name: ts.PropertyName): string | undefined =>
  ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : undefined;

/** Each per-kind table of the file, as "<file>:<line>: <what> keyed by <keys>". */
function kindTablesIn(file: string, keys: Set<string>): string[] {
  const text = fs.readFileSync(file, "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const where = (node: ts.Node) =>
    `${path.relative(ROOT, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node) => {
    if (ts.isObjectLiteralExpression(node)) {
      const named = node.properties
        .map((p) => (p.name === undefined ? undefined : nameOf(p.name as ts.PropertyName)))
        .filter((n): n is string => n !== undefined && keys.has(n));
      if (named.length >= 2) found.push(`${where(node)}: an object keyed by ${named.join(", ")}`);
    }
    if (ts.isSwitchStatement(node)) {
      const labels = node.caseBlock.clauses
        .filter(ts.isCaseClause)
        .map((c) => (ts.isStringLiteral(c.expression) ? c.expression.text : undefined))
        .filter((n): n is string => n !== undefined && keys.has(n));
      if (labels.length >= 2) found.push(`${where(node)}: a switch on ${labels.join(", ")}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("kind tables", () => {
  const keys = kindKeys();

  it("reads the kind keys it scans for", () => {
    expect(keys.size).toBeGreaterThanOrEqual(24);
    expect(keys.has("group")).toBe(true);
  });

  it("no file of provider/ outside kinds/ holds a per-kind table", () => {
    const found = filesOutsideKinds(PROVIDER).flatMap((file) => kindTablesIn(file, keys));
    expect(found).toEqual([]);
  });

  it("finds a table where there is one (the scan itself)", () => {
    const probe = path.join(require("os").tmpdir(), `kind-table-probe-${process.pid}.ts`);
    fs.writeFileSync(
      probe,
      'export const NOUN = { group: "group", user: "user" };\n' +
        'export function f(k: string) { switch (k) { case "tag": return 1; case "device": return 2; } return 0; }\n' +
        "export const ONE = { group: 1, name: 2 };\n",
    );
    try {
      expect(kindTablesIn(probe, keys).map((f) => f.replace(/^.*?:(\d+):/, "$1:"))).toEqual([
        "1: an object keyed by group, user",
        "2: a switch on tag, device",
      ]);
    } finally {
      fs.rmSync(probe);
    }
  });
});
