/**
 * The Device kind's CRUD, on typed inputs. A device is enrolled on the headset, never created here: create finds
 * it (by id or serial number) and brings what the program declares to it, update does the same from the live
 * device, delete forgets it.
 */
import { AdoptionError, NotPossibleError, ObjectGoneError } from "../../errors";
import {
  NotFoundError,
  ValidationError,
  type Device as ApiDevice,
  type DeviceMgmtClient,
} from "../../client";
import {
  clientForProps,
  readDevice,
  holdObject,
  deepEqual,
  jsonClean,
  partialFailure,
  retiredOutputs,
  unlessGone,
  type Props,
  checkKind,
  diffKindAsked,
  liveInputs,
  type KindHandler,
  stateFrom,
  runLedger,
} from "../../framework";
import { noteDeclaredPlacement } from "./catalogue";
import { configuredGroupFailures } from "../group/catalogue";
import { unknownTagFailures } from "../tag/catalogue";
import {
  customFieldsOf,
  deviceProperties,
  type DeviceProperties,
  type DeviceState,
  deviceIdentity,
} from "./properties";
import { namesToBe, tagDifference, writeTags } from "./tags";

/** What the program manages of the device: each property left out (undefined) is not managed. */
type Managed = Pick<DeviceState, "name" | "groupId" | "tags" | "customFields">;

/** Which enrolled device: check makes sure one of the two is given. */
type Identity = Pick<DeviceState, "deviceId" | "serialNumber">;

function toOutputs(live: ApiDevice, props: Props): Props {
  return jsonClean({ ...stateFrom(deviceProperties, live, props), deviceModel: live.deviceModel.name });
}

/**
 * Brings the device to what the program declares, touching only what differs: a PUT for name and group, the
 * tag difference through attach/detach (so a PUT's replace-or-merge reading of `tags` never matters), and a
 * custom-field `sync` when the set differs. Returns the device as it is afterwards.
 */
async function reconcile(client: DeviceMgmtClient, live: ApiDevice, want: Managed): Promise<ApiDevice> {
  const body: { name?: string; groupId?: string | null } = {};
  if (want.name !== undefined && want.name !== live.name) body.name = want.name;
  if (want.groupId !== undefined && want.groupId !== (live.group?.id ?? null)) body.groupId = want.groupId;
  let now = live;
  if (Object.keys(body).length) now = await placed(client, live, body);
  const wantedTags = want.tags;
  if (wantedTags !== undefined) {
    const { attach, detach } = tagDifference(now.tags, wantedTags);
    // A difference is written from a read inside the run's shared hold of tag names: a Tag renamed in the same
    // run (no dependency orders the two) falls before that read or after the write (framework/tagNames.ts).
    if (attach.length || detach.length)
      now = await runLedger.tagNames.shared(async () => {
        const fresh = await client.devices.get(live.id);
        const wrote = await writeTags(client, "Device", "devices", live.id, fresh.tags, wantedTags);
        const after = wrote.attach.length || wrote.detach.length ? await client.devices.get(live.id) : fresh;
        // Recorded under the names this run's planned renames give them.
        return { ...after, tags: namesToBe(after.tags) };
      });
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

const IDENTITY_REQUIRED =
  "deviceId or serialNumber is required: a Device adopts an enrolled device, named by one of them.";

async function findDevice(
  client: DeviceMgmtClient,
  { deviceId, serialNumber }: Identity,
): Promise<ApiDevice> {
  if (deviceId !== undefined) {
    const found = await unlessGone(client.devices.get(deviceId));
    if (
      found &&
      serialNumber !== undefined &&
      found.serialNumber.toLowerCase() !== serialNumber.toLowerCase()
    ) {
      throw new AdoptionError(
        `serialNumber: device ${found.id} has serial number "${found.serialNumber}", not "${serialNumber}". Give ` +
          `one of deviceId and serialNumber, or make them name the same device.`,
        found.id,
        "Device",
      );
    }
    if (found) return found;
    throw new AdoptionError(
      `deviceId: no device with id ${deviceId} is enrolled in the organization. Devices are enrolled on ` +
        `the headset, never created by Pulumi: correct deviceId, or enroll the device first.`,
      deviceId,
      "Device",
    );
  }
  // Check refuses a Device that names neither; this is that refusal, should anything get past it.
  if (serialNumber === undefined)
    throw new NotPossibleError(IDENTITY_REQUIRED, {
      kind: "Device",
      property: "deviceId",
      fix: "give deviceId or serialNumber",
    });
  const matches = await client.devices.all({ serialNumbers: [serialNumber] });
  const exact = matches.filter((d) => d.serialNumber.toLowerCase() === serialNumber.toLowerCase());
  if (exact.length === 1) return exact[0];
  throw new AdoptionError(
    `serialNumber: no device with serial number "${serialNumber}" is enrolled in the organization. Devices are ` +
      `enrolled on the headset, never created by Pulumi: correct serialNumber, or enroll the device first.`,
    serialNumber,
    "Device",
  );
}

export const deviceHandler: KindHandler<DeviceProperties> = {
  async check(olds, news) {
    const checked = checkKind(deviceIdentity, news);
    if (news.deviceId === undefined && news.serialNumber === undefined)
      checked.failures.push({ property: "deviceId", reason: IDENTITY_REQUIRED });
    if (checked.failures.length === 0) {
      noteDeclaredPlacement(checked.inputs.deviceId, checked.inputs);
      const [tags, group] = await Promise.all([
        unknownTagFailures("tags", checked.inputs, olds),
        configuredGroupFailures("groupId", checked.inputs, olds, "devices sit only in configured groups"),
      ]);
      checked.failures.push(...tags, ...group);
    }
    return checked;
  },

  async diff(id, olds, news) {
    noteDeclaredPlacement(id, news);
    return diffKindAsked(deviceIdentity, olds, news);
  },

  async create(inputs) {
    const client = clientForProps(inputs);
    const live = await findDevice(client, inputs);
    // Before any write: another Device of this run may name the same device (by id, or by serial number).
    holdObject(deviceIdentity, live.id, inputs);
    try {
      return { id: live.id, outs: toOutputs(await reconcile(client, live, inputs), inputs) };
    } catch (error) {
      const now = (await unlessGone(client.devices.get(live.id))) ?? live;
      throw partialFailure(live.id, toOutputs(now, inputs), inputs, error);
    }
  },

  async read(id, props) {
    const live = await unlessGone(readDevice(clientForProps(props), id));
    if (!live) return {};
    const outputs = { ...toOutputs(live, props), ...retiredOutputs(props, ["groupName"]) };
    return { id, props: outputs, inputs: liveInputs(deviceIdentity, outputs) };
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
      return { outs: toOutputs(await reconcile(client, live, news), news) };
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
