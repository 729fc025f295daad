// The tables of kinds `npm run kinds` writes from the definitions' `docs` (tools/kinds/docs.ts): the rows' text
// is the definitions', the layout the table's own; a new kind goes after its neighbours, a kind whose cells no
// longer match its row's leaves it, and the repository's three tables are what the definitions say (the same
// check as `npm run lint`'s `--check`).
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { KindDocs } from "../../provider/framework/kind";
import { KINDS } from "../../provider/kinds";
import { TABLES, withTable, type DocumentedKind } from "../../tools/kinds/docs";

const ROOT = join(__dirname, "../..");
const adoption = TABLES.find((t) => t.file === "docs/guide/adoption.md")!;

const docs = (guide: string, adoptId: string, others = ""): KindDocs => ({
  declares: "something",
  guide,
  inputs: { inputs: "`name`", inPlace: "—", replaces: "—", outputsAdded: "" },
  adoption: { adoptId, others },
});

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "kind-docs-"));
  mkdirSync(join(root, "docs/guide"), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** The adoption table written over `rows`, as its lines of kinds and forms. */
function adoptionOver(rows: string[], kinds: DocumentedKind[]): string[] {
  writeFileSync(
    join(root, adoption.file),
    [
      "Before.",
      "<!-- kinds:start -->",
      "| kind | form | others |",
      "| - | - | - |",
      ...rows,
      "<!-- kinds:end -->",
      "After.",
      "",
    ].join("\n"),
  );
  const text = withTable(root, adoption, kinds);
  expect(text.startsWith("Before.\n<!-- kinds:start -->\n")).toBe(true);
  expect(text.endsWith("<!-- kinds:end -->\nAfter.\n")).toBe(true);
  return text
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) => line.replace(/ +/g, " "));
}

describe("the tables of kinds", () => {
  const a = { type: "A", docs: docs("organization", "the object's id") };
  const b = { type: "B", docs: docs("organization", "the object's id") };
  const c = { type: "C", docs: docs("devices", "—", "adopts") };

  it("keep the file's order and shared rows, and drop a kind that is gone", () => {
    expect(adoptionOver(["| `C` | x | y |", "| `A`, `B`, `Gone` | x | |"], [a, b, c])).toEqual([
      "| `C` | — | adopts |",
      "| `A`, `B` | the object's id | |",
    ]);
  });

  it("give a kind whose cells differ from its row's a row of its own after it", () => {
    const differs = { type: "B", docs: docs("organization", "the object's id", "takes over") };
    expect(adoptionOver(["| `A`, `B` | x | |", "| `C` | x | |"], [a, differs, c])).toEqual([
      "| `A` | the object's id | |",
      "| `B` | the object's id | takes over |",
      "| `C` | — | adopts |",
    ]);
  });

  it("put a new kind after the last row of its neighbours (same adoptId form), or last", () => {
    const d = { type: "D", docs: docs("content", "the object's id") };
    const e = { type: "E", docs: docs("content", "`<groupId>/<eId>`") };
    expect(adoptionOver(["| `A` | x | |", "| `C` | x | |"], [a, c, d, e])).toEqual([
      "| `A` | the object's id | |",
      "| `D` | the object's id | |",
      "| `C` | — | adopts |",
      "| `E` | `<groupId>/<eId>` | |",
    ]);
  });

  it("refuse a document without the markers, naming it", () => {
    writeFileSync(join(root, adoption.file), "| kind |\n");
    expect(() => withTable(root, adoption, [a])).toThrow(
      /docs\/guide\/adoption\.md: no table of kinds between/,
    );
  });

  it("are, in the repository, what the definitions' docs say", () => {
    const kinds = Object.values(KINDS).map((k) => ({ type: k.type as string, docs: k.docs }));
    const stale = TABLES.filter(
      (t) => withTable(ROOT, t, kinds) !== readFileSync(join(ROOT, t.file), "utf8"),
    );
    expect(stale.map((t) => t.file)).toEqual([]);
  });
});
