/** `getTag`: a tag of the catalogue by name, without case. */
import { checker } from "../../client/arguments";
import { liveStateOf } from "../../framework";
import { exactlyOne, lookup, lookupClient, toOutput, type LookupOptions } from "../../lookupSupport";
import { tagProperties } from "./properties";

export interface TagResult {
  id: string;
  /** As the catalogue spells it. */
  name: string;
}

/** Arguments of {@link getTag}. */
export interface GetTagArgs {
  /** The tag's name, matched without case as the API matches it. */
  name: string;
}

/**
 * Finds a tag of the organization's catalogue by name.
 *
 * @function
 * @example
 * export const lobbyTagId = dm.getTagOutput({ name: "lobby" }).id;
 */
export const getTag = lookup(async function getTag(
  args: GetTagArgs,
  options?: LookupOptions,
): Promise<TagResult> {
  const check = checker("getTag", args, 'getTag({ name: "lobby" })');
  check.only("name");
  const name = check.name("name", "tag's name");
  // The whole catalogue: the documents do not say how `search` matches.
  const tags = await lookupClient(options).tags.all();
  const tag = exactlyOne(
    `tag named "${name}"`,
    tags.filter((t) => t.name.toLowerCase() === name.toLowerCase()),
    (t) => t.id,
    tags.map((t) => t.name),
  );
  return { id: tag.id, ...liveStateOf(tagProperties, tag) };
});
/** {@link getTag} with Inputs, as an Output. */
export const getTagOutput = toOutput(getTag);
