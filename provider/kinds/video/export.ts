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
};
