/** The User kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework";
import { userDrift } from "./drift";
import { userSection } from "./export";
import { userHandler } from "./handler";
import { userIdentity } from "./properties";

export const userKind = defineKind({
  ...userIdentity,
  docs: {
    declares: "a person with a default role and roles on groups; created for single sign-on or invited",
    guide: "organization",
    inputs: {
      inputs:
        "`firstName`, `lastName`, `email`, `defaultRoleId`, `groupRoles` (set of `{roleId, groupId}`, 0..100), `invite` (default false)",
      inPlace: "names, default role, group roles (attach/detach of the difference only)",
      replaces: "`email` (delete first)",
      outputsAdded: "`createdAt`, `updatedAt`, `pending`, `invitedAt`",
    },
    adoption: { adoptId: "the object's id", others: "" },
  },
  outputs: ["pending", "invitedAt", "createdAt", "updatedAt"],
  handler: userHandler,
  drift: userDrift,
  export: userSection,
});
