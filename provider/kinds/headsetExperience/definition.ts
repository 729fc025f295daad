/** The HeadsetExperience kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework";
import { headsetExperienceDrift } from "./drift";
import { headsetExperienceSection } from "./export";
import { headsetExperienceHandler } from "./handler";
import { headsetExperienceIdentity } from "./properties";

export const headsetExperienceKind = defineKind({
  ...headsetExperienceIdentity,
  docs: {
    declares: "what a group's or ungrouped device's headsets show (home, kiosk, launcher)",
    guide: "experiences",
    inputs: {
      inputs:
        "`groupId` or `deviceId`, `mode` and that mode's fields (below), `adminPin` (secret), `resetOnDelete` (default false)",
      inPlace: "mode and fields",
      replaces: "`groupId` / `deviceId`",
      outputsAdded: "id: the group's or device's id",
    },
    adoption: { adoptId: "—", others: "every group and device has one: configures it" },
  },
  outputs: ["configuredInRun"],
  handler: headsetExperienceHandler,
  drift: headsetExperienceDrift,
  export: headsetExperienceSection,
});
