/**
 * Tags on an owner, by name: the difference to attach and detach, and an attach whose refusal is explained in
 * the program's terms. A Device's `tags` and a TagSet's both go through here.
 */
import { NotPossibleError } from "../../errors";
import { ValidationError, type DeviceMgmtClient, type TagOwnerType } from "../../client";
import { runLedger, type TagRename } from "../../framework";
import { sameName } from "../tag/properties";

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
 * Pure: what an owner carrying `current` (as read now) must attach and detach to carry `wanted` once this run's
 * planned `renames` are made, and its tags then (`after`). A wanted name that a rename is about to give is
 * attached under the tag's name now: attached by its new name first, it would name no tag yet, and the API
 * would create a second tag of that name (or refuse it), and the rename would then fail on the taken name.
 * Names are compared without case, as the API compares them.
 */
export function tagWrites(
  current: readonly string[],
  wanted: readonly string[],
  renames: readonly TagRename[],
) {
  const nameNow = (name: string) => renames.find((r) => sameName(r.to, name))?.from ?? name;
  const { attach, detach } = tagDifference(current, wanted.map(nameNow));
  const kept = current.filter((name) => !detach.includes(name));
  return { attach, detach, after: renamed([...kept, ...attach], renames) };
}

/** Pure: `names` under the names `renames` give them. */
const renamed = (names: readonly string[], renames: readonly TagRename[]) =>
  names.map((name) => renames.find((r) => sameName(r.from, name))?.to ?? name);

/** Tag names as they will be once this run's planned renames are made. */
export const namesToBe = (names: readonly string[]): string[] =>
  renamed(names, runLedger.tagNames.plannedRenames());

/**
 * Attaches and detaches by name what `tagWrites` says for this run's planned renames; returns what it wrote.
 * Call it inside `runLedger.tagNames.shared`, with `current` read inside the same hold: no rename then falls
 * between the read and the write.
 */
export async function writeTags(
  client: DeviceMgmtClient,
  kind: string,
  owner: TagOwnerType,
  ownerId: string,
  current: readonly string[],
  wanted: readonly string[],
): Promise<{ attach: string[]; detach: string[] }> {
  const { attach, detach } = tagWrites(current, wanted, runLedger.tagNames.plannedRenames());
  if (attach.length) await attachTags(client, kind, owner, ownerId, attach);
  if (detach.length) await client.tags.detach(owner, ownerId, detach);
  return { attach, detach };
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
