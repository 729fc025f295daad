/**
 * The Tag kind's properties, declared once (framework/properties.ts), and what every tag name obeys: 1 to 255
 * characters, unique in the organization without regard to case (TagSet's names obey the same).
 */
import { z } from "zod";
import type { Tag as ApiTag } from "../../client";
import { carried, type PropertySpecs, type StateOf, defineIdentity, knownText } from "../../framework";

/** C0 and C1 control characters (NUL, tab, line breaks, escape, DEL, …): no tag name needs one. */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/u;

/** Where a text has its first control character, as "U+000A at position 4" (the character is not printable). */
export function controlCharacterIn(text: string): string | undefined {
  const found = CONTROL_CHARACTER.exec(text);
  if (!found) return undefined;
  const code = found[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
  return `U+${code} at position ${found.index + 1}`;
}

/**
 * Text without control characters. The documents do not say what the API does with one (keeps it, strips it,
 * refuses it): a name holding one would show in the portal and in messages as something else than it is, and
 * is most likely a stray line break from a file or an environment variable.
 */
export const withoutControlCharacters = (what: string) => (text: string, ctx: z.RefinementCtx) => {
  const at = controlCharacterIn(text);
  if (at !== undefined)
    ctx.addIssue({
      code: "custom",
      message: `${what} must not contain control characters (NUL, tab, line breaks, …): found ${at}. Remove it`,
    });
};

/** A tag name's schema; `what` names the property in the failure. */
export const tagName = (what: string) =>
  z
    .string({ error: `${what} must be a string` })
    .trim()
    .min(1, { error: `${what} must not be empty` })
    .max(255, { error: `${what} must be at most 255 characters` })
    .superRefine(withoutControlCharacters(what));

/**
 * Names that are one name without regard to case, as "tags[2] ("vr") and tags[0] ("VR")": each pair once. Such
 * names are one tag where the API matches names without case (the emulator's reading) and two where it does not
 * (the documents are silent), and the provider compares tags without case: either way the owner would not end up
 * with what the list says.
 */
export function sameNamesIn(names: readonly string[], what: string): string[] {
  const first = new Map<string, number>();
  const pairs: string[] = [];
  names.forEach((name, i) => {
    const key = name.toLowerCase();
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, i);
    else pairs.push(`${what}[${i}] ("${name}") and ${what}[${earlier}] ("${names[earlier]}")`);
  });
  return pairs;
}

/** A list of tag names (a Device's, a TagSet's): each a tag name, at most 100, no name twice in any case. */
export const tagNames = (what: string) =>
  z
    .array(tagName(`${what}[]`), { error: `${what} must be a list of tag names` })
    .max(100, { error: `${what}: at most 100 tags` })
    .superRefine((names, ctx) => {
      const pairs = sameNamesIn(names, what);
      if (pairs.length > 0)
        ctx.addIssue({
          code: "custom",
          message:
            `${pairs.join(", ")} name one tag: tag names are compared without case. Keep one spelling of each ` +
            `name`,
        });
    });

/** Two names of one tag: the API matches tag names without case. */
export const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export const tagProperties = {
  name: {
    schema: tagName("name"),
    change: "update",
    fromLive: (live: ApiTag) => live.name,
    description: "The tag's name (1 to 255 characters), unique in the organization without regard to case.",
  },
  ...carried,
} satisfies PropertySpecs<ApiTag>;

export type TagProperties = typeof tagProperties;
export type TagState = StateOf<TagProperties>;

/**
 * Who the Tag kind is: its key, type token, properties, natural key and claim, declared once for the
 * definition, the handler and the kind's other files.
 */
export const tagIdentity = defineIdentity({
  kind: "tag",
  type: "Tag",
  naturalKey: false,
  properties: tagProperties,
  // Tag names compare without case (the API's rule).
  claim: {
    property: "name",
    keys: (p) =>
      knownText(p.name) === undefined ? undefined : [(knownText(p.name) as string).toLowerCase()],
    describe: (p) => `the tag "${String(p.name)}" (tag names compare without case)`,
  },
});
