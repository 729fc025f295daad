/** The File kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework";
import { fileDrift } from "./drift";
import { fileSection } from "./export";
import { fileHandler } from "./handler";
import { fileIdentity } from "./properties";
import { fileNamesLookedUp } from "./lookups";

export const fileKind = defineKind({
  ...fileIdentity,
  outputs: ["sizeBytes", "createdAt", "updatedAt"],
  namesLookedUp: fileNamesLookedUp,
  handler: fileHandler,
  logsOnResource: true,
  drift: fileDrift,
  export: fileSection,
});
