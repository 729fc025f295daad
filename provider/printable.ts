/**
 * Text from the organization or a state file made safe to print and to post. Names are chosen by whoever can
 * edit the organization, so what the commands show must not let a name drive the terminal (ESC, BEL and CSI
 * sequences, carriage returns that overwrite a line, bidirectional overrides that make it read differently) or
 * put links, images or formatting into a Markdown report. A terminal and a Markdown renderer need different
 * escapes: `terminalText` for whatever a command writes, `markdownText` and `markdownCode` for a name inside a
 * Markdown line.
 */

/**
 * Code points shown as escapes rather than as themselves: controls, format characters (bidirectional overrides),
 * line and paragraph separators, surrogates, private use and unassigned code points. Accents, CJK and emoji stay.
 */
export const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]/gu;

const hex = (codePoint: number, width: number) => codePoint.toString(16).toUpperCase().padStart(width, "0");

/** `\u001B`, `\u{1F000}`: how a hidden code point is shown (also a valid escape inside a JSON string). */
const escaped = (c: string) => {
  const codePoint = c.codePointAt(0)!;
  return codePoint > 0xffff ? `\\u{${hex(codePoint, 4)}}` : `\\u${hex(codePoint, 4)}`;
};

/**
 * What a command may write to a terminal or a log: line breaks and tabs stay, every other hidden code point is
 * shown as its escape. JSON text stays valid JSON with the same values (its strings hold no raw line break).
 */
export function terminalText(text: string): string {
  return text.replace(INVISIBLE, (c) => (c === "\n" || c === "\t" ? c : escaped(c)));
}

/** One line: runs of white space (line breaks included) become one space, hidden code points their escapes. */
function visibleLine(text: string): string {
  return text.replace(/\s+/g, " ").trim().replace(INVISIBLE, escaped);
}

/**
 * A name inside a Markdown line (list item, heading), showing as itself and as nothing else: what could start
 * a link, an image, emphasis, a code span, HTML, an entity, math or a table cell is backslash-escaped, and so
 * are the `:` of `://` and the `.` of `www.`, which GitHub would turn into links of their own. (A name never
 * starts a line, so `>`, `-` or `1.` cannot make it a quote or a list: "Acme > EMEA" stays as it reads.)
 */
export function markdownText(text: string): string {
  return visibleLine(text)
    .replace(/[\\`*_[\]<|~&!#$]/g, (c) => `\\${c}`)
    .replace(/:(?=\/\/)/g, "\\:")
    .replace(/(www)\./gi, "$1\\.");
}

/**
 * A code span showing `text` exactly (one line): the fence is one backtick longer than the longest run of
 * backticks in it, and a space pads a text that starts or ends with a backtick.
 */
export function markdownCode(text: string): string {
  const line = visibleLine(text);
  if (!line) return "` `";
  const longest = Math.max(0, ...(line.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  const pad = /^`|`$/.test(line) ? " " : "";
  return `${fence}${pad}${line}${pad}${fence}`;
}
