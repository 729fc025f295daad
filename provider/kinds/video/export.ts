/**
 * The Video section of the generated program: each video whose bytes the exporter downloaded into `content/`
 * (export/content.ts) is declared with that copy as its `source` and its file name, display name, description
 * and rendering fields exactly as the API answers them, so a staging stack's `up` uploads the same bytes shown
 * the same way, and the production stack adopts it by id (`adoptId`: same file name and content only) with no
 * diff. A video the API cannot download stays a lookup by name (`getVideoOutput`) where attachments and
 * experiences refer to it, and the generated README lists it with why.
 */
import { contentSection } from "../../export/contentSection";
import type { Expr, KindSection } from "../../export/layout";
import { tsString } from "../../export/text";
import { liveStateOf } from "../../framework";
import { videoProperties } from "./properties";

/** What is declared besides the source and file name, in the order a reader expects. */
const DECLARED = [
  "name",
  "description",
  "videoType",
  "videoMapping",
  "videoDisplay",
  "videoPacking",
  "audioEncoding",
];

export const videoSection: KindSection = {
  content: contentSection(
    "video",
    "// Videos, uploaded from content/ (downloaded by the export, verified against the API's SHA-512).",
    (c) => {
      const read = c.content.properties ?? {};
      const props: [string, Expr][] = [["filename", tsString(c.content.name)]];
      for (const key of DECLARED) {
        const value = read[key];
        if (typeof value === "string") props.push([key, tsString(value)]);
        // A rendering field's null is its default (a type that takes none): left out. A description's null is
        // declared, so one added in the portal later shows as drift.
        else if (key === "description") props.push([key, "null"]);
      }
      return props;
    },
  ),
  read: {
    noun: "video",
    needsPath: false,
    // The name is the file name (what the local copy and the resource are named after); the display name and
    // the rendering fields are the Video's properties, declared exactly as read so production adopts with no diff.
    list: async (client) =>
      (await client.videos.all()).map((v) => ({
        id: v.id,
        name: v.filename,
        path: null,
        properties: liveStateOf(videoProperties, v),
        ...(v.details?.videoType && v.details.audioEncoding
          ? {}
          : { unfit: "the API answers no video type or audio encoding for it, which a Video declares" }),
        sizeBytes: v.sizeBytes,
        checksum: v.checksum,
        downloadUrl: v.downloadUrl,
      })),
    downloadUrlOf: async (client, c) => (await client.videos.get(c.id)).downloadUrl,
  },
};
