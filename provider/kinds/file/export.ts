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
  read: {
    noun: "file",
    needsPath: true,
    list: async (client) =>
      (await client.files.all()).map((f) => ({
        id: f.id,
        name: f.filename,
        path: f.location ?? null,
        sizeBytes: f.sizeBytes,
        checksum: f.checksum,
        downloadUrl: f.downloadUrl,
      })),
    downloadUrlOf: async (client, c) => (await client.files.get(c.id)).downloadUrl,
  },
};
