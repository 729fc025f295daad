/**
 * `Tag`: one tag of the organization's catalogue (CRUD). `TagSet`: the tags one group, app, file or video
 * carries, the whole set, changed through attach/detach of the difference only. (A device's tags are its
 * `Device`'s `tags`.)
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { MalformedIdError, ObjectGoneError } from "../../errors";
import type { DeviceMgmtClient, Tag as ApiTag, TagOwnerType } from "../../client";
import { DeviceMgmtResource, type AdoptionArgs, type ConnectionArg } from "../../framework/common";
import { clientForProps } from "../../framework/context";
import {
  adoptable,
  jsonClean,
  notCreatedHere,
  partialFailure,
  unlessGone,
  untilApplied,
  uuid,
  type Props,
  type ResourceHandler,
} from "../../framework/framework";
import { checkKind, defineKind, diffKindAsked, liveInputs, registration } from "../../framework/kind";
import { carried, stateFrom, type PropertySpecs } from "../../framework/properties";
import { attachTags, tagDifference } from "../device/tags";
import { heldByAnother, leftByUnfinishedCreate } from "../../framework/claims";
import {
  explainedNotFound,
  noteDeclaredTag,
  tagOwnerFailures,
  unknownTagFailures,
} from "../../framework/catalogueChecks";
import { runLedger } from "../../framework/runLedger";

const tagName = (what: string) =>
  z
    .string({ error: `${what} must be a string` })
    .trim()
    .min(1, { error: `${what} must not be empty` })
    .max(255, { error: `${what} must be at most 255 characters` });

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

// ---- Tag ----------------------------------------------------------------------------------------------------

const tagProperties = {
  name: { schema: tagName("name"), change: "update", fromLive: (live: ApiTag) => live.name },
  ...carried,
} satisfies PropertySpecs<ApiTag>;

const tagOutputs = (live: ApiTag, props: Props): Props =>
  jsonClean({
    ...stateFrom(tagProperties, live, props),
    createdAt: live.createdAt,
    updatedAt: live.updatedAt,
  });

/**
 * The tag of that name (names are unique without case), or undefined. The whole catalogue is read: the
 * documents do not say how `search` matches, and a miss here would let a create meet a same-named tag.
 */
async function tagNamed(client: DeviceMgmtClient, name: string): Promise<ApiTag | undefined> {
  return (await client.tags.all()).find((t) => sameName(t.name, name));
}

export const tagHandler: ResourceHandler = {
  async check(_olds, news) {
    const checked = checkKind(tagKind, news);
    if (checked.failures.length === 0) noteDeclaredTag(checked.inputs);
    return checked;
  },
  async diff(_id, olds, news) {
    return diffKindAsked(tagKind, olds, news);
  },
  async create(inputs) {
    const client = clientForProps(inputs);
    const name = inputs.name as string;
    let live: ApiTag;
    if (typeof inputs.adoptId === "string") {
      live = await adoptable("tag", inputs.adoptId, (id) => client.tags.get(id));
    } else {
      const existing = await tagNamed(client, name);
      // The tag a killed run of this very resource made is its own: taken over (and renamed if its case differs).
      const own = existing && leftByUnfinishedCreate("tag", inputs, [existing]);
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
            return made && !heldByAnother("tag", made.id, inputs) ? made : undefined;
          },
        );
    }
    try {
      if (live.name !== name) live = await client.tags.update(live.id, name);
    } catch (error) {
      throw partialFailure(live.id, tagOutputs(live, inputs), inputs, error);
    }
    return { id: live.id, outs: tagOutputs(live, inputs) };
  },
  async read(id, props) {
    const live = await unlessGone(clientForProps(props).tags.get(id));
    if (!live) return {};
    const outputs = tagOutputs(live, props);
    return { id, props: outputs, inputs: liveInputs(tagKind, outputs) };
  },
  async update(id, _olds, news) {
    const client = clientForProps(news);
    const live = await unlessGone(client.tags.update(id, news.name as string));
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
    await unlessGone(client.tags.delete(id));
  },
};

