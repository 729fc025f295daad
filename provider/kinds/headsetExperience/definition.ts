/** The HeadsetExperience kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework/kind";
import { headsetExperienceDrift } from "./drift";
import { headsetExperienceSection } from "./export";
import { headsetExperienceHandler } from "./handler";
import { headsetExperienceProperties } from "./properties";

export const headsetExperienceKind = defineKind({
  kind: "headsetExperience",
  type: "HeadsetExperience",
  naturalKey: false,
  properties: headsetExperienceProperties,
  outputs: ["configuredInRun"],
  handler: headsetExperienceHandler,
  drift: headsetExperienceDrift,
  export: headsetExperienceSection,
});
