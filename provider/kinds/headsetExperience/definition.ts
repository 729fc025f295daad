/** The HeadsetExperience kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework";
import { headsetExperienceDrift } from "./drift";
import { headsetExperienceSection } from "./export";
import { headsetExperienceHandler } from "./handler";
import { headsetExperienceIdentity } from "./properties";

export const headsetExperienceKind = defineKind({
  ...headsetExperienceIdentity,
  outputs: ["configuredInRun"],
  handler: headsetExperienceHandler,
  drift: headsetExperienceDrift,
  export: headsetExperienceSection,
});