/** The inputs of a {@link Tag}. */
export interface TagArgs extends AdoptionArgs {
  /** The tag's name (1 to 255 characters, unique in the organization without regard to case). Renaming renames it on every owner. */
  name: pulumi.Input<string>;
}

/**
 * A tag of the organization's catalogue. Renaming updates it in place (and on every device, group, app, file
 * and video carrying it); destroy deletes it (and removes it from them). A create fails, before any write,
 * when a tag of that name exists: take it over with `adoptId`.
 *
 * @example
 * const lobby = new dm.Tag("lobby", { name: "lobby" });
 */
export class Tag extends DeviceMgmtResource {
  declare readonly name: pulumi.Output<string>;
  declare readonly createdAt: pulumi.Output<string>;
  declare readonly updatedAt: pulumi.Output<string>;

  constructor(name: string, args: TagArgs, opts?: pulumi.CustomResourceOptions) {
    super(...registration(tagKind, name, args, opts));
  }
}

export const tagKind = defineKind({
  kind: "tag",
  type: "Tag",
  naturalKey: false,
  properties: tagProperties,
  outputs: ["createdAt", "updatedAt"],
  handler: tagHandler,
});

// ---- TagSet -------------------------------------------------------------------------------------------------

const OWNER_TYPES = ["group", "app", "file", "video"] as const;
type OwnerType = (typeof OWNER_TYPES)[number];
const pathOf = (owner: OwnerType): TagOwnerType => `${owner}s`;

const tagsEqual = (a: unknown, b: unknown) =>
  Array.isArray(a) &&
  Array.isArray(b) &&
  tagDifference(a as string[], b as string[]).attach.length === 0 &&
  tagDifference(a as string[], b as string[]).detach.length === 0;

const tagSetProperties = {
  ownerType: {
    schema: z.enum(OWNER_TYPES, { error: `ownerType must be one of ${OWNER_TYPES.join(", ")}` }),
    change: "replace",
  },
  ownerId: { schema: uuid("ownerId"), change: "replace" },
  tags: {
    schema: z.array(tagName("tags[]"), { error: "tags must be a list of tag names" }).max(100, {
      error: "tags: at most 100 tags",
    }),
    change: "update",
    equal: tagsEqual,
  },
  connection: carried.connection,
} satisfies PropertySpecs<never>;

/**
 * The owner's tags as the API shows them, or undefined where it cannot: a group's representation has no tags,
 * so a group's set is known only from what this resource attached. Rejects NotFoundError when the owner is gone.
 */
async function liveTags(
  client: DeviceMgmtClient,
  owner: OwnerType,
  id: string,
): Promise<string[] | undefined> {
  if (owner === "group") return void (await client.groups.get(id));
  const found =
    owner === "app"
      ? await client.apps.get(id)
      : owner === "file"
        ? await client.files.get(id)
        : await client.videos.get(id);
  return found.tags ?? [];
}

/**
 * Attaches and detaches the difference between `current` and `wanted`; nothing when they agree. Returns the ids
 * of the tags this set has attached and the owner did not have before (`added`, as recorded; undefined in
 * state written before sets recorded them), brought up to date: what it attached joins, what it detached leaves.
 */
async function applyTags(
  client: DeviceMgmtClient,
  owner: OwnerType,
  id: string,
  current: string[],
  wanted: string[],
  added: string[] | undefined,
): Promise<string[] | undefined> {
  const { attach, detach } = tagDifference(current, wanted);
  if (attach.length) await attachTags(client, "TagSet", pathOf(owner), id, attach);
  if (detach.length) await client.tags.detach(pathOf(owner), id, detach);
  if (added === undefined || (attach.length === 0 && detach.length === 0)) return added;
  // By id: a tag renamed later (a Tag resource's update) is still known as this set's.
  const catalogue = await client.tags.all();
  const idsOf = (names: string[]) =>
    catalogue.filter((t) => names.some((n) => sameName(n, t.name))).map((t) => t.id);
  const detached = new Set(idsOf(detach));
  return [...new Set([...added.filter((t) => !detached.has(t)), ...idsOf(attach)])].sort();
}

