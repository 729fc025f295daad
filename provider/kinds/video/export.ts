/**
 * The exporter writes no Video yet: a Video's content is a local file, and the exporter does not download videos
 * (`downloadUrl`) beside the generated program yet. Until it does, the generated program finds videos by name
 * (`dm.getVideoOutput`) for the group and device attachments, as before.
 */
import type { KindSection } from "../../export/layout";

export const videoSection: KindSection = {
  notExported:
    "a Video's content is a local file, and the exporter does not download videos beside the program yet: the " +
    "program finds videos by name (getVideo) for their attachments",
};
