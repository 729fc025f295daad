/**
 * What HeadsetExperience and DeviceExperience share: their properties, and a handler over the client's
 * `headsetExperiences` or `deviceExperiences`. There is no create or delete in the API (a configured group or
 * ungrouped device always has an experience of each kind): create and update configure the declared mode, and
 * delete leaves the experience as it is unless `resetOnDelete` asks for the device's default home.
 *
 * The admin PIN: the API may read it back or not (the GET carries `adminPin`, possibly null). It never enters
 * state from a read; outputs carry the declared PIN (secret, as its input) or, when the API shows a different
 * PIN, a marker that differs from every declared value, so the next `up` sets the declared one again.
 */
import { z } from "zod";
import { NotPossibleError } from "../../errors";
import {
  DeviceMgmtError,
  NotFoundError,
  type DeviceMgmtClient,
  type ExperienceHolder,
  type HeadsetExperience,
} from "../../client";
import { clientForProps } from "../../framework/context";
import { organizationFailures, modeFailures } from "./checks";
import {
  declaredFormOf,
  fieldsOfMode,
  FIELD_SCHEMAS,
  sameOrUndeclared,
  type FieldName,
  type ModeFields,
} from "./fields";
import { deepEqual, jsonClean, uuid, type Props, type ResourceHandler } from "../../framework/framework";
import { checkKind, diffKindAsked, liveInputs } from "../../framework/kind";
import { carried, type PropertySpec } from "../../framework/properties";
import { runLedger } from "../../framework/runLedger";

/** What outputs carry instead of a PIN the API shows and the program does not declare (never a PIN itself). */
export const PIN_CHANGED_OUTSIDE = "(changed outside Pulumi)";

type FieldSpecs<F extends FieldName> = { [K in F]: PropertySpec<never, unknown> };

/** The properties of an experience kind with the fields `fields`. */
export function experienceProperties<const F extends FieldName, const M extends string>(
  modes: readonly [M, ...M[]],
  fields: readonly F[],
) {
  const fieldSpecs = {} as FieldSpecs<F>;
  for (const field of fields) {
    fieldSpecs[field] =
      field === "adminPin"
        ? { schema: FIELD_SCHEMAS.adminPin.optional(), change: "update", default: null, secret: true }
        : {
            schema: (FIELD_SCHEMAS[field] as z.ZodType).optional(),
            change: "update",
            equal: sameOrUndeclared,
          };
  }
  return {
    groupId: { schema: uuid("groupId").optional(), change: "replace" as const },
    deviceId: { schema: uuid("deviceId").optional(), change: "replace" as const },
    mode: {
      schema: z.enum(modes, { error: `mode must be one of ${modes.join(", ")}` }),
      change: "update" as const,
    },
    ...fieldSpecs,
    resetOnDelete: {
      schema: z
        .boolean({ error: "resetOnDelete must be true or false" })
        .optional()
        .transform((v) => v ?? false),
      change: "update" as const,
      default: false,
    },
    connection: carried.connection,
  };
}

/** How one experience kind reaches the API. */
export interface ExperienceSpec {
  resourceName: "HeadsetExperience" | "DeviceExperience";
  noun: string;
  table: Record<string, ModeFields>;
  fields: readonly FieldName[];
  calls: (client: DeviceMgmtClient) => {
    get(holder: ExperienceHolder): Promise<Props | HeadsetExperience>;
    set(holder: ExperienceHolder, path: never, body: object): Promise<void>;
  };
  /** The body that sets the device's default home (resetOnDelete), given what was recorded. */
  resetBody: (recorded: Props) => object;
}

export const holderOf = (props: Props): ExperienceHolder =>
  typeof props.groupId === "string" ? { groupId: props.groupId } : { deviceId: props.deviceId as string };

/**
 * The body of the POST for the declared mode: the declared fields, and for an optional field the program does
 * not declare, the value recorded (so a write keeps what the program does not manage); the PIN as declared
 * (none when absent).
 */
