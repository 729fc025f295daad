/** The Group kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework/kind";
import { groupDrift } from "./drift";
import { groupSection } from "./export";
import { groupHandler } from "./handler";
import { groupProperties } from "./properties";

export const groupKind = defineKind({
  kind: "group",
  type: "Group",
  naturalKey: false,
  properties: groupProperties,
  outputs: ["createdAt", "updatedAt"],
  handler: groupHandler,
  drift: groupDrift,
  export: groupSection,
});
