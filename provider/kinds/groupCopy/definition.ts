/** The GroupCopy kind: `npm run kinds` puts it in the kind table (kinds/table.ts). Its objects are Groups. */
import { defineKind, relatedFacets } from "../../framework";
import { groupCopyHandler } from "./handler";
import { groupCopyIdentity } from "./properties";

export const groupCopyKind = defineKind({
  ...groupCopyIdentity,
  outputs: ["parentId", "configured", "createdAt", "updatedAt"],
  handler: groupCopyHandler,
  ...relatedFacets("GroupCopy", { objectsOf: "group", why: "a duplicate of a group is a group" }),
});
