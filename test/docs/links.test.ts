// The repository's Markdown names only files that exist: relative links, links to this repository's files on
// GitHub, and file paths in backticks (`provider/framework/claims.ts`, or a bare `groupCreate.ts`, looked up by
// name anywhere in the tree). Files move; a document that still points at the old place misleads its reader.
// A link to a section (`guide/export.md#content`, `#lookups`) names a heading the Markdown file has: sections
// move between pages too.
import * as fs from "fs";
import * as path from "path";
import { repoRoot } from "./snippets";

/** The parts of markdown-it's tokens read here (the package ships no types). */
interface Token {
  type: string;
  content: string;
  map: [number, number] | null;
  children: Token[] | null;
  attrGet(name: string): string | null;
}
const MarkdownIt = require("markdown-it") as new () => { parse(text: string, env: object): Token[] };

const REPOSITORY = "https://github.com/pulumi-devicemgmt/pulumi-devicemgmt/";

/**
 * Named in backticks but not files of the repository, on purpose. Each is said where it is named:
 * - `kiosk-config.json`: a file uploaded into the emulator's seeded organization (emulator/README.md), not ours;
 * - `write-checkpoint.ts`, `test/harness/engine.ts`: the script and the test engine of release 0.1.0 that wrote
 *   test/fixtures/checkpoint-0.1.0 (its README shows the script and names that commit).
 */
const NOT_REPOSITORY_FILES = new Set(["kiosk-config.json", "write-checkpoint.ts", "test/harness/engine.ts"]);

/** Extensions that make a backticked word a file name (`index.ts`), where `a/b` alone may be an id pair. */
const FILE_NAME = /^[\w@-][\w@.-]*\.(ts|js|mjs|json|ya?ml|md|go|mod|sum|sh)$/;

// Folders a build or a run writes (dist/, results/, .pulumi/, ...): .gitignore's folders, named in documents as
// outputs, so they need not exist in a checkout. node_modules holds other packages' files, .git none at all.
const ignoredFolders = new Set(
  fs
    .readFileSync(path.join(repoRoot, ".gitignore"), "utf8")
    .split("\n")
    .filter((line) => /^[\w.-]+\/$/.test(line))
    .map((line) => line.slice(0, -1))
    .concat(".git"),
);

/** Every file and folder under `folder` (repository-relative, "" for all), outside ignored folders and node_modules. */
function walk(folder: string): string[] {
  return fs.readdirSync(path.join(repoRoot, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = folder ? `${folder}/${entry.name}` : entry.name;
    if (!entry.isDirectory()) return [relative];
    return ignoredFolders.has(entry.name) || entry.name === "node_modules"
      ? []
      : [relative, ...walk(relative)];
  });
}
const entries = walk("");
const existing = new Set(entries);
// A bare file name may also be one of the Pulumi SDK's, whose internals docs/performance.md discusses
// (`createClosure.js`, the serializer).
const names = new Set(
  [...entries, ...walk("node_modules/@pulumi/pulumi")].map((entry) => path.posix.basename(entry)),
);
const topLevel = new Set(entries.filter((entry) => !entry.includes("/")));

// CHANGELOG.md is left out: it is history, and names files as they were when each change was made (a folder
// since split up, a module since renamed); rewriting it to today's tree would make it wrong about the past.
// docs/reference/ is typedoc's output (test/docs/reference.test.ts): its links are checked, but its backticked
// words are type signatures, not paths.
const documents = entries.filter((entry) => entry.endsWith(".md") && entry !== "CHANGELOG.md");

/**
 * The anchors of a Markdown text's headings, as GitHub makes them: the heading's text (code spans as their
 * text, links as theirs), lower-cased, without punctuation or symbols but `-` and `_`, spaces as `-`; a repeated
 * anchor gets `-1`, `-2`, ….
 */
