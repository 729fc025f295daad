/**
 * The File section of the generated program: each file whose bytes the exporter downloaded into `content/`
 * (export/content.ts) is declared with that copy as its `source`, so a staging stack's `up` uploads the same
 * bytes; the production stack adopts it by id (`adoptId`: same name, folder and content only). A file the API
 * cannot download stays a lookup by name (`getFileOutput`) where attachments refer to it, and the generated
 * README lists it with why.
 */
import { contentSection } from "../../export/contentSection";
import type { KindSection } from "../../export/layout";
import { tsString } from "../../export/text";

export const fileSection: KindSection = {
  content: contentSection(
    "file",
    "// Files, uploaded from content/ (downloaded by the export, verified against the API's SHA-512).",
    (c) => [
      ["filename", tsString(c.content.name)],
      ["path", tsString(c.content.path ?? "")],
    ],
  ),
};
