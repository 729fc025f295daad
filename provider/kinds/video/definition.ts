/** The Video kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework";
import { videoDrift } from "./drift";
import { videoSection } from "./export";
import { videoHandler } from "./handler";
import { videoIdentity } from "./properties";
import { videoNamesLookedUp } from "./lookups";

export const videoKind = defineKind({
  ...videoIdentity,
  outputs: ["sizeBytes", "playtimeSeconds", "createdAt", "updatedAt"],
  namesLookedUp: videoNamesLookedUp,
  handler: videoHandler,
  logsOnResource: true,
  drift: videoDrift,
  export: videoSection,
});
