/** The TagSet kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework/kind";
import { tagSetDrift } from "./drift";
import { tagSetSection } from "./export";
import { tagSetHandler } from "./handler";
import { tagSetProperties } from "./properties";

export const tagSetKind = defineKind({
  kind: "tagSet",
  type: "TagSet",
  naturalKey: true,
  properties: tagSetProperties,
  outputs: ["createdInRun", "addedTagIds"],
  handler: tagSetHandler,
  drift: tagSetDrift,
  export: tagSetSection,
});
