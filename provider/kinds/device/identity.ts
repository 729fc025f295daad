/**
 * Who the Device kind is: its key, type token, properties, natural key and claim, declared once for the
 * definition, the handler and the kind's other files.
 */
import { defineIdentity, knownText } from "../../framework";
import { deviceProperties } from "./properties";

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
