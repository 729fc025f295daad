/**
 * The exporter writes no Image or Custom3DEnvironment yet: their content is a local file, and the exporter does
 * not download content (`downloadUrl`) beside the generated program yet. The generated program finds images and
 * environments by name (getImage, getCustom3DEnvironment) for the experiences that show them, as before.
 */
import type { KindSection } from "../../export/layout";

export const imageSection: KindSection = {
  notExported:
    "an Image's content is a local file, and the exporter does not download images beside the program yet: " +
    "the program finds them by name (getImage) for the experiences that show them",
};

export const custom3DEnvironmentSection: KindSection = {
  notExported:
    "a Custom3DEnvironment's content is a local file, and the exporter does not download environments beside " +
    "the program yet: the program finds them by name (getCustom3DEnvironment) for the experiences that show them",
};
