import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { AdoptionError, NotPossibleError, ObjectGoneError } from "../../errors";
import {
  NotFoundError,
  ValidationError,
  type Device as ApiDevice,
  type DeviceMgmtClient,
  type TagOwnerType,
} from "../../client";
import { DeviceMgmtResource, type ConnectionArg } from "../../framework/common";
import { clientForProps } from "../../framework/context";
import { readDevice } from "../../framework/coalescedReads";
import { holdObject } from "../../framework/claims";
import {
  deepEqual,
  jsonClean,
  partialFailure,
  retiredOutputs,
  unlessGone,
  uuid,
  type Props,
  type ResourceHandler,
} from "../../framework/framework";
import { checkKind, defineKind, diffKindAsked, liveInputs, registration } from "../../framework/kind";
import { carried, type PropertySpecs } from "../../framework/properties";
import { noteDeclaredPlacement, unknownTagFailures } from "../../framework/catalogueChecks";

// ---- Properties, declared once -----------------------------------------------------------------------------

/** Tag names compare without case (the API matches them so and stores the catalogue's spelling). */
const tagKey = (names: readonly string[]) => [...new Set(names.map((n) => n.toLowerCase()))].sort();

/** A managed property left out of the program is not managed: whatever the device has is no change. */
const unlessUndeclared =
  (equal: (a: unknown, b: unknown) => boolean) =>
  (recorded: unknown, declared: unknown): boolean =>
    declared === undefined || equal(recorded, declared);

const tagsEqual = (a: unknown, b: unknown) =>
  Array.isArray(a) && Array.isArray(b) && deepEqual(tagKey(a as string[]), tagKey(b as string[]));

export const customFieldsOf = (live: ApiDevice): Record<string, string> =>
  Object.fromEntries(live.customFields.map((f) => [f.name, f.value]));

const deviceProperties = {
  deviceId: { schema: uuid("deviceId").optional(), change: "replace", equal: unlessUndeclared(deepEqual) },
  serialNumber: {
    schema: z
      .string({ error: "serialNumber must be a string (the device's serial number)" })
      .min(1)
      .optional(),
    change: "replace",
    equal: (a: unknown, b: unknown) =>
      b === undefined ||
      (typeof a === "string" && typeof b === "string" && a.toLowerCase() === b.toLowerCase()),
  },
  name: {
    schema: z
      .string({ error: "name must be a string" })
      .trim()
      .min(1, { error: "name must not be empty" })
      .max(255, { error: "name must be at most 255 characters" })
      .optional(),
    change: "update",
    fromLive: (live: ApiDevice) => live.name,
    equal: unlessUndeclared(deepEqual),
  },
  groupId: {
    schema: uuid("groupId").nullable().optional(),
    change: "update",
    fromLive: (live: ApiDevice) => live.group?.id ?? null,
    equal: unlessUndeclared(deepEqual),
  },
  tags: {
    schema: z
      .array(
        z
          .string({ error: "tags must be tag names" })
          .trim()
          .min(1, { error: "a tag name must not be empty" }),
        {
          error: "tags must be a list of tag names",
        },
      )
      .max(100, { error: "tags: at most 100 tags" })
      .optional(),
    change: "update",
    fromLive: (live: ApiDevice) => live.tags,
    equal: unlessUndeclared(tagsEqual),
  },
  customFields: {
    schema: z
      .record(z.string().min(1, { error: "a custom field name must not be empty" }), z.string(), {
        error: "customFields must map field names to string values",
      })
      .optional(),
    change: "update",
    fromLive: customFieldsOf,
    equal: unlessUndeclared(deepEqual),
  },
  connection: carried.connection,
} satisfies PropertySpecs<ApiDevice>;

type Declared = {
  name?: string;
  groupId?: string | null;
  tags?: string[];
  customFields?: Record<string, string>;
};

const declaredOf = (props: Props): Declared => ({
  name: props.name as string | undefined,
  groupId: props.groupId as string | null | undefined,
  tags: props.tags as string[] | undefined,
  customFields: props.customFields as Record<string, string> | undefined,
});

// ---- CRUD ---------------------------------------------------------------------------------------------------

function toOutputs(live: ApiDevice, props: Props): Props {
  return jsonClean({
    deviceId: live.id,
    serialNumber: live.serialNumber,
    name: live.name,
    groupId: live.group?.id ?? null,
    tags: live.tags,
    customFields: customFieldsOf(live),
    connection: props.connection,
    deviceModel: live.deviceModel.name,
  });
}

/** Pure: the tag names to attach and detach so that `current` becomes `wanted` (case-insensitively). */
export function tagDifference(current: readonly string[], wanted: readonly string[]) {
  const has = new Set(current.map((n) => n.toLowerCase()));
  const wants = new Set(wanted.map((n) => n.toLowerCase()));
  return {
    // Each name once: "new" and "NEW" are one tag.
    attach: wanted.filter(
      (n, i) =>
        !has.has(n.toLowerCase()) && wanted.findIndex((m) => m.toLowerCase() === n.toLowerCase()) === i,
    ),
    detach: current.filter((n) => !wants.has(n.toLowerCase())),
  };
}