/** A set records the run that created it (`runLedger.runId`: this process, one engine run). */
const tagSetOutputs = (props: Props, tags: string[]): Props =>
  jsonClean({
    ownerType: props.ownerType,
    ownerId: props.ownerId,
    tags,
    connection: props.connection,
    createdInRun: props.createdInRun ?? runLedger.runId,
    addedTagIds: props.addedTagIds,
  });

/**
 * A group's tags as this set left them, under their names now: for a group every declared tag is one the set
 * attached (recorded by id), and a tag renamed since (a Tag's update earlier in the same run) is found under its
 * new name, so the update neither detaches an old name nor attaches one the group already carries. Undefined
 * for state that recorded no ids.
 */
async function groupTagsNow(client: DeviceMgmtClient, olds: Props): Promise<string[] | undefined> {
  const added = addedOf(olds);
  if (added === undefined) return undefined;
  return (await client.tags.all()).filter((t) => added.includes(t.id)).map((t) => t.name);
}

/** The run ledger's key of a set: another set of this run that wrote the same owner holds its tags. */
const writeKey = (resourceId: string) => `TagSet:${resourceId}`;

/** What a set records it added, or undefined for state written before sets recorded it. */
const addedOf = (props: Props) =>
  Array.isArray(props.addedTagIds) ? (props.addedTagIds as string[]) : undefined;

export const tagSetHandler: ResourceHandler = {
  async check(olds, news) {
    const checked = checkKind(tagSetKind, news);
    if (checked.failures.length > 0) return checked;
    const [owner, tags] = await Promise.all([
      tagOwnerFailures(checked.inputs, olds),
      unknownTagFailures("tags", checked.inputs, olds),
    ]);
    checked.failures.push(...owner, ...tags);
    return checked;
  },
  async diff(_id, olds, news) {
    return diffKindAsked(tagSetKind, olds, news);
  },
  async create(inputs) {
    const client = clientForProps(inputs);
    const owner = inputs.ownerType as OwnerType;
    const id = inputs.ownerId as string;
    const wanted = inputs.tags as string[];
    // A group's current tags cannot be read: only the declared ones are attached, none detached.
    const current =
      (await liveTags(client, owner, id).catch(async (error: unknown) => {
        throw await explainedNotFound("TagSet", error, () => tagOwnerFailures(inputs, {}));
      })) ?? [];
    const resourceId = `${owner}/${id}`;
    let addedTagIds: string[] | undefined;
    try {
      addedTagIds = await applyTags(client, owner, id, current, wanted, []);
    } catch (error) {
      throw partialFailure(resourceId, tagSetOutputs(inputs, current), inputs, error);
    }
    runLedger.recordWrite(writeKey(resourceId));
    const outs = tagSetOutputs({ ...inputs, addedTagIds }, (await liveTags(client, owner, id)) ?? wanted);
    return { id: resourceId, outs };
  },
  async read(id, props) {
    const client = clientForProps(props);
    // The id is `<ownerType>/<ownerId>`: a read by id alone (an import) finds the owner from it.
    const [owner, ownerId] = id.split("/") as [OwnerType, string];
    if (!OWNER_TYPES.includes(owner) || !ownerId)
      throw new MalformedIdError(`TagSet id "${id}" is not <ownerType>/<ownerId>.`, "TagSet", id);
    const live = await unlessGone(liveTags(client, owner, ownerId).then((t) => t ?? null));
    if (live === undefined) return {};
    // A group's tags cannot be read: an import of a group's set starts from none.
    const outputs = tagSetOutputs(
      { ...props, ownerType: owner, ownerId, createdInRun: props.createdInRun ?? "unknown" },
      live ?? (props.tags as string[] | undefined) ?? [],
    );
    return { id, props: outputs, inputs: liveInputs(tagSetKind, outputs) };
  },
  async update(id, olds, news) {
    const client = clientForProps(news);
    const owner = news.ownerType as OwnerType;
    const ownerId = news.ownerId as string;
    const current =
      (await liveTags(client, owner, ownerId)) ??
      (await groupTagsNow(client, olds)) ??
      (olds.tags as string[]);
    const recorded = { createdInRun: olds.createdInRun, addedTagIds: olds.addedTagIds };
    let addedTagIds: string[] | undefined;
    try {
      addedTagIds = await applyTags(client, owner, ownerId, current, news.tags as string[], addedOf(olds));
    } catch (error) {
      throw partialFailure(id, tagSetOutputs({ ...news, ...recorded }, current), news, error);
    }
    const tags = (await liveTags(client, owner, ownerId)) ?? (news.tags as string[]);
    return { outs: tagSetOutputs({ ...news, ...recorded, addedTagIds }, tags) };
  },
  async delete(id, props) {
    // A set of the same owner made in this run is the same declaration under a new name (renamed in code
    // without aliases: the engine creates the new name before deleting the old): its tags stay.
    if (runLedger.wasWritten(writeKey(id)) && props.createdInRun !== runLedger.runId) return;
    // Removes the tags this set added (by id, under their names now: a tag renamed since is still found), so
    // tags the owner had before the set stay; state written before sets recorded that: the declared tags. The
    // tags themselves stay in the catalogue.
    const client = clientForProps(props);
    const owner = props.ownerType as OwnerType;
    const ownerId = props.ownerId as string;
    const added = addedOf(props);
    if (added?.length === 0) return;
    const declared = added
      ? (await client.tags.all()).filter((t) => added.includes(t.id)).map((t) => t.name)
      : (props.tags as string[]);
    const current = await unlessGone(liveTags(client, owner, ownerId).then((t) => t ?? declared));
    if (current === undefined) return;
    const present = current.filter((t) => declared.some((d) => sameName(d, t)));
    if (present.length) await unlessGone(client.tags.detach(pathOf(owner), ownerId, present));
  },
};

