/**
 * The documents' three tables of kinds, written by `npm run kinds` from each definition's `docs` (`KindDocs` in
 * provider/framework/kind.ts) between the markers `<!-- kinds:start -->` and `<!-- kinds:end -->`:
 * README.md's "Resources", docs/guide/README.md's "Every kind at a glance" and docs/guide/adoption.md's adoption
 * table. Everything else of those files is written by hand.
 *
 * The text of each row is the definitions'; the layout is the table's own, as the kind table keeps its order: rows
 * stay where they are, and kinds that share a row (`GroupFile`, `GroupVideo`) stay together while their cells say
 * the same. A kind whose cells no longer match its row's moves to a row of its own after it, and a new kind's row
 * goes after the last row of its neighbours (same guide page; in the adoption table, same `adoptId` form), or last.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { KindDocs } from "../../provider/framework/kind";

const REPOSITORY = "https://github.com/pulumi-devicemgmt/pulumi-devicemgmt/blob/main/";
const START = "<!-- kinds:start -->";
const END = "<!-- kinds:end -->";

/** A kind as the tables name it: its type, and what its definition says of it. */
export interface DocumentedKind {
  type: string;
  docs: KindDocs;
}

interface KindTable {
  file: string;
  header: string[];
  /** Cells padded to the column's width (the guide's hand-aligned tables), or not (the README's). */
  aligned: boolean;
  kindCell(types: string[]): string;
  cells(docs: KindDocs): string[];
  /** Which rows a new kind's row goes after. */
  neighbours(docs: KindDocs): string;
}

const code = (types: string[]) => types.map((t) => `\`${t}\``).join(", ");

export const TABLES: KindTable[] = [
  {
    file: "README.md",
    header: ["kind", "what it declares", "guide"],
    aligned: false,
    kindCell: (types) =>
      types.map((t) => `[\`${t}\`](${REPOSITORY}docs/reference/classes/${t}.md)`).join(", "),
    cells: (d) => [d.declares, `[${d.guide}](${REPOSITORY}docs/guide/${d.guide}.md)`],
    neighbours: (d) => d.guide,
  },
  {
    file: "docs/guide/README.md",
    header: ["resource", "inputs", "in place", "replaces", "outputs added"],
    aligned: true,
    kindCell: code,
    cells: (d) => [d.inputs.inputs, d.inputs.inPlace, d.inputs.replaces, d.inputs.outputsAdded],
    neighbours: (d) => d.guide,
  },
  {
    file: "docs/guide/adoption.md",
    header: ["kind", "`adoptId`", "the others: what a create does with what is there"],
    aligned: true,
    kindCell: code,
    cells: (d) => [d.adoption.adoptId, d.adoption.others],
    neighbours: (d) => d.adoption.adoptId,
  },
];

/** The kinds each row between the markers names (the `code` spans of its first cell). */
function rowsNow(between: string): string[][] {
  return between
    .split("\n")
    .filter((line) => line.startsWith("|"))
    .slice(2)
    .map((line) => [...line.split(/(?<!\\)\|/)[1].matchAll(/`([^`]+)`/g)].map((m) => m[1]));
}

/** The table's rows, as kinds and their cells, in the layout the file has (see the header). */
function layout(
  table: KindTable,
  between: string,
  kinds: DocumentedKind[],
): { types: string[]; cells: string[] }[] {
  const byType = new Map(kinds.map((k) => [k.type, k.docs]));
  const rows: { types: string[]; cells: string[] }[] = [];
  for (const row of rowsNow(between)) {
    const groups = new Map<string, { types: string[]; cells: string[] }>();
    for (const type of row.filter((t) => byType.has(t))) {
      const cells = table.cells(byType.get(type)!);
      const key = JSON.stringify(cells);
      if (groups.has(key)) groups.get(key)!.types.push(type);
      else groups.set(key, { types: [type], cells });
    }
    rows.push(...groups.values());
  }
  const placed = new Set(rows.flatMap((r) => r.types));
  for (const kind of kinds.filter((k) => !placed.has(k.type))) {
    const mine = table.neighbours(kind.docs);
    const after = rows.map((r) => table.neighbours(byType.get(r.types[0])!)).lastIndexOf(mine);
    rows.splice(after === -1 ? rows.length : after + 1, 0, {
      types: [kind.type],
      cells: table.cells(kind.docs),
    });
  }
  return rows;
}

function markdown(table: KindTable, rows: string[][]): string {
  const all = [table.header, ...rows];
  const widths = table.header.map((_, i) => (table.aligned ? Math.max(...all.map((r) => r[i].length)) : 0));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
  const separator = `| ${widths.map((w) => "-".repeat(Math.max(w, 3))).join(" | ")} |`;
  return [line(table.header), separator, ...rows.map(line)].join("\n");
}

/** The file's text with its table written from the kinds, or an error naming what is wrong with its markers. */
export function withTable(root: string, table: KindTable, kinds: DocumentedKind[]): string {
  const text = fs.readFileSync(path.join(root, table.file), "utf8");
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start === -1 || end < start)
    throw new Error(`${table.file}: no table of kinds between "${START}" and "${END}" (tools/kinds/docs.ts)`);
  const between = text.slice(start + START.length, end);
  const rows = layout(table, between, kinds).map((r) => [table.kindCell(r.types), ...r.cells]);
  return `${text.slice(0, start + START.length)}\n${markdown(table, rows)}\n${text.slice(end)}`;
}
