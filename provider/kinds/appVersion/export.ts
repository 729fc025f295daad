/**
 * The exporter writes no AppVersion yet: its content is a local .apk, and the exporter does not download builds
 * (`downloadUrl`) beside the generated program yet. Channels name their version with `getAppVersion`, as before.
 */
import type { KindSection } from "../../export/layout";

export const appVersionSection: KindSection = {
  notExported:
    "an AppVersion's content is a local .apk, and the exporter does not download builds beside the program yet: " +
    "the program finds a channel's version by name (getAppVersion)",
};
