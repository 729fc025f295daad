/**
 * The exporter writes no File yet: a File's content is a local file, and the exporter does not download files
 * (`downloadUrl`) beside the generated program yet. Until it does, the generated program finds files by name
 * (`dm.getFileOutput`) for the group and device attachments, as before.
 */
import type { KindSection } from "../../export/layout";

export const fileSection: KindSection = {
  notExported:
    "a File's content is a local file, and the exporter does not download files beside the program yet: the " +
    "program finds files by name (getFile) for their attachments",
};
