/** `getDevice` (one device by id, name or serial number) and `getDevices` (a list by group, tags and serials). */
import type { Device as ApiDevice } from "../../client";
import { checker } from "../../client/arguments";
import { byId, exactlyOne, lookup, lookupClient, toOutput, type LookupOptions } from "../../lookupSupport";
import { deviceProperties } from "./properties";

/** A device of the organization. */
export interface DeviceResult {
  id: string;
  name: string;
  serialNumber: string;
  /** The group the device is in; null when ungrouped. */
  groupId: string | null;
}

/** Arguments of {@link getDevice}: exactly one of `id`, `name` or `serialNumber`. */
export type GetDeviceArgs =
  | {
      /** The device's UUID. */
      id: string;
      name?: never;
      serialNumber?: never;
    }
  | {
      id?: never;
      /** The device's exact name (1 to 255 characters); it must be unique in the organization. */
      name: string;
      serialNumber?: never;
    }
  | {
      id?: never;
      name?: never;
      /** The device's serial number (1 to 255 characters). */
      serialNumber: string;
    };

const DEVICE_USAGE =
  'getDevice({ id: "<device uuid>" }), getDevice({ name: "Headset 03" }) or getDevice({ serialNumber: "ACM0003" })';

/**
 * A device as both lookups give it, by the kind's own live mapping (each property's `fromLive`). Not
 * `liveStateOf`: its types are the properties' after check, where every managed property may be absent.
 */
const deviceResult = (d: ApiDevice): DeviceResult => ({
  id: d.id,
  name: deviceProperties.name.fromLive(d),
  serialNumber: deviceProperties.serialNumber.fromLive(d),
  groupId: deviceProperties.groupId.fromLive(d),
});

/**
 * Finds a device by id, by name or by serial number.
 *
 * @function
 * @example
 * const beta = dm.getReleaseChannelOutput({ appName: "Training Simulator", channelName: "Beta" });
 * const headset = dm.getDeviceOutput({ serialNumber: "ACM0003" });
 * new dm.DeviceReleaseChannel("headset-beta", { deviceId: headset.id, releaseChannelId: beta.id });
 */
export const getDevice = lookup(async function getDevice(
  args: GetDeviceArgs,
  options?: LookupOptions,
): Promise<DeviceResult> {
  const check = checker("getDevice", args, DEVICE_USAGE);
  check.only("id", "name", "serialNumber");
  const given = (["id", "name", "serialNumber"] as const).filter((key) => check.has(key));
  if (given.length !== 1) {
    check.fail(
      given.length === 0
        ? 'it needs one of "id", "name" or "serialNumber".'
        : `give only one of "id", "name" or "serialNumber", not ${given.map((k) => `"${k}"`).join(" and ")}.`,
    );
  }
  const field = given[0];
  if (field === "id") {
    const id = check.uuid("id", "device");
    const client = lookupClient(options);
    return deviceResult(await byId("device", id, () => client.devices.get(id)));
  }
  const value = check.name(field, field === "name" ? "device's name" : "device's serial number");
  const devices = await lookupClient(options).devices.all();
  const device = exactlyOne(
    `device with ${field} "${value}"`,
    devices.filter((d) => d[field] === value),
    (d) => `${d.id} (serial ${d.serialNumber})`,
    [],
  );
  return deviceResult(device);
});
/** {@link getDevice} with Inputs, as an Output. */
export const getDeviceOutput = toOutput(getDevice);

/** Arguments of {@link getDevices}: every filter given applies; none lists every device. */
export interface GetDevicesArgs {
  /** Only the devices of this group. */
  groupId?: string;
  /** Only the devices carrying every one of these tags (names, matched without case). */
  tags?: string[];
  /** Only the devices with these serial numbers. */
  serialNumbers?: string[];
}

const DEVICES_USAGE = 'getDevices({ groupId: "<group uuid>", tags: ["lobby"], serialNumbers: ["ACM0001"] })';

/**
 * The organization's devices that match every filter given, in the API's order (possibly none).
 *
 * @function
 * @example
 * const berlin = dm.getGroupOutput({ name: "Berlin Lab" }); // a configured group at the root
 * const lobbyHeadsets = dm.getDevicesOutput({ groupId: berlin.id, tags: ["lobby"] });
 * export const lobbySerials = lobbyHeadsets.apply((devices) => devices.map((d) => d.serialNumber));
 */
export const getDevices = lookup(async function getDevices(
  args: GetDevicesArgs,
  options?: LookupOptions,
): Promise<DeviceResult[]> {
  const check = checker("getDevices", args, DEVICES_USAGE);
  check.only("groupId", "tags", "serialNumbers");
  const groupId = check.has("groupId") ? check.uuid("groupId", "group") : undefined;
  const list = (key: "tags" | "serialNumbers") => {
    const value = (args as unknown as Record<string, unknown>)[key];
    if (value === undefined) return undefined;
    if (!Array.isArray(value) || value.some((v) => typeof v !== "string" || v.trim() === "")) {
      check.fail(`argument "${key}" must be a list of non-empty strings.`, key);
    }
    return value as string[];
  };
  const tags = list("tags");
  const serialNumbers = list("serialNumbers");
  if (serialNumbers?.length === 0) return []; // no serial number names no device (not "every device")
  const devices = await lookupClient(options).devices.all({
    groupIds: groupId ? [groupId] : undefined,
    tagsAll: tags?.length ? tags : undefined,
    serialNumbers: serialNumbers?.length ? serialNumbers : undefined,
  });
  return devices.map(deviceResult);
});
/** {@link getDevices} with Inputs, as an Output. */
export const getDevicesOutput = toOutput(getDevices);
