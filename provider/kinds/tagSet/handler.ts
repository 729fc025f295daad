/**
 * The TagSet kind's CRUD, on typed inputs: the tags one group, app, file or video carries, the whole set,
 * changed by attaching and detaching the difference only. A set records the tags it attached (by id), so that
 * destroy removes those and leaves the owner's others.
 */
import { MalformedIdError } from "../../errors";
import type { DeviceMgmtClient } from "../../client";
import {
  clientForProps,
  jsonClean,
  partialFailure,
  unlessGone,
  type Props,
  checkKind,
  diffKindAsked,
  liveInputs,
  type KindHandler,
  liveStateOf,
  explainedNotFound,
  runLedger,
} from "../../framework";
import { unknownTagFailures } from "../tag/catalogue";
import { tagOwnerFailures } from "./catalogue";
import { namesToBe, writeTags } from "../device/tags";
import { sameName } from "../tag/properties";
import {
  OWNER_TYPES,
  pathOf,
  tagSetProperties,
  type OwnerType,
  type TagSetProperties,
  type TagSetState,
  tagSetIdentity,
} from "./properties";

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
  return liveStateOf(tagSetProperties, found).tags;
}

/**
 * Attaches and detaches the difference between `current` and `wanted` (`writeTags`: a tag this run is about to
 * rename is attached under its name now); nothing when they agree. Returns the ids of the tags this set has
 * attached and the owner did not have before (`added`, as recorded; undefined in state written before sets
 * recorded them), brought up to date: what it attached joins, what it detached leaves. Inside a shared hold of
 * the run's tag names, with `current` read in it.
 */
async function applyTags(
  client: DeviceMgmtClient,
  owner: OwnerType,
  id: string,
  current: string[],
  wanted: string[],
  added: string[] | undefined,
): Promise<string[] | undefined> {
  const { attach, detach } = await writeTags(client, "TagSet", pathOf(owner), id, current, wanted);
  if (added === undefined || (attach.length === 0 && detach.length === 0)) return added;
  // By id: a tag renamed later (a Tag resource's update) is still known as this set's.
  const catalogue = await client.tags.all();
  const idsOf = (names: string[]) =>
    catalogue.filter((t) => names.some((n) => sameName(n, t.name))).map((t) => t.id);
  const detached = new Set(idsOf(detach));
  return [...new Set([...added.filter((t) => !detached.has(t)), ...idsOf(attach)])].sort();
}

/**
 * The owner's tags after a write, under the names this run's planned renames give them; for a group (whose tags
 * cannot be read) the declared ones.
 */
async function tagsAfter(client: DeviceMgmtClient, owner: OwnerType, id: string, declared: string[]) {
  const live = await liveTags(client, owner, id);
  return live ? namesToBe(live) : declared;
}

/** What a set's outputs are made of: its declared owner and connection, and what it recorded of itself. */
type SetRecord = Pick<TagSetState, "ownerType" | "ownerId" | "connection"> & {
  createdInRun?: unknown;
  addedTagIds?: unknown;
};

