/**
 * The handler HeadsetExperience and DeviceExperience share, over the client's `headsetExperiences` or
 * `deviceExperiences`. There is no create or delete in the API (a configured group or ungrouped device always has
 * an experience of each kind): create and update configure the declared mode, and delete leaves the experience as
 * it is unless `resetOnDelete` asks for the device's default home.
 *
 * The admin PIN: the API may read it back or not (the GET carries `adminPin`, possibly null). It never enters
 * state from a read; outputs carry the declared PIN (secret, as its input) or, when the API shows a different
 * PIN, a marker that differs from every declared value, so the next `up` sets the declared one again.
 */
import type * as pulumi from "@pulumi/pulumi";
import { NotPossibleError } from "../../errors";
import {
  DeviceMgmtError,
  NotFoundError,
  type DeviceMgmtClient,
  type ExperienceHolder,
  type HeadsetExperience as ApiExperience,
} from "../../client";
import { clientForProps } from "../../framework/context";
import { deepEqual, jsonClean, type Props } from "../../framework/framework";
import { checkKind, diffKindAsked, liveInputs, type KindDefinition } from "../../framework/kind";
import type { PropertySpecs } from "../../framework/properties";
import { runLedger } from "../../framework/runLedger";
import { organizationFailures, modeFailures } from "./checks";
import { declaredFormOf, fieldsOfMode, type FieldName, type ModeFields } from "./fields";
import type { ExperienceInputs } from "./properties";

/** What outputs carry instead of a PIN the API shows and the program does not declare (never a PIN itself). */
export const PIN_CHANGED_OUTSIDE = "(changed outside Pulumi)";

/** How one experience kind (its modes `M`) reaches the API. */
export interface ExperienceSpec<M extends string> {
  resourceName: "HeadsetExperience" | "DeviceExperience";
  noun: string;
  table: Record<M, ModeFields>;
  fields: readonly FieldName[];
  calls: (client: DeviceMgmtClient) => {
    /** A device experience reads as a headset experience with none of the headset's fields. */
    get(holder: ExperienceHolder): Promise<ApiExperience>;
    /** `default-home` is every kind's (resetOnDelete sets it). */
    set(holder: ExperienceHolder, path: NoInfer<M> | "default-home", body: object): Promise<void>;
  };
  /** The body that sets the device's default home (resetOnDelete), given what was recorded. */
  resetBody: (recorded: ExperienceInputs<M>) => object;
}

/** What messages and the run ledger call the kind. */
type Named = Pick<ExperienceSpec<string>, "resourceName" | "noun">;

/** The owner an experience belongs to; `id`, the resource's id, is the owner's id too. */
const holderOf = (props: { groupId?: string; deviceId?: string }, id: string): ExperienceHolder =>
  props.groupId !== undefined ? { groupId: props.groupId } : { deviceId: props.deviceId ?? id };

/**
 * The body of the POST for the declared mode: the declared fields, and for an optional field the program does
 * not declare, the value recorded (so a write keeps what the program does not manage); the PIN as declared
 * (none when absent).
 */
export function bodyFor(table: Record<string, ModeFields>, news: ExperienceInputs, olds?: Props): Props {
  const mode = news.mode;
  const body: Props = {};
  for (const field of fieldsOfMode(table, mode, news.isMenuEnabled)) {
    if (field === "adminPin") {
      body.adminPin = news.adminPin ?? null;
      continue;
    }
    const value = news[field] ?? (table[mode].optional.includes(field) ? olds?.[field] : undefined);
    if (value !== undefined && value !== null) body[field] = value;
  }
  return body;
}

/** The PIN outputs carry: the declared one, unless the API shows another. */
function pinOutput(live: ApiExperience | Props, declared: string | null): string | null {
  return typeof live.adminPin === "string" && live.adminPin !== declared ? PIN_CHANGED_OUTSIDE : declared;
}

export function experienceOutputs(
  spec: Pick<ExperienceSpec<string>, "table" | "fields">,
  live: ApiExperience | Props,
  props: Partial<ExperienceInputs> & Props,
): Props {
  const outputs: Props = {
    groupId: props.groupId,
    deviceId: props.deviceId,
    ...declaredFormOf(spec.table, live),
    resetOnDelete: props.resetOnDelete === true,
    connection: props.connection,
    configuredInRun: props.configuredInRun,
  };
  if (spec.fields.includes("adminPin")) outputs.adminPin = pinOutput(live, props.adminPin ?? null);
  return jsonClean(outputs);
}

/** Whose id this is: a group's, else a device's. */
async function ownerOf(client: DeviceMgmtClient, id: string): Promise<ExperienceHolder> {
  const group = await client.groups.get(id).catch((error: unknown) => {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  });
  return group ? { groupId: id } : { deviceId: id };
}

const holderText = (props: { groupId?: string; deviceId?: string }) =>
  props.groupId !== undefined ? `group ${props.groupId}` : `device ${String(props.deviceId)}`;

/** The run ledger's key of an experience: the kind and its holder (a create writes over what the holder shows). */
const writeKey = (spec: Named, props: { groupId?: string; deviceId?: string }) =>
  `${spec.resourceName}:${holderText(props)}`;

/** A 409 is the API saying the device is in a group; the user's terms for it. */
function explained(spec: Named, props: ExperienceInputs, error: unknown): unknown {
  if (error instanceof DeviceMgmtError && error.status === 409) {
    return new NotPossibleError(
      `${spec.resourceName}: ${holderText(props)} is in a group, and a device in a group shows its group's ` +
        `${spec.noun} (${error.message}). Declare the experience on the group (groupId), or take the device ` +
        `out of the group.`,
      { kind: spec.resourceName, property: "deviceId", fix: "declare it on the group instead" },
    );
  }
  return error;
}

