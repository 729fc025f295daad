/** The File kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework";
import { fileDrift } from "./drift";
import { fileSection } from "./export";
import { fileHandler } from "./handler";
import { fileIdentity } from "./properties";
import { fileNamesLookedUp } from "./lookups";

export const fileKind = defineKind({
  ...fileIdentity,
  docs: {
    declares: "a file uploaded from the repository into a folder on devices",
    guide: "content",
    inputs: {
      inputs:
        "`source` (a local file), `path` (the folder on devices), `filename` (optional; default the source's name), `sha512` (optional pin)",
      inPlace: "—",
      replaces: "content (`sha512`), `filename`, `path` (delete first)",
      outputsAdded: "`sha512`, `sizeBytes`, `createdAt`, `updatedAt`",
    },
    adoption: { adoptId: "the object's id", others: "" },
  },
  outputs: ["sizeBytes", "createdAt", "updatedAt"],
  namesLookedUp: fileNamesLookedUp,
  handler: fileHandler,
  logsOnResource: true,
  drift: fileDrift,
  export: fileSection,
});
