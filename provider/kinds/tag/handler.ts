/**
 * The Tag kind's CRUD, on typed inputs: one tag of the organization's catalogue. A create never takes over a
 * same-named tag silently (names are unique without case), and survives a lost answer without a second tag.
 */
import { ObjectGoneError } from "../../errors";
import type { DeviceMgmtClient, Tag as ApiTag } from "../../client";
import {
  clientForProps,
  adoptable,
  jsonClean,
  notCreatedHere,
  partialFailure,
  unlessGone,
  untilApplied,
  type Props,
  checkKind,
  diffKindAsked,
  readById,
  type KindHandler,
  stateFrom,
  heldByAnother,
  leftByUnfinishedCreate,
  runLedger,
} from "../../framework";
import { noteDeclaredTag } from "./catalogue";
import { sameName, tagProperties, type TagProperties, tagIdentity } from "./properties";

const tagOutputs = (live: ApiTag, props: Props): Props =>
  jsonClean({
    ...stateFrom(tagProperties, live, props),
    createdAt: live.createdAt,
    updatedAt: live.updatedAt,
  });

/**
 * Renames the tag: exclusively, so that no TagSet's or Device's tag write of this run is between reading the
 * owner's tags and writing them (see framework/tagNames.ts); afterwards its planned rename is settled.
 */
async function renamed(client: DeviceMgmtClient, id: string, name: string): Promise<ApiTag> {
  try {
    return await runLedger.tagNames.exclusive(() => client.tags.update(id, name));
  } finally {
    runLedger.tagNames.renameSettled(id);
  }
}

/**
 * The tag of that name (names are unique without case), or undefined. The whole catalogue is read: the
 * documents do not say how `search` matches, and a miss here would let a create meet a same-named tag.
 */
async function tagNamed(client: DeviceMgmtClient, name: string): Promise<ApiTag | undefined> {
  return (await client.tags.all()).find((t) => sameName(t.name, name));
}

export const tagHandler: KindHandler<TagProperties> = {
  async check(_olds, news) {
    const checked = checkKind(tagIdentity, news);
    if (checked.failures.length === 0) noteDeclaredTag(checked.inputs);
    return checked;
  },
  async diff(id, olds, news) {
    const diff = await diffKindAsked(tagIdentity, olds, news);
    // A rename the engine will make: TagSets and Devices writing tags meanwhile attach the tag by its name now.
    const { name: from } = olds;
    const { name: to } = news;
    if (
      diff.changes &&
      !diff.replaces?.length &&
      typeof from === "string" &&
      typeof to === "string" &&
      from !== to
    )
      runLedger.tagNames.announceRename(id, { from, to });
    return diff;
  },
  async create(inputs) {
    const client = clientForProps(inputs);
    const name = inputs.name;
    let live: ApiTag;
    if (inputs.adoptId !== undefined) {
      live = await adoptable("tag", inputs.adoptId, (id) => client.tags.get(id));
    } else {
      const existing = await tagNamed(client, name);
      // The tag a killed run of this very resource made is its own: taken over (and renamed if its case differs).
      const own = existing && leftByUnfinishedCreate(tagIdentity.kind, inputs, [existing]);
      if (own) live = own;
      else if (existing)
        throw notCreatedHere(
          `A tag named "${existing.name}" already exists (id ${existing.id}), and this Tag did not create it.`,
          "a tag",
          existing.id,
        );
      else
        live = await untilApplied(
          () => client.tags.create(name),
          async () => {
            const made = await tagNamed(client, name);
            return made && !heldByAnother(tagIdentity.kind, made.id, inputs) ? made : undefined;
          },
        );
    }
    try {
      if (live.name !== name) live = await renamed(client, live.id, name);
    } catch (error) {
      throw partialFailure(live.id, tagOutputs(live, inputs), inputs, error);
    }
    return { id: live.id, outs: tagOutputs(live, inputs) };
  },
  read: (id, props) =>
    readById(tagIdentity, id, props, (client, tagId) => client.tags.get(tagId), tagOutputs),
  async update(id, _olds, news) {
    const client = clientForProps(news);
    const live = await unlessGone(renamed(client, id, news.name));
    if (!live)
      throw new ObjectGoneError(
        `Tag ${id} no longer exists in the organization. Run \`pulumi refresh\` to forget it, then \`pulumi up\` recreates it.`,
        "Tag",
        id,
      );
    return { outs: tagOutputs(live, news) };
  },
  async delete(id, props) {
    const client = clientForProps(props);
    // Exclusively, as a rename: deleting removes the tag from every owner by name.
    await runLedger.tagNames.exclusive(() => unlessGone(client.tags.delete(id)));
  },
};