/** The owner's id, which is the resource's id: check has made sure the inputs name exactly one. */
function ownerIdOf(spec: Named, inputs: ExperienceInputs): string {
  const id = inputs.groupId ?? inputs.deviceId;
  if (id === undefined) {
    throw new NotPossibleError(
      `${spec.resourceName} belongs to exactly one group or one device, and these inputs name neither.`,
      { kind: spec.resourceName, property: "groupId", fix: "declare groupId or deviceId" },
    );
  }
  return id;
}

/** Pure: the declared properties, then the mode table's rules (a property refused already is not named twice). */
export function checkExperience<P extends PropertySpecs<never>>(
  spec: Pick<ExperienceSpec<string>, "resourceName" | "table" | "fields">,
  definition: { type: string; properties: P },
  news: Props,
) {
  const { inputs, failures } = checkKind(definition, news);
  const refused = new Set(failures.map((f) => f.property));
  for (const failure of modeFailures(spec.resourceName, spec.table, spec.fields, inputs))
    if (!refused.has(failure.property)) failures.push(failure);
  return { inputs, failures };
}

/** What an experience resource records besides its inputs: the run that configured it (see delete). */
type Configured<I> = I & { configuredInRun?: string };

/**
 * The handler of an experience kind: `check` is the kind's own (its typed inputs `I`, by its declared
 * properties), the rest is shared. `definition` is what diff and read take of the kind.
 */
export function experienceHandler<M extends string, I extends ExperienceInputs<M>>(
  spec: ExperienceSpec<M>,
  definition: Pick<KindDefinition, "type" | "properties" | "naturalKey">,
  check: (news: Props) => { inputs: I; failures: pulumi.dynamic.CheckFailure[] },
) {
  const configure = async (props: Configured<I>, olds?: Props): Promise<Props> => {
    const client = clientForProps(props);
    const holder = holderOf(props, ownerIdOf(spec, props));
    try {
      await spec.calls(client).set(holder, props.mode, bodyFor(spec.table, props, olds));
      return experienceOutputs(spec, await spec.calls(client).get(holder), props);
    } catch (error) {
      throw explained(spec, props, error);
    }
  };

  return {
    async check(olds: Props, news: Props) {
      const { inputs, failures } = check(news);
      if (failures.length === 0) failures.push(...(await organizationFailures(inputs, olds, spec.fields)));
      return { inputs, failures };
    },

    async diff(_id: string, olds: Props, news: Props) {
      return diffKindAsked(definition, olds, news);
    },

    async create(inputs: I) {
      const outs = await configure({ ...inputs, configuredInRun: runLedger.runId });
      runLedger.recordWrite(writeKey(spec, inputs));
      return { id: ownerIdOf(spec, inputs), outs };
    },

    async read(id: string, recorded: I & Props): Promise<pulumi.dynamic.ReadResult> {
      const client = clientForProps(recorded);
      // Read by id alone (`pulumi import`): the id is a group's or a device's.
      const props =
        recorded.groupId === undefined && recorded.deviceId === undefined
          ? { ...recorded, ...(await ownerOf(client, id)) }
          : recorded;
      const holder = holderOf(props, id);
      let live: ApiExperience;
      try {
        live = await spec.calls(client).get(holder);
      } catch (error) {
        // The device joined a group: its own experience no longer applies, so the stack no longer has one.
        if (error instanceof DeviceMgmtError && error.status === 409) return {};
        if (!(error instanceof NotFoundError)) throw error;
        // Gone with its group or device; or (where the API answers 404 until one is set) never configured.
        const exists = await (
          "groupId" in holder ? client.groups.get(holder.groupId) : client.devices.get(holder.deviceId)
        ).then(
          () => true,
          (e: unknown) => {
            if (e instanceof NotFoundError) return false;
            throw e;
          },
        );
        if (!exists) return {};
        live = { id: null, mode: "device-default", createdAt: null, updatedAt: null };
      }
      const outputs = experienceOutputs(spec, live, props);
      return { id, props: outputs, inputs: liveInputs(definition, outputs) };
    },

    async update(_id: string, olds: I & Props, news: I) {
      // Only what travels with the resource changed (resetOnDelete, the connection): nothing to send.
      const unchanged =
        olds.mode === news.mode &&
        deepEqual(bodyFor(spec.table, news, olds), bodyFor(spec.table, olds, olds));
      if (unchanged) {
        return {
          outs: jsonClean({
            ...olds,
            resetOnDelete: news.resetOnDelete === true,
            connection: news.connection,
          }),
        };
      }
      const configuredInRun = typeof olds.configuredInRun === "string" ? olds.configuredInRun : undefined;
      return { outs: await configure({ ...news, configuredInRun }, olds) };
    },

    async delete(id: string, props: I & Props) {
      if (props.resetOnDelete !== true) return; // the stack stops managing it; the experience stays as it is
      // Another resource of this run configured the same holder (this one was renamed in code without aliases:
      // the new name is created before the old is deleted): what is live is the new name's, not to be reset.
      if (runLedger.wasWritten(writeKey(spec, props)) && props.configuredInRun !== runLedger.runId) return;
      const client = clientForProps(props);
      try {
        await spec.calls(client).set(holderOf(props, id), "default-home", spec.resetBody(props));
      } catch (error) {
        // Nothing left to reset: the group or device is gone, or the device now shows its group's experience.
        if (error instanceof NotFoundError) return;
        if (error instanceof DeviceMgmtError && error.status === 409) return;
        throw error;
      }
    },
  };
}
