/**
 * The exporter writes no AppBundle yet: a bundle's data files are local files, and the exporter does not download
 * content beside the generated program yet (a later round adds downloads for staging).
 */
import type { KindSection } from "../../export/layout";

export const appBundleSection: KindSection = {
  notExported:
    "an AppBundle's files are local files, and the exporter does not download content beside the program yet: " +
    "the program finds bundles by app and label (getAppBundle)",
};
