import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { NotFoundError, ValidationError, type DeviceMgmtClient, type Group as ApiGroup } from "../client";
import { thinProvider } from "../dynamic";
import type { ConnectionInput } from "../connection";
import { clientForProps } from "./context";
import { readGroup } from "./coalescedReads";
import {
  adoptIdSchema,
  adoptable,
  carriedInputs,
  checkProperties,
  connectionSchema,
  connectionStaysInOrganization,
  diffProperties,
  jsonClean,
  partialFailure,
  untilApplied,
  uuid,
  type Props,
  unlessGone,
  type ResourceHandler,
} from "./framework";
import { secretConnection, type ConnectionArgs } from "./secretConnection";

// ---- Input schema -------------------------------------------------------------------------------------------

const groupShape = {
  name: z
    .string({ error: "name is required and must be a string" })
    .trim()
    .min(1, { error: "name must not be empty" })
    .max(255, { error: "name must be at most 255 characters" }),
  parentId: uuid("parentId")
    .nullable()
    .optional()
    .transform((v) => v ?? null),
  configured: z
    .boolean({ error: "configured must be true or false" })
    .optional()
    .transform((v) => v ?? false),
  adoptId: adoptIdSchema,
  connection: connectionSchema,
};

export interface GroupState {
  name: string;
  parentId: string | null;
  configured: boolean;
  adoptId?: string;
  connection?: ConnectionInput;
}

export interface GroupOutputs extends GroupState {
  deviceCount: number;
  createdAt: string;
  updatedAt: string;
}

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
  return diffProperties(
    olds,
    news,
    {
      updatable: ["name", "parentId", "configured"],
      replaceOn: [],
      defaults: { parentId: null, configured: false },
    },
    sameOrganization,
  );
}

// ---- CRUD ---------------------------------------------------------------------------------------------------

function toOutputs(live: ApiGroup, props: Props): GroupOutputs {
  return jsonClean({
    name: live.name,
    parentId: live.parent?.id ?? null,
    configured: live.isConfigured,
    deviceCount: live.deviceCount ?? 0,
    createdAt: live.createdAt,
    updatedAt: live.updatedAt,
    ...carriedInputs(props),
  }) as GroupOutputs;
}

function liveInputs(outputs: GroupOutputs): Props {
  return jsonClean({
    name: outputs.name,
    parentId: outputs.parentId,
    configured: outputs.configured,
    ...carriedInputs(outputs as unknown as Props),
  });
}

const CLOCK_SKEW_MS = 60_000;

/**
 * Creates the group, surviving an ambiguous failure (the request may have been applied): looks for a group of
 * that name under that parent created since the attempt began before trying again, so a retry never
 * duplicates it.
 */
async function createOnce(
  client: DeviceMgmtClient,
  name: string,
  parentId: string | null,
): Promise<ApiGroup> {
  const startedAt = Date.now();
  return untilApplied(
    () => client.groups.create({ name, parentId }),
    async () => {
      const recent = (await client.groups.all()).filter(
        (g) =>
          g.name === name &&
          (g.parent?.id ?? null) === parentId &&
          Date.parse(g.createdAt) >= startedAt - CLOCK_SKEW_MS,
      );
      return recent.length === 1 ? recent[0] : undefined;
    },
  );
}

/** The group's mutable fields, from the API or from recorded outputs. */
interface GroupFields {
  id: string;
  name: string;
  parentId: string | null;
  configured: boolean;
}

const fieldsOf = (group: ApiGroup): GroupFields => ({
  id: group.id,
  name: group.name,
  parentId: group.parent?.id ?? null,
  configured: group.isConfigured,
});

/**
 * Brings a group to the declared state with the fewest calls; used by create (adoption) and update. Returns the
 * group as the last answer shows it, or undefined when nothing had to change.
 */
async function reconcile(
  client: DeviceMgmtClient,
  current: GroupFields,
  want: GroupState,
): Promise<ApiGroup | undefined> {
  if (current.configured && !want.configured) {
    throw new Error(
      `Group ${current.id} ("${current.name}") is configured in the organization but the program declares ` +
        `configured: false. Configuring is irreversible: declare configured: true.`,
    );
  }
  const id = current.id;
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
  return last;
}

