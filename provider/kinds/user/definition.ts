/** The User kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework/kind";
import { userDrift } from "./drift";
import { userSection } from "./export";
import { userHandler } from "./handler";
import { userProperties } from "./properties";

export const userKind = defineKind({
  kind: "user",
  type: "User",
  naturalKey: true,
  properties: userProperties,
  outputs: ["pending", "invitedAt", "createdAt", "updatedAt"],
  handler: userHandler,
  drift: userDrift,
  export: userSection,
});
