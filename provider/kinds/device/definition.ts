/** The Device kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework";
import { deviceDrift } from "./drift";
import { deviceSection } from "./export";
import { deviceHandler } from "./handler";
import { deviceIdentity } from "./properties";

export const deviceKind = defineKind({
  ...deviceIdentity,
  docs: {
    declares: "an enrolled headset (adopted, never created): its group, name, tags, custom fields",
    guide: "devices",
    inputs: {
      inputs:
        "`deviceId` or `serialNumber` (adopted, never created); optional `name`, `groupId` (null = ungrouped), `tags`, `customFields`",
      inPlace: "each declared property",
      replaces: "`deviceId` / `serialNumber`",
      outputsAdded: "`deviceModel`",
    },
    adoption: {
      adoptId: "—",
      others: "always adopts the enrolled device named by `deviceId` or `serialNumber`",
    },
  },
  outputs: ["deviceModel"],
  handler: deviceHandler,
  drift: deviceDrift,
  export: deviceSection,
});