function declared(props: Props): GroupState {
  return {
    name: props.name as string,
    parentId: (props.parentId as string | null | undefined) ?? null,
    configured: props.configured === true,
  };
}

export const groupHandler: ResourceHandler = {
  async check(olds, news) {
    const { inputs, failures } = checkProperties("Group", groupShape, news);
    const irreversible = unconfigureFailure(olds, inputs);
    if (irreversible) failures.push({ property: "configured", reason: irreversible });
    return { inputs, failures };
  },

  async diff(_id, olds, news) {
    return diffGroup(olds, news, await connectionStaysInOrganization(olds, news));
  },

  async create(inputs) {
    const client = clientForProps(inputs);
    await client.assertV3Token();
    const want = declared(inputs);
    let live: ApiGroup;
    if (typeof inputs.adoptId === "string") {
      live = await adoptable("group", inputs.adoptId, (id) => client.groups.get(id));
    } else {
      live = await createOnce(client, want.name, want.parentId);
    }
    try {
      live = (await reconcile(client, fieldsOf(live), want)) ?? live;
    } catch (error) {
      throw partialFailure(live.id, toOutputs(live, inputs), inputs, error);
    }
    return { id: live.id, outs: toOutputs(live, inputs) };
  },

  async read(id, props) {
    const live = await unlessGone(readGroup(clientForProps(props), id));
    if (!live) return {};
    const outputs = toOutputs(live, props);
    return { id, props: outputs, inputs: liveInputs(outputs) };
  },

  async update(id, olds, news) {
    const client = clientForProps(news);
    await client.assertV3Token();
    // Plan from the recorded outputs (no extra read): PUT carries the whole declared name and parent, and a
    // configure that turns out to be done already is recognised.
    const recorded: GroupFields = {
      id,
      name: olds.name as string,
      parentId: (olds.parentId as string | null | undefined) ?? null,
      configured: olds.configured === true,
    };
    try {
      const updated = await reconcile(client, recorded, declared(news));
      return { outs: toOutputs(updated ?? (await client.groups.get(id)), news) };
    } catch (error) {
      if (error instanceof NotFoundError) {
        throw new Error(
          `Group ${id} no longer exists in the organization. Run \`pulumi refresh\` to forget it, then \`pulumi up\` recreates it.`,
        );
      }
      const now = await unlessGone(client.groups.get(id));
      if (!now) throw error;
      throw partialFailure(id, toOutputs(now, { ...olds, ...carriedInputs(news) }), news, error);
    }
  },

  async delete(id, props) {
    const client = clientForProps(props);
    await client.assertV3Token();
    await unlessGone(client.groups.delete(id));
  },
};

// ---- Resource class -----------------------------------------------------------------------------------------

export interface GroupArgs {
  /** The group's name. */
  name: pulumi.Input<string>;
  /** The parent group (an unconfigured group); null or absent for a root-level group. */
  parentId?: pulumi.Input<string | null>;
  /** Configured groups hold devices and content; configuring is irreversible. Default false. */
  configured?: pulumi.Input<boolean>;
  /** Adopt the existing group with this id instead of creating one; it is updated to the declared inputs. */
  adoptId?: pulumi.Input<string>;
  /** Another organization's API for this resource only (the token is kept secret). */
  connection?: pulumi.Input<ConnectionArgs>;
}

/** A group of the organization's tree. Renaming and re-parenting update it in place. */
export class Group extends pulumi.dynamic.Resource {
  declare readonly name: pulumi.Output<string>;
  declare readonly parentId: pulumi.Output<string | null>;
  declare readonly configured: pulumi.Output<boolean>;
  declare readonly deviceCount: pulumi.Output<number>;
  declare readonly createdAt: pulumi.Output<string>;
  declare readonly updatedAt: pulumi.Output<string>;

  constructor(name: string, args: GroupArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      thinProvider("group"),
      name,
      {
        name: args.name,
        parentId: args.parentId,
        configured: args.configured,
        adoptId: args.adoptId,
        connection: secretConnection(args.connection),
        deviceCount: undefined,
        createdAt: undefined,
        updatedAt: undefined,
      },
      opts,
    );
  }
}