function anchorsOf(text: string): Set<string> {
  const tokens = new MarkdownIt().parse(text, {});
  const anchors = new Set<string>();
  tokens.forEach((token, index) => {
    if (token.type !== "heading_open") return;
    const words = (tokens[index + 1].children ?? [])
      .filter((child) => child.type === "text" || child.type === "code_inline")
      .map((child) => child.content)
      .join("");
    const base = words
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
      .replace(/ /g, "-");
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
    anchors.add(anchor);
  });
  return anchors;
}
const anchorCache = new Map<string, Set<string>>();
/** The anchors of a repository file's headings (none for a file that is not Markdown). */
function anchorsOfFile(file: string): Set<string> {
  if (!anchorCache.has(file))
    anchorCache.set(
      file,
      file.endsWith(".md") ? anchorsOf(fs.readFileSync(path.join(repoRoot, file), "utf8")) : new Set(),
    );
  return anchorCache.get(file)!;
}

/** A repository-relative path that should exist, or undefined when `target` is no link into the repository. */
function linkTarget(document: string, target: string): string | undefined {
  const file = target.split(/[#?]/)[0];
  if (target.startsWith(REPOSITORY)) {
    const inTree = /^(?:blob|tree)\/main\/(.+)$/.exec(target.slice(REPOSITORY.length).split(/[#?]/)[0]);
    return inTree ? inTree[1].replace(/\/$/, "") : undefined;
  }
  if (/^[a-z][\w+.-]*:/i.test(target) || file === "") return undefined; // another site, mailto:, an anchor
  return path.posix.normalize(path.posix.join(path.posix.dirname(document), file)).replace(/\/$/, "");
}

/** Why a backticked word names no file, or undefined when it is one (or names no repository path at all). */
function missingPath(document: string, word: string): string | undefined {
  const name = word.replace(/^\.\//, "").replace(/\/$/, "");
  if (NOT_REPOSITORY_FILES.has(name) || /[<>*{}$~…]/.test(name)) return undefined; // a pattern, not a file
  if (name.split("/").some((part) => ignoredFolders.has(part))) return undefined; // e.g. backend/.pulumi/stacks/…
  if (!name.includes("/"))
    return FILE_NAME.test(name) && !names.has(name) ? "no file of that name" : undefined;
  if (topLevel.has(name.split("/")[0]))
    return existing.has(name) || existing.has(path.posix.join(path.posix.dirname(document), name))
      ? undefined
      : "no such path";
  // `framework/claims.ts`: the end of some file's path.
  return FILE_NAME.test(path.posix.basename(name)) &&
    !entries.some((e) => e === name || e.endsWith(`/${name}`))
    ? "no file's path ends so"
    : undefined;
}

/** The problems of `document` (its `text`): "<file>:<line>: <what>: <why>". */
function problems(document: string, text = fs.readFileSync(path.join(repoRoot, document), "utf8")): string[] {
  const lines = text.split("\n");
  const generated = document.startsWith("docs/reference/");
  const found: string[] = [];
  /** The line of `needle` within a block's lines `[from, to)` (inline tokens only know their block's lines). */
  const lineOf = ([from, to]: [number, number], needle: string) =>
    from +
    Math.max(
      0,
      lines.slice(from, to).findIndex((line) => line.includes(needle)),
    ) +
    1;
  /** A link's section that the Markdown file it leads to (`document` itself for `#…`) has no heading for. */
  const missingSection = (href: string, block: [number, number]) => {
    const anchor = /#(.+)$/.exec(href)?.[1];
    if (anchor === undefined || (/^[a-z][\w+.-]*:/i.test(href) && !href.startsWith(REPOSITORY))) return;
    const file = href.startsWith("#") ? document : linkTarget(document, href);
    if (file === undefined || !file.endsWith(".md")) return;
    const anchors =
      file === document ? anchorsOf(text) : existing.has(file) ? anchorsOfFile(file) : undefined;
    if (anchors && !anchors.has(decodeURIComponent(anchor)))
      found.push(`${document}:${lineOf(block, href)}: link to ${file}#${anchor}: no such section`);
  };
  const visit = (tokens: Token[], block: [number, number]) => {
    for (const token of tokens) {
      if (token.type === "link_open") {
        const href = token.attrGet("href") ?? "";
        const target = href.startsWith(REPOSITORY) ? undefined : linkTarget(document, href); // URLs: below
        if (target !== undefined && !existing.has(target))
          found.push(`${document}:${lineOf(block, href)}: link to ${target}: no such path`);
        if (!generated) missingSection(href, block);
      } else if (token.type === "code_inline" && !generated) {
        const why = missingPath(document, token.content.trim());
        if (why) found.push(`${document}:${lineOf(block, token.content)}: \`${token.content}\`: ${why}`);
      }
      if (token.children) visit(token.children, token.map ?? block);
    }
  };
  visit(new MarkdownIt().parse(text, {}), [0, lines.length]);
  // This repository's file URLs, in links and anywhere else (a workflow's comment inside a code block).
  for (const [index, line] of lines.entries())
    for (const [url] of line.matchAll(
      /https:\/\/github\.com\/pulumi-devicemgmt\/pulumi-devicemgmt\/[^\s)>"'`]+/g,
    )) {
      const target = linkTarget(document, url);
      if (target !== undefined && !existing.has(target))
        found.push(`${document}:${index + 1}: link to ${target}: no such path`);
    }
  return found;
}

it("checks the repository's documents", () => {
  expect(documents).toEqual(
    expect.arrayContaining([
      "README.md",
      "CONTRIBUTING.md",
      "docs/architecture.md",
      "docs/guide/README.md",
      "docs/troubleshooting.md",
      "emulator/README.md",
      "examples/ci/README.md",
      "examples/policy/README.md",
      "docs/reference/README.md",
    ]),
  );
});

it("every file a document links to or names in backticks exists, and every section it links to", () => {
  expect(documents.flatMap((document) => problems(document))).toEqual([]);
});

it("every exception of the allow-list is still named by a document", () => {
  const texts = documents.map((document) => fs.readFileSync(path.join(repoRoot, document), "utf8"));
  expect(
    [...NOT_REPOSITORY_FILES].filter((name) => !texts.some((text) => text.includes(`\`${name}\``))),
  ).toEqual([]);
});

describe("what counts as a missing file", () => {
  it.each([
    ["`provider/framework/claims.ts`", []],
    ["`provider/framework/gone.ts`", ["x.md:1: `provider/framework/gone.ts`: no such path"]],
    ["`framework/gone.ts`", ["x.md:1: `framework/gone.ts`: no file's path ends so"]],
    ["`groupCreate.ts`", ["x.md:1: `groupCreate.ts`: no file of that name"]],
    [
      "`index.ts`, `createClosure.js`, `backend/.pulumi/stacks/x.json`, `Pulumi.<stack>.yaml`, `dist/provider/index.d.ts`, `groupId/fileId`, `pulumi-devicemgmt/runtime`, `$RUNNER_TEMP/drift.json`, `~/.cache/x.ts`",
      [],
    ],
    ["[here](provider/gone.ts)", ["x.md:1: link to provider/gone.ts: no such path"]],
    [
      `[here](${REPOSITORY}blob/main/provider/gone.ts#L3)`,
      ["x.md:1: link to provider/gone.ts: no such path"],
    ],
    [
      `# An anchor\n\n[here](${REPOSITORY}tree/main/examples/ci) [issues](${REPOSITORY}issues) [a](#an-anchor)`,
      [],
    ],
    ["## `adoptId`: which kinds?\n\n[a](#adoptid-which-kinds) [b](README.md#quick-start)", []],
    ["[a](#gone)", ["x.md:1: link to x.md#gone: no such section"]],
    [
      `[a](README.md#gone) [b](${REPOSITORY}blob/main/docs/guide/export.md#gone)`,
      [
        "x.md:1: link to README.md#gone: no such section",
        "x.md:1: link to docs/guide/export.md#gone: no such section",
      ],
    ],
  ])("%s", (markdown, expected) => {
    expect(problems("x.md", markdown)).toEqual(expected);
  });
});
