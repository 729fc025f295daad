/** The Video kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework/kind";
import { videoDrift } from "./drift";
import { videoSection } from "./export";
import { videoHandler } from "./handler";
import { videoProperties } from "./properties";

export const videoKind = defineKind({
  kind: "video",
  type: "Video",
  // Videos of one name may coexist: a replacement creates the new video first (handler.ts says why).
  naturalKey: false,
  properties: videoProperties,
  outputs: ["sizeBytes", "playtimeSeconds", "createdAt", "updatedAt"],
  handler: videoHandler,
  logsOnResource: true,
  drift: videoDrift,
  export: videoSection,
});
