/**
 * The User kind's properties, declared once (framework/properties.ts): its schemas, how each change applies,
 * and how the API shows it. Everything else of the kind reads them from here.
 */
import { z } from "zod";
import type { User as ApiUser } from "../../client";
import {
  requiredText,
  uuid,
  carried,
  type PropertySpecs,
  type StateOf,
  defineIdentity,
  knownText,
} from "../../framework";
import { sameEmail } from "./invitation";
import { MAX_GROUP_ROLES, findDuplicateGroupRoles, rolesOf, sameGroupRoles, sortGroupRoles } from "./roles";

const groupRoleSchema = z.object({ roleId: uuid("roleId"), groupId: uuid("groupId") }).strict();

/** The API's limit on names and e-mail addresses. */
const MAX_TEXT = 255;

export const userProperties = {
  firstName: {
    description: "The user's first name; changes update in place.",
    schema: requiredText(
      "firstName",
      MAX_TEXT,
      `firstName must be at most ${MAX_TEXT} characters: shorten it`,
    ),
    change: "update",
    fromLive: (live: ApiUser) => live.firstName,
  },
  lastName: {
    description: "The user's last name; changes update in place.",
    schema: requiredText("lastName", MAX_TEXT, `lastName must be at most ${MAX_TEXT} characters: shorten it`),
    change: "update",
    fromLive: (live: ApiUser) => live.lastName,
  },
  email: {
    description:
      "The user's e-mail, unique in the organization. Changing it replaces the user (delete first).",
    schema: z
      .email({ error: "email must be an e-mail address such as ada@example.com" })
      .max(MAX_TEXT, { error: `email must be at most ${MAX_TEXT} characters` }),
    change: "replace",
    fromLive: (live: ApiUser) => live.email,
    equal: sameEmail,
  },
  defaultRoleId: {
    description: "The role the user holds across the organization (an organization or group role).",
    schema: uuid("defaultRoleId"),
    change: "update",
    fromLive: (live: ApiUser) => rolesOf(live).defaultRoleId,
  },
  groupRoles: {
    description: "Extra roles on particular groups; order does not matter; at most 100; no duplicates.",
    schema: z
      .array(groupRoleSchema, { error: "groupRoles must be a list of { roleId, groupId }" })
      .max(MAX_GROUP_ROLES, { error: `groupRoles can hold at most ${MAX_GROUP_ROLES} entries` })
      .optional()
      .transform((roles) => roles ?? [])
      .superRefine((roles, ctx) => {
        const duplicates = findDuplicateGroupRoles(roles);
        if (duplicates.length) {
          ctx.addIssue({
            code: "custom",
            message: `duplicate entries: ${duplicates.map((r) => `{ roleId: ${r.roleId}, groupId: ${r.groupId} }`).join(", ")}`,
          });
        }
      })
      .transform(sortGroupRoles),
    change: "update",
    fromLive: (live: ApiUser) => rolesOf(live).groupRoles,
    default: [],
    equal: sameGroupRoles,
  },
  invite: {
    description:
      "true: send an invitation e-mail; false (default): create the user directly, for single sign-on accounts. Only creates read it.",
    schema: z
      .boolean({ error: "invite must be true or false" })
      .optional()
      .transform((v) => v ?? false),
    change: "createOnly",
  },
  ...carried,
} satisfies PropertySpecs<ApiUser>;

export type UserProperties = typeof userProperties;
export type UserState = StateOf<UserProperties>;

/**
 * Who the User kind is: its key, type token, properties, natural key and claim, declared once for the
 * definition, the handler and the kind's other files.
 */
export const userIdentity = defineIdentity({
  kind: "user",
  type: "User",
  naturalKey: true,
  properties: userProperties,
  // E-mail addresses compare without case, as the service matches them (invitation.ts's sameEmail).
  claim: {
    property: "email",
    keys: (p) =>
      knownText(p.email) === undefined ? undefined : [(knownText(p.email) as string).toLowerCase()],
    describe: (p) => `the user ${String(p.email)}`,
  },
});
