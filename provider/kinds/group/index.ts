import * as pulumi from "@pulumi/pulumi";
import { NotPossibleError, ObjectGoneError } from "../../errors";
import { z } from "zod";
import { NotFoundError, ValidationError, type DeviceMgmtClient, type Group as ApiGroup } from "../../client";
import { DeviceMgmtResource, type AdoptionArgs } from "../../framework/common";
import { clientForProps } from "../../framework/context";
import { readGroup } from "../../framework/coalescedReads";
import {
  adoptable,
  carriedInputs,
  jsonClean,
  partialFailure,
  retiredOutputs,
  uuid,
  type Props,
  unlessGone,
  type ResourceHandler,
} from "../../framework/framework";
import { createOnce, noteGroupChange } from "./create";
import { leftByUnfinishedCreate } from "../../framework/claims";
import {
  checkKind,
  defineKind,
  diffKind,
  diffKindAsked,
  liveInputs,
  registration,
} from "../../framework/kind";
import { carried, stateFrom, type PropertySpecs, type StateOf } from "../../framework/properties";
import { noteDeclaredConfigured } from "../../framework/catalogueChecks";

// ---- Properties, declared once -----------------------------------------------------------------------------

const groupProperties = {
  name: {
    schema: z
      .string({ error: "name is required and must be a string" })
      .trim()
      .min(1, { error: "name must not be empty" })
      .max(255, { error: "name must be at most 255 characters" }),
    change: "update",
    fromLive: (live: ApiGroup) => live.name,
  },
  parentId: {
    schema: uuid("parentId")
      .nullable()
      .optional()
      .transform((v) => v ?? null),
    change: "update",
    fromLive: (live: ApiGroup) => live.parent?.id ?? null,
    default: null,
  },
  configured: {
    schema: z
      .boolean({ error: "configured must be true or false" })
      .optional()
      .transform((v) => v ?? false),
    change: "update",
    fromLive: (live: ApiGroup) => live.isConfigured,
    default: false,
  },
  sameNameOrdinal: {
    schema: z
      .number({ error: "sameNameOrdinal must be a whole number from 1" })
      .int({ error: "sameNameOrdinal must be a whole number from 1" })
      .min(1, { error: "sameNameOrdinal must be a whole number from 1" })
      .optional(),
    change: "createOnly",
  },
  ...carried,
} satisfies PropertySpecs<ApiGroup>;

export type GroupState = StateOf<typeof groupProperties>;

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

// ---- Diff ---------------------------------------------------------------------------------------------------

export function diffGroup(olds: Props, news: Props, sameOrganization?: boolean): pulumi.dynamic.DiffResult {
  return diffKind(groupKind, olds, news, sameOrganization);
}

// ---- CRUD ---------------------------------------------------------------------------------------------------

function toOutputs(live: ApiGroup, props: Props): Props {
  return jsonClean({
    ...stateFrom(groupProperties, live, props),
    createdAt: live.createdAt,
    updatedAt: live.updatedAt,
  });
}

const placementOf = (props: Props): Placement => ({
  name: props.name as string,
  parentId: (props.parentId as string | null | undefined) ?? null,
  configured: props.configured === true,
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

export const groupHandler: ResourceHandler = {
  async check(olds, news) {
    const { inputs, failures } = checkKind(groupKind, news);
    const irreversible = unconfigureFailure(olds, inputs);
    if (irreversible) failures.push({ property: "configured", reason: irreversible });
    return { inputs, failures };
  },

  async diff(id, olds, news) {
    noteDeclaredConfigured(id, news); // so a GroupFile of this change is not refused at check (catalogueChecks.ts)
    return diffKindAsked(groupKind, olds, news);
  },

  async create(inputs) {
    const client = clientForProps(inputs);
    const want = placementOf(inputs);
    let live: ApiGroup;
    if (typeof inputs.adoptId === "string") {
      live = await adoptable("group", inputs.adoptId, (id) => client.groups.get(id));
    } else {
      const ordinal = typeof inputs.sameNameOrdinal === "number" ? inputs.sameNameOrdinal : undefined;
      live = await createOnce(client, want.name, want.parentId, ordinal, (found) =>
        leftByUnfinishedCreate("group", inputs, found),
      );
    }
    try {
      live = (await reconcile(client, live.id, placementOf(toOutputs(live, {})), want)) ?? live;
    } catch (error) {
      throw partialFailure(live.id, toOutputs(live, inputs), inputs, error);
    }
    return { id: live.id, outs: toOutputs(live, inputs) };
  },

  async read(id, props) {
    const live = await unlessGone(readGroup(clientForProps(props), id));
    if (!live) return {};
    const outputs = { ...toOutputs(live, props), ...retiredOutputs(props, ["deviceCount"]) };
    return { id, props: outputs, inputs: liveInputs(groupKind, outputs) };
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

// ---- Resource class -----------------------------------------------------------------------------------------

/** The inputs of a {@link Group}. */
export interface GroupArgs extends AdoptionArgs {
  /** The group's name (1 to 255 characters); unique among its siblings. Renaming updates in place. */
  name: pulumi.Input<string>;
  /** The parent group's id (an unconfigured group); null or absent for a root-level group. Re-parenting updates in place. */
  parentId?: pulumi.Input<string | null>;
  /** Configured groups are leaves that hold devices, release channels and content; configuring is irreversible (true → false is refused at preview). Default false. */
  configured?: pulumi.Input<boolean>;
  /**
   * For an organization that keeps several groups of one name under one parent: number them 1, 2, … and this
   * group is copy number `sameNameOrdinal`. Without it a create is refused when a group of that name exists
   * under that parent; with it, when that many were there before the run. Only creates read it. The exporter
   * writes it for same-named siblings.
   */
  sameNameOrdinal?: pulumi.Input<number>;
}

/**
 * A group of the organization's tree: a folder of groups, or (configured) a leaf holding devices and content.
 * Renaming and re-parenting update it in place.
 *
 * A create fails, before any write, when a group of the same name exists under the same parent: take it over
 * with `adoptId`, or use `aliases` if you renamed or moved the resource in code.
 *
 * @example
 * const emea = new dm.Group("emea", { name: "EMEA" });
 * const berlin = new dm.Group("berlin", { name: "Berlin Lab", parentId: emea.id, configured: true });
 */
export class Group extends DeviceMgmtResource {
  /** The group's name. */
  declare readonly name: pulumi.Output<string>;
  /** The parent group's id; null for a root-level group. */
  declare readonly parentId: pulumi.Output<string | null>;
  /** Whether the group is configured (a leaf that holds devices and content). */
  declare readonly configured: pulumi.Output<boolean>;
  /** When the group was created (ISO 8601). */
  declare readonly createdAt: pulumi.Output<string>;
  /** When the group was last changed (ISO 8601). */
  declare readonly updatedAt: pulumi.Output<string>;

  constructor(name: string, args: GroupArgs, opts?: pulumi.CustomResourceOptions) {
    super(...registration(groupKind, name, args, opts));
  }
}

export const groupKind = defineKind({
  kind: "group",
  type: "Group",
  naturalKey: false,
  properties: groupProperties,
  outputs: ["createdAt", "updatedAt"],
  handler: groupHandler,
});
