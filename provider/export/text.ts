/** Text made safe for the generated files: TypeScript and YAML string literals, comment lines (Markdown: printable.ts). */

import { INVISIBLE } from "../printable";

// ---- Escaping -----------------------------------------------------------------------------------------------

const hex = (codePoint: number, width: number) => codePoint.toString(16).toUpperCase().padStart(width, "0");

/** A TypeScript string literal whose value is exactly `text`. */
export function tsString(text: string): string {
  return JSON.stringify(text).replace(INVISIBLE, (c) => {
    const codePoint = c.codePointAt(0)!;
    return codePoint > 0xffff ? `\\u{${hex(codePoint, 4)}}` : `\\u${hex(codePoint, 4)}`;
  });
}

/** A YAML double-quoted scalar whose value is exactly `text` (JSON escapes are YAML escapes). */
export function yamlString(text: string): string {
  return JSON.stringify(text).replace(INVISIBLE, (c) => {
    const codePoint = c.codePointAt(0)!;
    return codePoint > 0xffff ? `\\U${hex(codePoint, 8)}` : `\\u${hex(codePoint, 4)}`;
  });
}

/** Text safe inside a `//` or `#` comment: one line, nothing invisible. */
export function oneLine(text: string): string {
  return text.replace(INVISIBLE, " ").replace(/\s+/g, " ").trim();
}
