/**
 * The GroupCopy kind's CRUD, on typed inputs: create (`POST /groups/{id}/duplicate`, taking over what a killed
 * run's create of this resource made, or `adoptId`), read, update (a rename: PUT carries the copy's current
 * parent, which the program does not declare), delete.
 */
import { ObjectGoneError } from "../../errors";
import { NotFoundError, type DeviceMgmtClient, type Group as ApiGroup } from "../../client";
import {
  adoptable,
  checkKind,
  clientForProps,
  diffKindAsked,
  jsonClean,
  leftByUnfinishedCreate,
  partialFailure,
  readById,
  stateFrom,
  unfinishedCreateStartedAt,
  unlessGone,
  type InputsOf,
  type KindHandler,
  type Props,
} from "../../framework";
import { configuredGroupFailures } from "../group/catalogue";
import { groupCopyIdentity, groupCopyProperties, type GroupCopyProperties } from "./properties";

/** The outputs: the declared properties, and the copy's place as the API answers it (never assumed). */
function toOutputs(live: ApiGroup, props: Props): Props {
  return jsonClean({
    ...stateFrom(groupCopyProperties, live, props),
    parentId: live.parent?.id ?? null,
    configured: live.isConfigured,
    createdAt: live.createdAt,
    updatedAt: live.updatedAt,
  });
}

/** The copy named `name`, renamed if it is not: its parent stays as the API shows it (a move in the portal is the copy's own). */
async function named(client: DeviceMgmtClient, live: ApiGroup, name: string): Promise<ApiGroup> {
  if (live.name === name) return live;
  return client.groups.update(live.id, { name, parentId: live.parent?.id ?? null });
}

/**
 * The copy an earlier create of this very resource made and the state may not hold (killed after the API
 * answered, or with its answer lost): of the configured groups of the declared name, wherever the API put them,
 * the one the note names, or the one no older than that create (framework/claims.ts). Listed only when such a
 * create is noted, so a plain create costs no list.
 */
async function leftByKilledCreate(
  client: DeviceMgmtClient,
  inputs: InputsOf<GroupCopyProperties>,
): Promise<ApiGroup | undefined> {
  if (unfinishedCreateStartedAt(groupCopyIdentity.kind, inputs) === undefined) return undefined;
  const named = (await client.groups.all()).filter((g) => g.name === inputs.name && g.isConfigured);
  return leftByUnfinishedCreate(groupCopyIdentity.kind, inputs, named);
}

export const groupCopyHandler: KindHandler<GroupCopyProperties> = {
  async check(olds, news) {
    const { inputs, failures } = checkKind(groupCopyIdentity, news);
    // At preview: the API copies configured groups only (a Group of this run declared configured counts).
    if (failures.length === 0)
      failures.push(
        ...(await configuredGroupFailures(
          "sourceGroupId",
          inputs,
          olds,
          "only configured groups can be copied",
        )),
      );
    return { inputs, failures };
  },

  async diff(_id, olds, news) {
    return diffKindAsked(groupCopyIdentity, olds, news);
  },

  async create(inputs) {
    const client = clientForProps(inputs);
    if (inputs.adoptId === undefined) {
      const own = await leftByKilledCreate(client, inputs);
      // One POST otherwise: the client never repeats it after an ambiguous answer, and the note of this create
      // stays (interruptedCreates.ts), so the next create takes over the copy a lost answer made.
      const live = own ?? (await client.groups.duplicate(inputs.sourceGroupId, { name: inputs.name }));
      return { id: live.id, outs: toOutputs(live, inputs) };
    }
    const adopted = await adoptable("group", inputs.adoptId, (id) => client.groups.get(id));
    try {
      const live = await named(client, adopted, inputs.name);
      return { id: live.id, outs: toOutputs(live, inputs) };
    } catch (error) {
      throw partialFailure(adopted.id, toOutputs(adopted, inputs), inputs, error);
    }
  },

  read: (id, props) =>
    readById(groupCopyIdentity, id, props, (client, groupId) => client.groups.get(groupId), toOutputs),

  async update(id, olds, news) {
    const client = clientForProps(news);
    try {
      // Read first: the parent as the API shows it now, not as the last run saw it.
      const live = await named(client, await client.groups.get(id), news.name);
      return { outs: toOutputs(live, news) };
    } catch (error) {
      if (error instanceof NotFoundError) {
        throw new ObjectGoneError(
          `GroupCopy ${id} ("${String(olds.name)}") no longer exists in the organization. Run \`pulumi refresh\` to forget it, then \`pulumi up\` copies the group again.`,
          "GroupCopy",
          id,
        );
      }
      throw error;
    }
  },

  async delete(id, props) {
    await unlessGone(clientForProps(props).groups.delete(id));
  },
};
