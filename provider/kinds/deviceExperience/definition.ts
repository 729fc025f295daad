/** The DeviceExperience kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework/kind";
import { deviceExperienceDrift } from "./drift";
import { deviceExperienceSection } from "./export";
import { deviceExperienceHandler } from "./handler";
import { deviceExperienceProperties } from "./properties";

export const deviceExperienceKind = defineKind({
  kind: "deviceExperience",
  type: "DeviceExperience",
  naturalKey: false,
  properties: deviceExperienceProperties,
  outputs: ["configuredInRun"],
  handler: deviceExperienceHandler,
  drift: deviceExperienceDrift,
  export: deviceExperienceSection,
});
