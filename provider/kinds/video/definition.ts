/** The Video kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework";
import { videoDrift } from "./drift";
import { videoSection } from "./export";
import { videoHandler } from "./handler";
import { videoIdentity } from "./properties";
import { videoNamesLookedUp } from "./lookups";

export const videoKind = defineKind({
  ...videoIdentity,
  docs: {
    declares: "a video uploaded from the repository, with how it renders",
    guide: "content",
    inputs: {
      inputs:
        "`source` (a local .mp4/.mkv/.webm), `videoType`, `videoMapping`/`videoDisplay`/`videoPacking` (as the type needs), `audioEncoding`, optional `filename`, `name`, `description`, `sha512` pin",
      inPlace: "name, description, rendering (tags left to `TagSet`)",
      replaces: "content (`sha512`), `filename` (new video first)",
      outputsAdded: "`sha512`, `sizeBytes`, `playtimeSeconds`, `createdAt`, `updatedAt`",
    },
    adoption: { adoptId: "the object's id", others: "same file name and content only" },
  },
  outputs: ["sizeBytes", "playtimeSeconds", "createdAt", "updatedAt"],
  namesLookedUp: videoNamesLookedUp,
  handler: videoHandler,
  logsOnResource: true,
  drift: videoDrift,
  export: videoSection,
});
