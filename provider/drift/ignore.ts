/**
 * The ignore file: objects managed elsewhere on purpose (break-glass accounts, a team's own groups), which the
 * report must not call unmanaged. One rule a line: the kind (as the report's JSON names it, or `*` for any)
 * and a pattern matched, case-insensitively, against the object's e-mail, name, group path or id; `*` matches
 * any run of characters. `#` starts a comment. A rule only keeps an object out of "not managed by any stack": a
 * managed object that changed or is gone is reported whatever the rules say.
 *
 *     # break-glass accounts
 *     user breakglass-*@acme.example
 *     group Acme Training > Sandbox*
 */
import { readFile } from "node:fs/promises";

export interface IgnoreRule {
  kind: string;
  pattern: string;
  /** Where it was written, for the report ("ignore.txt:3"). */
  source: string;
  matches: (text: string) => boolean;
}

/** A line of the ignore file (`source`: `<file>:<line>`, or the file) the report cannot use, and why. */
export class IgnoreFileError extends Error {
  constructor(
    readonly source: string,
    readonly problem: string,
  ) {
    super(`${source}: ${problem}`);
    this.name = "IgnoreFileError";
  }
}

function globMatcher(pattern: string): (text: string) => boolean {
  const escaped = pattern
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  const regex = new RegExp(`^${escaped}$`, "i");
  return (text) => regex.test(text.trim());
}

export function parseIgnoreFile(text: string, file: string, kinds: readonly string[]): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.replace(/(^|\s)#.*$/, "").trim();
    if (!line) return;
    const source = `${file}:${index + 1}`;
    const space = line.search(/\s/);
    const kind = space < 0 ? line : line.slice(0, space);
    const pattern = space < 0 ? "" : line.slice(space).trim();
    if (kind !== "*" && !kinds.includes(kind)) {
      throw new IgnoreFileError(
        source,
        `"${kind}" is not a kind; a rule is "<kind> <pattern>" with kind one of ${kinds.join(", ")} or *.`,
      );
    }
    if (!pattern) {
      throw new IgnoreFileError(
        source,
        `no pattern after "${kind}"; write e.g. "user breakglass@example.com" (* matches anything).`,
      );
    }
    rules.push({ kind, pattern, source, matches: globMatcher(pattern) });
  });
  return rules;
}

export async function readIgnoreFile(file: string, kinds: readonly string[]): Promise<IgnoreRule[]> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new IgnoreFileError(file, `Cannot read the ignore file: ${(error as Error).message}`);
  }
  return parseIgnoreFile(text, file, kinds);
}

/** Every rule that ignores an object of this kind with these names, in the file's order. */
export function rulesMatching(
  rules: readonly IgnoreRule[],
  kind: string,
  names: readonly string[],
): IgnoreRule[] {
  return rules.filter(
    (rule) => (rule.kind === "*" || rule.kind === kind) && names.some((n) => rule.matches(n)),
  );
}

/** The first rule that ignores an object of this kind with these names, if any. */
export function ignoredBy(
  rules: readonly IgnoreRule[],
  kind: string,
  names: readonly string[],
): IgnoreRule | undefined {
  return rulesMatching(rules, kind, names)[0];
}

/**
 * The rules of compared kinds (or `*`) that named no object the report would otherwise list as unmanaged: a
 * misspelt e-mail, a deleted account, an invitee who has not accepted yet (a pending invitation is not yet a
 * user), or a kind the report never lists as unmanaged (devices, experiences, tag sets, channel versions). A
 * rule of a kind this run did not compare (`--kinds`) could not match, so it is not one of them.
 */
export function unusedRules(
  rules: readonly IgnoreRule[],
  used: ReadonlySet<IgnoreRule>,
  comparedKinds: readonly string[],
): IgnoreRule[] {
  return rules.filter((rule) => !used.has(rule) && (rule.kind === "*" || comparedKinds.includes(rule.kind)));
}
