/** The DeviceExperience kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework";
import { deviceExperienceDrift } from "./drift";
import { deviceExperienceSection } from "./export";
import { deviceExperienceHandler } from "./handler";
import { deviceExperienceIdentity } from "./properties";

export const deviceExperienceKind = defineKind({
  ...deviceExperienceIdentity,
  outputs: ["configuredInRun"],
  handler: deviceExperienceHandler,
  drift: deviceExperienceDrift,
  export: deviceExperienceSection,
});
