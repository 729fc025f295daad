/** The User kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework";
import { userDrift } from "./drift";
import { userSection } from "./export";
import { userHandler } from "./handler";
import { userIdentity } from "./properties";

export const userKind = defineKind({
  ...userIdentity,
  outputs: ["pending", "invitedAt", "createdAt", "updatedAt"],
  handler: userHandler,
  drift: userDrift,
  export: userSection,
});
