/** The Group kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework";
import { groupDrift } from "./drift";
import { groupSection } from "./export";
import { groupHandler } from "./handler";
import { groupIdentity } from "./properties";

export const groupKind = defineKind({
  ...groupIdentity,
  docs: {
    declares: "a folder of the group tree, or a configured site that holds devices and content",
    guide: "organization",
    inputs: {
      inputs:
        "`name`, `parentId` (null/absent = root), `configured` (default false), `sameNameOrdinal` (see below)",
      inPlace: "rename, re-parent, configure false→true",
      replaces: "—",
      outputsAdded: "`createdAt`, `updatedAt`",
    },
    adoption: { adoptId: "the object's id", others: "" },
  },
  outputs: ["createdAt", "updatedAt"],
  handler: groupHandler,
  drift: groupDrift,
  export: groupSection,
});
