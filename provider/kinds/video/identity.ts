/**
 * Who the Video kind is: its key, type token, properties, natural key and claim, declared once for the
 * definition, the handler and the kind's other files.
 */
import { defineIdentity, byProperties } from "../../framework";
import { videoProperties } from "./properties";

export const videoIdentity = defineIdentity({
  kind: "video",
  type: "Video",
  // Videos of one name may coexist: a replacement creates the new video first (handler.ts says why).
  naturalKey: false,
  properties: videoProperties,
  // A video's file name and content: videos of one name may coexist, but the same bytes under the same name
  // uploaded twice would be one video declared twice (and its killed-run repair is found by both).
  claim: {
    property: "source",
    keys: byProperties(["filename", "sha512"]),
    describe: (p) => `the video "${String(p.filename)}" with SHA-512 ${String(p.sha512).slice(0, 16)}…`,
  },
});
