/** The File kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework/kind";
import { fileDrift } from "./drift";
import { fileSection } from "./export";
import { fileHandler } from "./handler";
import { fileProperties } from "./properties";

export const fileKind = defineKind({
  kind: "file",
  type: "File",
  // A file name in a device folder: replacements delete the old file first (handler.ts says why).
  naturalKey: true,
  properties: fileProperties,
  outputs: ["sizeBytes", "createdAt", "updatedAt"],
  handler: fileHandler,
  logsOnResource: true,
  drift: fileDrift,
  export: fileSection,
});