/**
 * Attaches tags by name. The documents do not say what a name that names no tag does (the emulator creates the
 * tag, or refuses it under `rejectUnknownTags`): a refusal is explained in the program's terms.
 */
export async function attachTags(
  client: DeviceMgmtClient,
  kind: string,
  owner: TagOwnerType,
  ownerId: string,
  names: string[],
): Promise<void> {
  try {
    await client.tags.attach(owner, ownerId, names);
  } catch (error) {
    const refused = Object.keys((error instanceof ValidationError && error.fieldErrors) || {});
    if (!refused.some((field) => field.startsWith("tags"))) throw error;
    throw new NotPossibleError(
      `tags: the API refused to attach ${names.map((n) => `"${n}"`).join(", ")} (${(error as Error).message}). ` +
        `A tag must exist in the organization's catalogue before it is attached: declare it (Tag) and use its ` +
        `name output, or take an existing one from getTag.`,
      { kind, property: "tags", fix: "declare the Tag first, or use getTag" },
    );
  }
}

/**
 * Brings the device to what the program declares, touching only what differs: a PUT for name and group, the
 * tag difference through attach/detach (so a PUT's replace-or-merge reading of `tags` never matters), and a
 * custom-field `sync` when the set differs. Returns the device as it is afterwards.
 */
async function reconcile(client: DeviceMgmtClient, live: ApiDevice, want: Declared): Promise<ApiDevice> {
  const body: { name?: string; groupId?: string | null } = {};
  if (want.name !== undefined && want.name !== live.name) body.name = want.name;
  if (want.groupId !== undefined && want.groupId !== (live.group?.id ?? null)) body.groupId = want.groupId;
  let now = live;
  if (Object.keys(body).length) now = await placed(client, live, body);
  if (want.tags !== undefined) {
    const { attach, detach } = tagDifference(now.tags, want.tags);
    if (attach.length) await attachTags(client, "Device", "devices", live.id, attach);
    if (detach.length) await client.tags.detach("devices", live.id, detach);
    if (attach.length || detach.length) now = await client.devices.get(live.id);
  }
  if (want.customFields !== undefined && !deepEqual(customFieldsOf(now), want.customFields)) {
    const fields = Object.entries(want.customFields).map(([name, value]) => ({ name, value }));
    now = await client.deviceContent.setCustomFields(live.id, "sync", fields);
  }
  return now;
}

/** The PUT of name and group; a refused move is explained in the program's terms (a group that holds no devices). */
async function placed(
  client: DeviceMgmtClient,
  live: ApiDevice,
  body: { name?: string; groupId?: string | null },
): Promise<ApiDevice> {
  try {
    return await client.devices.update(live.id, body);
  } catch (error) {
    if (!(error instanceof ValidationError) || !error.fieldErrors?.groupId || !body.groupId) throw error;
    const group = await unlessGone(client.groups.get(body.groupId));
    if (group?.isConfigured !== false) throw error;
    throw new NotPossibleError(
      `groupId: group ${group.id} ("${group.name}") is not configured, and devices go into configured groups ` +
        `only. Set configured: true on that Group (configuring is irreversible), or choose a configured group.`,
      { kind: "Device", property: "groupId", fix: "configure the group, or choose a configured one" },
    );
  }
}

async function findDevice(client: DeviceMgmtClient, props: Props): Promise<ApiDevice> {
  if (typeof props.deviceId === "string") {
    const found = await unlessGone(client.devices.get(props.deviceId));
    const serial = props.serialNumber;
    if (found && typeof serial === "string" && found.serialNumber.toLowerCase() !== serial.toLowerCase()) {
      throw new AdoptionError(
        `serialNumber: device ${found.id} has serial number "${found.serialNumber}", not "${serial}". Give one ` +
          `of deviceId and serialNumber, or make them name the same device.`,
        found.id,
        "Device",
      );
    }
    if (found) return found;
    throw new AdoptionError(
      `deviceId: no device with id ${props.deviceId} is enrolled in the organization. Devices are enrolled on ` +
        `the headset, never created by Pulumi: correct deviceId, or enroll the device first.`,
      props.deviceId,
      "Device",
    );
  }
  const serial = props.serialNumber as string;
  const matches = await client.devices.all({ serialNumbers: [serial] });
  const exact = matches.filter((d) => d.serialNumber.toLowerCase() === serial.toLowerCase());
  if (exact.length === 1) return exact[0];
  throw new AdoptionError(
    `serialNumber: no device with serial number "${serial}" is enrolled in the organization. Devices are ` +
      `enrolled on the headset, never created by Pulumi: correct serialNumber, or enroll the device first.`,
    serial,
    "Device",
  );
}

