// Text the commands print and post: a terminal obeys no control sequence of a name, and a Markdown renderer
// (markdown-it with linkify, which links at least what GitHub's autolinks do) shows a name as itself.
import { printableIo } from "../../provider/cliSupport";
import { markdownCode, markdownText, terminalText } from "../../provider/printable";
import { HOSTILE_NAMES, OBEYED, visible } from "./support";

interface Token {
  type: string;
  content: string;
  children: Token[] | null;
}
const MarkdownIt = require("markdown-it") as new (options: { linkify: boolean }) => {
  parseInline(text: string, env: object): Token[];
};
const markdown = new MarkdownIt({ linkify: true });
/** The inline tokens of one Markdown line (less the empty text tokens the parser leaves around delimiters). */
const inline = (line: string) =>
  (markdown.parseInline(line, {})[0].children ?? []).filter((t) => t.type !== "text" || t.content !== "");

describe("terminalText", () => {
  it("shows every hidden code point as its escape and keeps line breaks and tabs", () => {
    expect(terminalText("a\u001b[31mb\u0007c\u009bd\re\u202Ef\tg\nh")).toBe(
      "a\\u001B[31mb\\u0007c\\u009Bd\\u000De\\u202Ef\tg\nh",
    );
    for (const name of HOSTILE_NAMES) expect(terminalText(name)).not.toMatch(OBEYED);
  });

  it("keeps JSON valid and equal: its strings hold the same names", () => {
    const json = JSON.stringify({ names: HOSTILE_NAMES }, null, 2);
    expect(json).toMatch(OBEYED); // JSON.stringify leaves C1 controls and bidi overrides raw
    const shown = terminalText(json);
    expect(shown).not.toMatch(OBEYED);
    expect(JSON.parse(shown)).toEqual({ names: HOSTILE_NAMES });
  });

  it("is what printableIo writes on both streams", () => {
    const written: string[] = [];
    const io = printableIo({
      stdout: (t) => written.push(`out ${t}`),
      stderr: (t) => written.push(`err ${t}`),
    });
    io.stdout("\u001b]0;title\u0007\n");
    io.stderr("\u001b[2J");
    expect(written).toEqual(["out \\u001B]0;title\\u0007\n", "err \\u001B[2J"]);
  });
});

describe("markdownText", () => {
  it.each(HOSTILE_NAMES)(
    "%j renders as its own text, with no link, image, emphasis, code or HTML",
    (name) => {
      const line = `**group** ${markdownText(name)} (configured)`;
      expect(line).not.toMatch(OBEYED);
      const tokens = inline(line);
      // The template's own bold, then the name as plain text (escapes are tokens of their own).
      expect(tokens.slice(0, 3).map((t) => t.type)).toEqual(["strong_open", "text", "strong_close"]);
      const rest = tokens.slice(3);
      expect(rest.filter((t) => t.type !== "text" && t.type !== "text_special")).toEqual([]);
      expect(rest.map((t) => t.content).join("")).toBe(` ${visible(name)} (configured)`);
    },
  );

  it("leaves ordinary names as they are", () => {
    expect(markdownText("Berlin Lab (old)")).toBe("Berlin Lab (old)");
    expect(markdownText("ada.admin@acme.example")).toBe("ada.admin@acme.example");
  });
});

describe("markdownCode", () => {
  it.each([...HOSTILE_NAMES, "`", "``x``", " padded ", ""])("%j is one code span holding it", (name) => {
    const tokens = inline(`managed by ${markdownCode(name)}.`);
    expect(tokens.map((t) => t.type)).toEqual(["text", "code_inline", "text"]);
    expect(tokens[1].content).toBe(visible(name) || " ");
  });
});
