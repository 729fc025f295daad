/**
 * What the drift report reads of devices: every device, labelled by name, serial and group; fields by the
 * declared mapping. A property the program left out is not managed (declaredOnly), and a device no stack
 * declares is not reported: devices are enrolled on the headset, not created.
 */
import { groupPaths, referencesUnder, str, type DriftFacet } from "../../drift/driftKind";
import { liveStateOf } from "../../framework";
import { deviceProperties } from "./properties";

export const deviceDrift: DriftFacet = {
  title: "Devices",
  key: (r) => r.id,
  declaredOnly: true,
  reportsUnmanaged: false,
  stateLabel: (r) => `device ${str(r.outputs.name ?? "")} (${str(r.outputs.serialNumber ?? r.id)})`,
  references: (field, value) => referencesUnder(field, value, { groupId: { list: "groups" } }),
  read: async (org) => {
    const [devices, groups] = await Promise.all([org.devices(), org.groups()]);
    const paths = groupPaths(groups);
    return devices.map((d) => ({
      key: d.id,
      label: `"${d.name}" (${d.serialNumber})${d.group ? ` in "${paths.get(d.group.id) ?? d.group.name}"` : ", ungrouped"}`,
      fields: liveStateOf(deviceProperties, d),
      auditIds: [d.id],
      names: [d.name, d.serialNumber],
    }));
  },
};
