/**
 * Tags on an owner, by name: the difference to attach and detach, and an attach whose refusal is explained in
 * the program's terms. A Device's `tags` and a TagSet's both go through here.
 */
import { NotPossibleError } from "../../errors";
import { ValidationError, type DeviceMgmtClient, type TagOwnerType } from "../../client";

/** Pure: the tag names to attach and detach so that `current` becomes `wanted` (case-insensitively). */
export function tagDifference(current: readonly string[], wanted: readonly string[]) {
  const has = new Set(current.map((n) => n.toLowerCase()));
  const wants = new Set(wanted.map((n) => n.toLowerCase()));
  return {
    // Each name once: "new" and "NEW" are one tag.
    attach: wanted.filter(
      (n, i) =>
        !has.has(n.toLowerCase()) && wanted.findIndex((m) => m.toLowerCase() === n.toLowerCase()) === i,
    ),
    detach: current.filter((n) => !wants.has(n.toLowerCase())),
  };
}

/**
 * Attaches tags by name. The documents do not say what a name that names no tag does (the emulator creates the
 * tag, or refuses it under `rejectUnknownTags`): a refusal is explained in the program's terms.
 */
export async function attachTags(
  client: DeviceMgmtClient,
  kind: string,
  owner: TagOwnerType,
  ownerId: string,
  names: string[],
): Promise<void> {
  try {
    await client.tags.attach(owner, ownerId, names);
  } catch (error) {
    const refused = error instanceof ValidationError ? Object.keys(error.fieldErrors ?? {}) : [];
    if (!(error instanceof ValidationError) || !refused.some((field) => field.startsWith("tags")))
      throw error;
    throw new NotPossibleError(
      `tags: the API refused to attach ${names.map((n) => `"${n}"`).join(", ")} (${error.message}). ` +
        `A tag must exist in the organization's catalogue before it is attached: declare it (Tag) and use its ` +
        `name output, or take an existing one from getTag.`,
      { kind, property: "tags", fix: "declare the Tag first, or use getTag" },
    );
  }
}
