/** The Tag kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework/kind";
import { tagDrift } from "./drift";
import { tagSection } from "./export";
import { tagHandler } from "./handler";
import { tagProperties } from "./properties";

export const tagKind = defineKind({
  kind: "tag",
  type: "Tag",
  naturalKey: false,
  properties: tagProperties,
  outputs: ["createdAt", "updatedAt"],
  handler: tagHandler,
  drift: tagDrift,
  export: tagSection,
});
