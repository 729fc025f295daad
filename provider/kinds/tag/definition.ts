/** The Tag kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework";
import { tagDrift } from "./drift";
import { tagSection } from "./export";
import { tagHandler } from "./handler";
import { tagIdentity } from "./properties";

export const tagKind = defineKind({
  ...tagIdentity,
  docs: {
    declares: "one tag of the organization's catalogue",
    guide: "devices",
    inputs: {
      inputs: "`name`",
      inPlace: "rename (on every owner)",
      replaces: "—",
      outputsAdded: "`createdAt`, `updatedAt`",
    },
    adoption: { adoptId: "the object's id", others: "" },
  },
  outputs: ["createdAt", "updatedAt"],
  handler: tagHandler,
  drift: tagDrift,
  export: tagSection,
});
