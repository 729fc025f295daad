/**
 * The Custom3DEnvironment section of the generated program: each environment whose bytes the exporter downloaded
 * into `content/` (export/content.ts; the OpenAPI's schema answers a `downloadUrl`, but no checksum, so the copy
 * is kept as received) is declared with that copy as its `source` and its file name, so a staging stack's `up`
 * uploads the same scene; the production stack adopts it by id (`adoptId`: the same file name). Experiences that
 * show it refer to the declared resource.
 *
 * The exporter writes no Image: which type an uploaded image gets is undocumented (the upload takes none; the
 * emulator's `uploadedImageType` switch), so a staging copy might not have the type the experience field that
 * shows it needs. The generated program finds images by name (getImage), as before.
 */
import { contentSection } from "../../export/contentSection";
import type { KindSection } from "../../export/layout";
import { tsString } from "../../export/text";

export const imageSection: KindSection = {
  notExported:
    "which type an uploaded image gets is undocumented (the upload takes none), so a copy uploaded by the " +
    "program might not fit the experience field that shows it: the program finds images by name (getImage)",
};

export const custom3DEnvironmentSection: KindSection = {
  content: contentSection(
    "custom3DEnvironment",
    "// Custom 3D environments, uploaded from content/ (downloaded by the export; the API answers no checksum for them).",
    (c) => [["filename", tsString(c.content.name)]],
  ),
  // The API answers no checksum for environments: the download is kept as received (nothing to verify against).
  read: {
    noun: "custom 3D environment",
    needsPath: false,
    list: async (client) =>
      (await client.custom3DEnvironments.all()).map((e) => ({
        id: e.id,
        name: e.objectName,
        path: null,
        sizeBytes: e.sizeBytes,
        downloadUrl: e.downloadUrl,
      })),
    downloadUrlOf: async (client, c) => (await client.custom3DEnvironments.get(c.id)).downloadUrl,
  },
};
