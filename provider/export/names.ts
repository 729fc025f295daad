/**
 * The naming primitives of the generated program: slugs of objects' names, unique names by levels of
 * candidates, and TypeScript identifiers. naming.ts uses them for groups, users and attachments,
 * experiencePlan.ts for themes, lookups and experiences.
 */
const SLUG_PART_LENGTH = 40;

/** Lowercase letters and digits of any script (accents dropped) joined by single dashes; "" when none. */
export function slugify(text: string): string {
  const slug = text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "");
  return [...slug].slice(0, SLUG_PART_LENGTH).join("").replace(/-+$/, "");
}

export interface NameRequest {
  /** Preferred names, most readable first; an empty string is never used. */
  candidates: string[];
  /** What gets `-2`, `-3` … when every candidate collides; defaults to the last candidate. */
  numberBase?: string;
}

/**
 * Gives each request a name not in `taken` (and adds it there). At each level a candidate is used only if no
 * other pending request has the same one, so equal candidates push all their owners to the next level; the
 * rest are numbered in the order given.
 */
export function assignUnique(requests: NameRequest[], taken: Set<string>, separator = "-"): string[] {
  const names: string[] = new Array(requests.length);
  let pending = requests.map((_, index) => index);
  const levels = Math.max(0, ...requests.map((r) => r.candidates.length));
  for (let level = 0; level < levels && pending.length > 0; level++) {
    const counts = new Map<string, number>();
    for (const index of pending) {
      const candidate = requests[index].candidates[level];
      if (candidate) counts.set(candidate, (counts.get(candidate) ?? 0) + 1);
    }
    pending = pending.filter((index) => {
      const candidate = requests[index].candidates[level];
      if (!candidate || counts.get(candidate) !== 1 || taken.has(candidate)) return true;
      names[index] = candidate;
      taken.add(candidate);
      return false;
    });
  }
  for (const index of pending) {
    const request = requests[index];
    const base = request.numberBase || request.candidates.filter(Boolean).at(-1) || "resource";
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}${separator}${n}`;
    names[index] = name;
    taken.add(name);
  }
  return names;
}

// ---- TypeScript identifiers ---------------------------------------------------------------------------------

/** Words a top-level `const` of a CommonJS module may not (or should not) use. */
export const RESERVED_IDENTIFIERS = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally " +
    "for function if import in instanceof new null return super switch this throw true try typeof var void " +
    "while with yield let static implements interface package private protected public await arguments eval " +
    "undefined require exports module process console global globalThis __filename __dirname " +
    // The generated program's own names (program.ts and the kinds' export.ts sections).
    "pulumi dm config adopt retainAdopted options absentDevices placeDevice"
  ).split(" "),
);

/**
 * `assignUnique` for TypeScript identifiers: numbered without a dash (`siteTag2`, not `siteTag-2`, which is no
 * identifier), from the first candidate unless a `numberBase` is given.
 */
export function assignIdentifiers(requests: NameRequest[], taken: Set<string>): string[] {
  return assignUnique(
    requests.map((r) => ({ ...r, numberBase: r.numberBase ?? r.candidates.find(Boolean) ?? "resource" })),
    taken,
    "",
  );
}

/** camelCase of a slug, made a valid identifier; `prefix` goes in front when it would start with a digit. */
export function identifierFrom(slug: string, prefix: string): string {
  const words = slug
    .split("-")
    .map((word) => [...word].filter((c) => /\p{ID_Continue}/u.test(c)).join(""))
    .filter(Boolean);
  const camel = words.map((word, i) => (i === 0 ? word : word[0].toUpperCase() + word.slice(1))).join("");
  if (!camel) return prefix;
  return /^\p{ID_Start}/u.test(camel) ? camel : prefix + camel[0].toUpperCase() + camel.slice(1);
}

/** `berlinLab` + `Group`, but `adminRole` stays as it is and so does `role` alone. */
export const withSuffix = (identifier: string, suffix: string) =>
  identifier.endsWith(suffix) || identifier === suffix.toLowerCase() ? identifier : identifier + suffix;

/**
 * What a lookup's variable ends with, after the thing it finds ("app" → "App": `trainingApp`), so that a looked-up
 * app and video of one name get two variables.
 */
export const lookupSuffix = (thing: string) => thing.charAt(0).toUpperCase() + thing.slice(1);