export function bodyFor(table: Record<string, ModeFields>, news: Props, olds?: Props): Props {
  const mode = news.mode as string;
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
function pinOutput(live: Props, props: Props): string | null {
  const declared = (props.adminPin as string | null | undefined) ?? null;
  return typeof live.adminPin === "string" && live.adminPin !== declared ? PIN_CHANGED_OUTSIDE : declared;
}

export function experienceOutputs(spec: ExperienceSpec, live: Props, props: Props): Props {
  const outputs: Props = {
    groupId: props.groupId,
    deviceId: props.deviceId,
    ...declaredFormOf(spec.table, live),
    resetOnDelete: props.resetOnDelete === true,
    connection: props.connection,
    configuredInRun: props.configuredInRun,
  };
  if (spec.fields.includes("adminPin")) outputs.adminPin = pinOutput(live, props);
  return jsonClean(outputs);
}

/** Whose id this is: a group's, else a device's. */
async function ownerOf(client: DeviceMgmtClient, id: string): Promise<Props> {
  const group = await client.groups.get(id).catch((error: unknown) => {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  });
  return group ? { groupId: id } : { deviceId: id };
}

/** The run ledger's key of an experience: the kind and its holder (a create writes over what the holder shows). */
const writeKey = (spec: ExperienceSpec, props: Props) => `${spec.resourceName}:${holderText(props)}`;

const holderText = (props: Props) =>
  typeof props.groupId === "string" ? `group ${props.groupId}` : `device ${String(props.deviceId)}`;

/** A 409 is the API saying the device is in a group; the user's terms for it. */
function explained(spec: ExperienceSpec, props: Props, error: unknown): unknown {
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

/** Pure: the declared properties, then the mode table's rules (a property refused already is not named twice). */
export function checkExperience(
  spec: Pick<ExperienceSpec, "resourceName" | "table" | "fields">,
  definition: Parameters<typeof checkKind>[0],
  news: Props,
) {
  const { inputs, failures } = checkKind(definition, news);
  const refused = new Set(failures.map((f) => f.property));
  for (const failure of modeFailures(spec.resourceName, spec.table, spec.fields, inputs))
    if (!refused.has(failure.property)) failures.push(failure);
  return { inputs, failures };
}

export function experienceHandler(
  spec: ExperienceSpec,
  definition: () => Parameters<typeof checkKind>[0] & Parameters<typeof diffKindAsked>[0],
): ResourceHandler {
  const configure = async (props: Props, olds?: Props): Promise<Props> => {
    const client = clientForProps(props);
    const holder = holderOf(props);
    try {
      await spec.calls(client).set(holder, props.mode as never, bodyFor(spec.table, props, olds));
      return experienceOutputs(spec, (await spec.calls(client).get(holder)) as Props, props);
    } catch (error) {
      throw explained(spec, props, error);
    }
  };

  return {
    async check(olds, news) {
      const { inputs, failures } = checkExperience(spec, definition(), news);
      if (failures.length === 0) failures.push(...(await organizationFailures(inputs, olds, spec.fields)));
      return { inputs, failures };
    },

    async diff(_id, olds, news) {
      return diffKindAsked(definition(), olds, news);
    },

    async create(inputs) {
      const outs = await configure({ ...inputs, configuredInRun: runLedger.runId });
      runLedger.recordWrite(writeKey(spec, inputs));
      return { id: (inputs.groupId ?? inputs.deviceId) as string, outs };
    },

    async read(id, recorded) {
      const client = clientForProps(recorded);
      // Read by id alone (`pulumi import`): the id is a group's or a device's.
      const props =
        recorded.groupId === undefined && recorded.deviceId === undefined
          ? { ...recorded, ...(await ownerOf(client, id)) }
          : recorded;
      const holder = holderOf(props);
      let live: Props;
      try {
        live = (await spec.calls(client).get(holder)) as Props;
      } catch (error) {
        // The device joined a group: its own experience no longer applies, so the stack no longer has one.
        if (error instanceof DeviceMgmtError && error.status === 409) return {};
        if (!(error instanceof NotFoundError)) throw error;
        // Gone with its group or device; or (where the API answers 404 until one is set) never configured.
        const exists = await (
          typeof props.groupId === "string"
            ? client.groups.get(props.groupId)
            : client.devices.get(props.deviceId as string)
        ).then(
          () => true,
          (e: unknown) => (e instanceof NotFoundError ? false : Promise.reject(e)),
        );
        if (!exists) return {};
        live = { mode: "device-default" };
      }
      const outputs = experienceOutputs(spec, live, props);
      return { id, props: outputs, inputs: liveInputs(definition(), outputs) };
    },

    async update(_id, olds, news) {
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
      return { outs: await configure({ ...news, configuredInRun: olds.configuredInRun }, olds) };
    },

    async delete(_id, props) {
      if (props.resetOnDelete !== true) return; // the stack stops managing it; the experience stays as it is
      // Another resource of this run configured the same holder (this one was renamed in code without aliases:
      // the new name is created before the old is deleted): what is live is the new name's, not to be reset.
      if (runLedger.wasWritten(writeKey(spec, props)) && props.configuredInRun !== runLedger.runId) return;
      const client = clientForProps(props);
      try {
        await spec.calls(client).set(holderOf(props), "default-home" as never, spec.resetBody(props));
      } catch (error) {
        // Nothing left to reset: the group or device is gone, or the device now shows its group's experience.
        if (error instanceof NotFoundError) return;
        if (error instanceof DeviceMgmtError && error.status === 409) return;
        throw error;
      }
    },
  };
}
