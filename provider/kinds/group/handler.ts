/**
 * The Group kind's CRUD, on typed inputs: create (never adopting silently: create.ts), read, update (the fewest
 * calls from the recorded state: reconcile), delete.
 */
import type * as pulumi from "@pulumi/pulumi";
import { NotPossibleError, ObjectGoneError } from "../../errors";
import { NotFoundError, ValidationError, type DeviceMgmtClient, type Group as ApiGroup } from "../../client";
import {
  clientForProps,
  readGroup,
  adoptable,
  carriedInputs,
  jsonClean,
  partialFailure,
  retiredOutputs,
  type Props,
  unlessGone,
  leftByUnfinishedCreate,
  checkKind,
  diffKind,
  diffKindAsked,
  liveInputs,
  type KindHandler,
  liveStateOf,
  stateFrom,
  known,
} from "../../framework";
import { noteDeclaredConfigured, parentGroupFailures } from "./catalogue";
import { createOnce, noteGroupChange } from "./create";
import {
  CONFIGURED_PARENT_KEY,
  configuredParentReason,
  groupProperties,
  type GroupProperties,
  type GroupState,
} from "./properties";
import { groupIdentity } from "./identity";

/** The group's placement: what reconcile brings to the declared state. */
type Placement = Pick<GroupState, "name" | "parentId" | "configured">;

/** Pure: check's rule that configuring cannot be undone, judged against what was declared before. */
export function unconfigureFailure(olds: Props, news: Props): string | undefined {
  if (olds.configured === true && news.configured === false) {
    return (
      "configured: a configured group cannot become unconfigured: configuring is irreversible in the API. " +
      "Keep configured: true, or replace the group with a new resource if you need an unconfigured one."
    );
  }
  return undefined;
}

export function diffGroup(olds: Props, news: Props, sameOrganization?: boolean): pulumi.dynamic.DiffResult {
  return diffKind(groupIdentity, olds, news, sameOrganization);
}

// ---- CRUD ---------------------------------------------------------------------------------------------------

function toOutputs(live: ApiGroup, props: Props): Props {
  return jsonClean({
    ...stateFrom(groupProperties, live, props),
    createdAt: live.createdAt,
    updatedAt: live.updatedAt,
  });
}

/** The placement a group's declared or recorded state asks for (recorded state of 0.1 may lack `configured`). */
const placementOf = ({ name, parentId, configured }: Placement): Placement => ({
  name,
  parentId: parentId ?? null,
  configured: configured === true,
});

/**
 * Brings a group to the declared state with the fewest calls; used by create (adoption) and update. Returns the
 * group as the last answer shows it, or undefined when nothing had to change.
 */
async function reconcile(
  client: DeviceMgmtClient,
  id: string,
  current: Placement,
  want: Placement,
): Promise<ApiGroup | undefined> {
  if (current.configured && !want.configured) {
    throw new NotPossibleError(
      `Group ${id} ("${current.name}") is configured in the organization but the program declares ` +
        `configured: false. Configuring is irreversible: declare configured: true.`,
      { kind: "Group", property: "configured", fix: "declare configured: true" },
    );
  }
  let last: ApiGroup | undefined;
  if (current.name !== want.name || current.parentId !== want.parentId) {
    last = await client.groups.update(id, { name: want.name, parentId: want.parentId });
  }
  if (want.configured && !(last?.isConfigured ?? current.configured)) {
    last = await client.groups.configure(id).catch(async (error: unknown) => {
      // A retried PATCH whose first attempt was applied (or a group configured outside Pulumi since it was last
      // read) is refused as "already configured".
      const now = error instanceof ValidationError ? await client.groups.get(id) : undefined;
      if (!now?.isConfigured) throw error;
      return now;
    });
  }
  // Every rename and move goes through here (adoption included): keep the creates' view of siblings true.
  if (last) await noteGroupChange(client, id, last);
  return last;
}

export const groupHandler: KindHandler<GroupProperties> = {
  async check(olds, news) {
    const { inputs, failures } = checkKind(groupIdentity, news);
    const irreversible = unconfigureFailure(olds, inputs);
    if (irreversible) failures.push({ property: "configured", reason: irreversible });
    // The program's word on the parent (the class records it) counts only when the parent has no id yet (a
    // preview that creates it): a parent with an id is asked of the organization and of this run's Groups, as
    // the plugin, which has no program, asks it, so that both refuse it with the same message.
    const configuredParent = news[CONFIGURED_PARENT_KEY];
    if (typeof configuredParent === "string" && !known(inputs.parentId))
      failures.push({ property: "parentId", reason: configuredParentReason(configuredParent) });
    if (failures.length === 0) failures.push(...(await parentGroupFailures(inputs, olds)));
    return { inputs, failures };
  },

  async diff(id, olds, news) {
    noteDeclaredConfigured(id, news); // so a GroupFile of this change is not refused at check (catalogue.ts)
    return diffKindAsked(groupIdentity, olds, news);
  },

  async create(inputs) {
    const client = clientForProps(inputs);
    const want = placementOf(inputs);
    let live: ApiGroup;
    if (inputs.adoptId !== undefined) {
      live = await adoptable("group", inputs.adoptId, (id) => client.groups.get(id));
    } else {
      live = await createOnce(client, want.name, want.parentId, inputs.sameNameOrdinal, (found) =>
        leftByUnfinishedCreate(groupIdentity.kind, inputs, found),
      );
    }
    try {
      live = (await reconcile(client, live.id, liveStateOf(groupProperties, live), want)) ?? live;
    } catch (error) {
      throw partialFailure(live.id, toOutputs(live, inputs), inputs, error);
    }
    return { id: live.id, outs: toOutputs(live, inputs) };
  },

  async read(id, props) {
    const live = await unlessGone(readGroup(clientForProps(props), id));
    if (!live) return {};
    const outputs = { ...toOutputs(live, props), ...retiredOutputs(props, ["deviceCount"]) };
    return { id, props: outputs, inputs: liveInputs(groupIdentity, outputs) };
  },

  async update(id, olds, news) {
    const client = clientForProps(news);
    // Plan from the recorded outputs (no extra read): PUT carries the whole declared name and parent, and a
    // configure that turns out to be done already is recognised.
    try {
      const updated =
        (await reconcile(client, id, placementOf(olds), placementOf(news))) ?? (await client.groups.get(id));
      return { outs: toOutputs(updated, news) };
    } catch (error) {
      if (error instanceof NotFoundError) {
        throw new ObjectGoneError(
          `Group ${id} no longer exists in the organization. Run \`pulumi refresh\` to forget it, then \`pulumi up\` recreates it.`,
          "Group",
          id,
        );
      }
      const now = await unlessGone(client.groups.get(id));
      if (!now) throw error;
      throw partialFailure(id, toOutputs(now, { ...olds, ...carriedInputs(news) }), news, error);
    }
  },

  async delete(id, props) {
    const client = clientForProps(props);
    await unlessGone(client.groups.delete(id));
    await noteGroupChange(client, id, undefined);
  },
};
