/**
 * The Device kind's properties, declared once (framework/properties.ts): which enrolled device, and what of it is
 * managed. A property left out of the program is not managed, so each one's equality lets an undeclared value
 * through. Everything else of the kind reads them from here.
 */
import { z } from "zod";
import type { Device as ApiDevice } from "../../client";
import {
  deepEqual,
  uuid,
  carried,
  type PropertySpecs,
  type StateOf,
  defineIdentity,
  knownText,
} from "../../framework";
import { tagNames } from "../tag/properties";

/** Tag names compare without case (the API matches them so and stores the catalogue's spelling). */
const tagKey = (names: readonly string[]) => [...new Set(names.map((n) => n.toLowerCase()))].sort();

/** A managed property left out of the program is not managed: whatever the device has is no change. */
const unlessUndeclared =
  (equal: (a: unknown, b: unknown) => boolean) =>
  (recorded: unknown, declared: unknown): boolean =>
    declared === undefined || equal(recorded, declared);

const tagsEqual = (a: unknown, b: unknown) =>
  Array.isArray(a) && Array.isArray(b) && deepEqual(tagKey(a), tagKey(b));

export const customFieldsOf = (live: ApiDevice): Record<string, string> =>
  Object.fromEntries(live.customFields.map((f) => [f.name, f.value]));

export const deviceProperties = {
  deviceId: {
    description:
      "The device's id; or give serialNumber. Changing it means another device (the old one is forgotten).",
    schema: uuid("deviceId").optional(),
    change: "replace",
    fromLive: (live: ApiDevice) => live.id,
    equal: unlessUndeclared(deepEqual),
  },
  serialNumber: {
    description: "The device's serial number (matched without case); or give deviceId.",
    schema: z
      .string({ error: "serialNumber must be a string (the device's serial number)" })
      .min(1)
      .optional(),
    change: "replace",
    fromLive: (live: ApiDevice) => live.serialNumber,
    equal: (a: unknown, b: unknown) =>
      b === undefined ||
      (typeof a === "string" && typeof b === "string" && a.toLowerCase() === b.toLowerCase()),
  },
  name: {
    description: "The device's name; absent: not managed.",
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
    description: "The configured group the device sits in; null: ungrouped; absent: not managed.",
    schema: uuid("groupId").nullable().optional(),
    change: "update",
    fromLive: (live: ApiDevice) => live.group?.id ?? null,
    equal: unlessUndeclared(deepEqual),
  },
  tags: {
    description:
      "The device's tags, the whole set (names of catalogue tags, matched without case); absent: not managed.",
    schema: tagNames("tags").optional(),
    change: "update",
    fromLive: (live: ApiDevice) => live.tags,
    equal: unlessUndeclared(tagsEqual),
  },
  customFields: {
    description: "The device's custom fields, the whole set (name to value); absent: not managed.",
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

export type DeviceProperties = typeof deviceProperties;
export type DeviceState = StateOf<DeviceProperties>;

/**
 * Who the Device kind is: its key, type token, properties, natural key and claim, declared once for the
 * definition, the handler and the kind's other files.
 */
export const deviceIdentity = defineIdentity({
  kind: "device",
  type: "Device",
  naturalKey: false,
  properties: deviceProperties,
  // A device named by id in one resource and by serial number in another is found by its id (held objects).
  claim: {
    property: "serialNumber",
    keys: (p) => {
      const named = [
        ["id", p.deviceId],
        ["serial", p.serialNumber],
      ].filter(([, value]) => value !== undefined);
      const keys = named.map(
        ([by, value]) => knownText(value) && `${String(by)}:${knownText(value)?.toLowerCase()}`,
      );
      return keys.every((k) => k !== undefined) ? (keys as string[]) : undefined;
    },
    describe: (p) =>
      p.deviceId !== undefined ? `device ${String(p.deviceId)}` : `the device "${String(p.serialNumber)}"`,
  },
});
