/** The GroupCopy kind: `npm run kinds` puts it in the kind table (kinds/table.ts). Its objects are Groups. */
import { defineKind, relatedFacets } from "../../framework";
import { groupCopyHandler } from "./handler";
import { groupCopyIdentity } from "./properties";

export const groupCopyKind = defineKind({
  ...groupCopyIdentity,
  docs: {
    declares:
      "a copy of a configured group (the API's duplicate), a Group to the drift report and the exporter",
    guide: "organization",
    inputs: {
      inputs: "`sourceGroupId` (a configured group), `name`",
      inPlace: "rename",
      replaces: "`sourceGroupId`",
      outputsAdded: "`parentId`, `configured`, `createdAt`, `updatedAt`",
    },
    adoption: { adoptId: "the object's id", others: "" },
  },
  outputs: ["parentId", "configured", "createdAt", "updatedAt"],
  handler: groupCopyHandler,
  ...relatedFacets("GroupCopy", { objectsOf: "group", why: "a duplicate of a group is a group" }),
});