/** A set records the run that created it (`runLedger.runId`: this process, one engine run). */
const tagSetOutputs = (set: SetRecord, tags: string[]): Props =>
  jsonClean({
    ownerType: set.ownerType,
    ownerId: set.ownerId,
    tags,
    connection: set.connection,
    createdInRun: set.createdInRun ?? runLedger.runId,
    addedTagIds: set.addedTagIds,
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
const addedOf = (props: Props): string[] | undefined =>
  Array.isArray(props.addedTagIds) ? props.addedTagIds : undefined;

/** A set's id is `<ownerType>/<ownerId>`: a read by id alone (an import) finds the owner from it. */
function ownerOf(id: string): { owner: OwnerType; ownerId: string } | undefined {
  const [type, ownerId] = id.split("/");
  const owner = OWNER_TYPES.find((t) => t === type);
  return owner && ownerId ? { owner, ownerId } : undefined;
}

export const tagSetHandler: KindHandler<TagSetProperties> = {
  async check(olds, news) {
    const checked = checkKind(tagSetIdentity, news);
    if (checked.failures.length > 0) return checked;
    const [owner, tags] = await Promise.all([
      tagOwnerFailures(checked.inputs, olds),
      unknownTagFailures("tags", checked.inputs, olds),
    ]);
    checked.failures.push(...owner, ...tags);
    return checked;
  },
  async diff(_id, olds, news) {
    return diffKindAsked(tagSetIdentity, olds, news);
  },
  async create(inputs) {
    const client = clientForProps(inputs);
    const { ownerType: owner, ownerId: id, tags: wanted } = inputs;
    const resourceId = `${owner}/${id}`;
    const outs = await runLedger.tagNames.shared(async () => {
      // A group's current tags cannot be read: only the declared ones are attached, none detached.
      const current =
        (await liveTags(client, owner, id).catch(async (error: unknown) => {
          throw await explainedNotFound("TagSet", error, () => tagOwnerFailures(inputs, {}));
        })) ?? [];
      let addedTagIds: string[] | undefined;
      try {
        addedTagIds = await applyTags(client, owner, id, current, wanted, []);
      } catch (error) {
        throw partialFailure(resourceId, tagSetOutputs(inputs, current), inputs, error);
      }
      return tagSetOutputs({ ...inputs, addedTagIds }, await tagsAfter(client, owner, id, wanted));
    });
    runLedger.recordWrite(writeKey(resourceId));
    return { id: resourceId, outs };
  },
  async read(id, props) {
    const client = clientForProps(props);
    const parsed = ownerOf(id);
    if (!parsed) throw new MalformedIdError(`TagSet id "${id}" is not <ownerType>/<ownerId>.`, "TagSet", id);
    const { owner, ownerId } = parsed;
    const live = await unlessGone(liveTags(client, owner, ownerId).then((t) => t ?? null));
    if (live === undefined) return {};
    // A group's tags cannot be read: an import of a group's set (which has no recorded state) starts from none.
    const outputs = tagSetOutputs(
      { ...props, ownerType: owner, ownerId, createdInRun: props.createdInRun ?? "unknown" },
      live ?? props.tags ?? [],
    );
    return { id, props: outputs, inputs: liveInputs(tagSetIdentity, outputs) };
  },
  async update(id, olds, news) {
    const client = clientForProps(news);
    const { ownerType: owner, ownerId } = news;
    const recorded = { createdInRun: olds.createdInRun, addedTagIds: olds.addedTagIds };
    // Read and written in one shared hold: a Tag's rename in this run falls before the read or after the write.
    return runLedger.tagNames.shared(async () => {
      const current =
        (await liveTags(client, owner, ownerId)) ?? (await groupTagsNow(client, olds)) ?? olds.tags;
      let addedTagIds: string[] | undefined;
      try {
        addedTagIds = await applyTags(client, owner, ownerId, current, news.tags, addedOf(olds));
      } catch (error) {
        throw partialFailure(id, tagSetOutputs({ ...news, ...recorded }, current), news, error);
      }
      const tags = await tagsAfter(client, owner, ownerId, news.tags);
      return { outs: tagSetOutputs({ ...news, ...recorded, addedTagIds }, tags) };
    });
  },
  async delete(id, props) {
    // A set of the same owner made in this run is the same declaration under a new name (renamed in code
    // without aliases: the engine creates the new name before deleting the old): its tags stay.
    if (runLedger.wasWritten(writeKey(id)) && props.createdInRun !== runLedger.runId) return;
    // Removes the tags this set added (by id, under their names now: a tag renamed since is still found), so
    // tags the owner had before the set stay; state written before sets recorded that: the declared tags. The
    // tags themselves stay in the catalogue.
    const client = clientForProps(props);
    const { ownerType: owner, ownerId } = props;
    const added = addedOf(props);
    if (added?.length === 0) return;
    await runLedger.tagNames.shared(async () => {
      const declared = added
        ? (await client.tags.all()).filter((t) => added.includes(t.id)).map((t) => t.name)
        : props.tags;
      const current = await unlessGone(liveTags(client, owner, ownerId).then((t) => t ?? declared));
      if (current === undefined) return;
      const present = current.filter((t) => declared.some((d) => sameName(d, t)));
      if (present.length) await unlessGone(client.tags.detach(pathOf(owner), ownerId, present));
    });
  },
};