/** The inputs of a {@link TagSet}. */
export interface TagSetArgs extends ConnectionArg {
  /** What carries the tags: "group", "app", "file" or "video". Changing it replaces the set. */
  ownerType: pulumi.Input<"group" | "app" | "file" | "video">;
  /** The group's, app's, file's or video's id. Changing it replaces the set. */
  ownerId: pulumi.Input<string>;
  /** The owner's tags, the whole set (names of the catalogue's tags, matched without case: declare a Tag, or see getTag). */
  tags: pulumi.Input<pulumi.Input<string>[]>;
}

/**
 * The tags a group, app, file or video carries: the declared list is the whole set, changed by attaching and
 * detaching the difference only. Destroy removes the tags this set attached (followed by id, so a tag renamed
 * meanwhile is removed too); tags the owner had before the set stay. A group's tags are not in its API
 * representation, so for a group refresh cannot see tags changed elsewhere (apps, files and videos: it can), a
 * create attaches the declared tags without removing others, and every declared tag counts as attached by the
 * set. A set imported, or recorded before sets kept `addedTagIds`, removes its declared tags on destroy.
 *
 * @example
 * const simulator = dm.getAppOutput({ name: "Training Simulator" });
 * new dm.TagSet("simulator-tags", { ownerType: "app", ownerId: simulator.id, tags: ["training", "safety"] });
 */
export class TagSet extends DeviceMgmtResource {
  declare readonly ownerType: pulumi.Output<string>;
  declare readonly ownerId: pulumi.Output<string>;
  declare readonly tags: pulumi.Output<string[]>;
  /** The engine run that created the set: a rename in code (new name created, old deleted) keeps the tags. */
  declare readonly createdInRun: pulumi.Output<string>;
  /** The ids of the tags this set attached that the owner did not have before: what destroy removes. */
  declare readonly addedTagIds: pulumi.Output<string[] | undefined>;

  constructor(name: string, args: TagSetArgs, opts?: pulumi.CustomResourceOptions) {
    super(...registration(tagSetKind, name, args, opts));
  }
}

export const tagSetKind = defineKind({
  kind: "tagSet",
  type: "TagSet",
  naturalKey: true,
  properties: tagSetProperties,
  outputs: ["createdInRun", "addedTagIds"],
  handler: tagSetHandler,
});
