/** The Group kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework";
import { groupDrift } from "./drift";
import { groupSection } from "./export";
import { groupHandler } from "./handler";
import { groupIdentity } from "./properties";

export const groupKind = defineKind({
  ...groupIdentity,
  outputs: ["createdAt", "updatedAt"],
  handler: groupHandler,
  drift: groupDrift,
  export: groupSection,
});
