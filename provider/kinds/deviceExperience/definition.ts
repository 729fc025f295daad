/** The DeviceExperience kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework";
import { deviceExperienceDrift } from "./drift";
import { deviceExperienceSection } from "./export";
import { deviceExperienceHandler } from "./handler";
import { deviceExperienceIdentity } from "./properties";

export const deviceExperienceKind = defineKind({
  ...deviceExperienceIdentity,
  docs: {
    declares: "how the Android side of a group's or device's headsets runs",
    guide: "experiences",
    inputs: {
      inputs:
        "`groupId` or `deviceId`, `mode` (`lock-task`, `default-home`, `in-house-launcher`) and its fields, `resetOnDelete`",
      inPlace: "mode and fields",
      replaces: "`groupId` / `deviceId`",
      outputsAdded: "id: the group's or device's id",
    },
    adoption: { adoptId: "—", others: "every group and device has one: configures it" },
  },
  outputs: ["configuredInRun"],
  handler: deviceExperienceHandler,
  drift: deviceExperienceDrift,
  export: deviceExperienceSection,
});