export const deviceHandler: ResourceHandler = {
  async check(olds, news) {
    const checked = checkKind(deviceKind, news);
    if (news.deviceId === undefined && news.serialNumber === undefined)
      checked.failures.push({
        property: "deviceId",
        reason:
          "deviceId or serialNumber is required: a Device adopts an enrolled device, named by one of them.",
      });
    if (checked.failures.length === 0) {
      noteDeclaredPlacement(checked.inputs.deviceId, checked.inputs);
      checked.failures.push(...(await unknownTagFailures("tags", checked.inputs, olds)));
    }
    return checked;
  },

  async diff(id, olds, news) {
    noteDeclaredPlacement(id, news);
    return diffKindAsked(deviceKind, olds, news);
  },

  async create(inputs) {
    const client = clientForProps(inputs);
    const live = await findDevice(client, inputs);
    // Before any write: another Device of this run may name the same device (by id, or by serial number).
    holdObject("device", "Device", live.id, inputs);
    try {
      return { id: live.id, outs: toOutputs(await reconcile(client, live, declaredOf(inputs)), inputs) };
    } catch (error) {
      const now = (await unlessGone(client.devices.get(live.id))) ?? live;
      throw partialFailure(live.id, toOutputs(now, inputs), inputs, error);
    }
  },

  async read(id, props) {
    const live = await unlessGone(readDevice(clientForProps(props), id));
    if (!live) return {};
    const outputs = { ...toOutputs(live, props), ...retiredOutputs(props, ["groupName"]) };
    return { id, props: outputs, inputs: liveInputs(deviceKind, outputs) };
  },

  async update(id, olds, news) {
    const client = clientForProps(news);
    const live = await unlessGone(client.devices.get(id));
    if (!live) {
      throw new ObjectGoneError(
        `Device ${id} is no longer enrolled in the organization. Run \`pulumi refresh\` to forget it.`,
        "Device",
        id,
      );
    }
    try {
      return { outs: toOutputs(await reconcile(client, live, declaredOf(news)), news) };
    } catch (error) {
      if (error instanceof NotFoundError) throw error;
      const now = (await unlessGone(client.devices.get(id))) ?? live;
      throw partialFailure(id, toOutputs(now, { ...olds, connection: news.connection }), news, error);
    }
  },

  async delete() {
    // Devices are enrolled, never created here: forgetting one leaves it where it is, as it is.
  },
};

// ---- Resource class -----------------------------------------------------------------------------------------

/** The inputs of a {@link Device}: which enrolled device (by id or serial number), and what to manage of it. */
export interface DeviceArgs extends ConnectionArg {
  /** The device's id; or give `serialNumber`. Changing it means another device (the old one is forgotten). */
  deviceId?: pulumi.Input<string>;
  /** The device's serial number (matched without case); or give `deviceId`. */
  serialNumber?: pulumi.Input<string>;
  /** The device's name; absent: not managed. */
  name?: pulumi.Input<string>;
  /** The configured group the device sits in; null: ungrouped; absent: not managed. */
  groupId?: pulumi.Input<string | null>;
  /**
   * The device's tags, the whole set (names of the catalogue's tags, matched without case: declare a Tag and
   * use its `name`, or see getTag); absent: not managed.
   */
  tags?: pulumi.Input<pulumi.Input<string>[]>;
  /** The device's custom fields, the whole set (name → value); absent: not managed. */
  customFields?: pulumi.Input<Record<string, pulumi.Input<string>>>;
}

/**
 * An enrolled device (a headset), adopted by id or serial number: devices are enrolled on the headset, never
 * created by Pulumi. Manages where it sits (`groupId`, which decides its channels, content and experience), its
 * name, tags and custom fields; each property left out is not managed. Destroy forgets the device and leaves it
 * as it is.
 *
 * @example
 * const berlin = dm.getGroupOutput({ name: "Berlin Lab" }); // a configured group at the root
 * new dm.Device("lobby-01", { serialNumber: "ACM0001", name: "Lobby 01", groupId: berlin.id, tags: ["lobby"] });
 */
export class Device extends DeviceMgmtResource {
  declare readonly deviceId: pulumi.Output<string>;
  declare readonly serialNumber: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly groupId: pulumi.Output<string | null>;
  declare readonly tags: pulumi.Output<string[]>;
  declare readonly customFields: pulumi.Output<Record<string, string>>;
  /** The device model's name, as last read. */
  declare readonly deviceModel: pulumi.Output<string>;

  constructor(name: string, args: DeviceArgs, opts?: pulumi.CustomResourceOptions) {
    super(...registration(deviceKind, name, args, opts));
  }
}

export const deviceKind = defineKind({
  kind: "device",
  type: "Device",
  naturalKey: false,
  properties: deviceProperties,
  outputs: ["deviceModel"],
  handler: deviceHandler,
});
