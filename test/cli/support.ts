// Shared by the tests of what the commands print: names chosen to break it, and how a report must show them.

/** Raw code points a terminal acts on or that change how a line reads (line breaks and tabs aside). */
export const OBEYED = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;

/** Names chosen to break a report: escape sequences, links, a tracking pixel, emphasis, code spans, HTML. */
export const HOSTILE_NAMES = [
  "Lab \u001b[31mRED\u001b[0m\u0007 \u009b2J done\r overwritten",
  "![pixel](https://track.example.com/p.png?u=1) and [click](https://evil.example.com)",
  "*bold* _em_ **strong** ~~struck~~ `code` ``two`` ends with `",
  "<img src=x onerror=alert(1)> &lt;b&gt; &#x60; <https://auto.example.com>",
  "see www.evil.com or https://evil.com/x | a | table | # not a heading ##",
  "$\\href{https://evil.com}{math}$ \\[x\\] back\\slash",
  "\u202Eevil\u202C exe.txt \u2066isolate\u2069 line\u2028separator",
];

/** A name as a Markdown line shows it: on one line, hidden code points as their escapes. */
export const visible = (name: string) =>
  name
    .replace(/\s+/g, " ")
    .trim()
    .replace(
      /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu,
      (c) => `\\u${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`,
    );
