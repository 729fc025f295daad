/** The TagSet kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework";
import { tagSetDrift } from "./drift";
import { tagSetSection } from "./export";
import { tagSetHandler } from "./handler";
import { tagSetIdentity } from "./properties";

export const tagSetKind = defineKind({
  ...tagSetIdentity,
  outputs: ["createdInRun", "addedTagIds"],
  handler: tagSetHandler,
  drift: tagSetDrift,
  export: tagSetSection,
});
