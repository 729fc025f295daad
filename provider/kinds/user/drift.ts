/**
 * What the drift report reads of users: every user, by e-mail (the natural key: a pending invitation's resource
 * has no user id yet), labelled with their roles by name; fields by the declared mapping.
 */
import type { Role } from "../../client";
import { groupPaths, referencesUnder, str, type DriftFacet } from "../../drift/driftKind";
import { liveStateOf } from "../../framework";
import { userProperties } from "./properties";

const roleText = (roleId: string, roles: Map<string, Role>) => roles.get(roleId)?.name ?? roleId;

export const userDrift: DriftFacet = {
  title: "Users",
  key: (r) => (typeof r.outputs.email === "string" ? r.outputs.email.toLowerCase() : undefined),
  stateLabel: (r) => str(r.outputs.email ?? r.id),
  references: (field, value) =>
    referencesUnder(field, value, {
      defaultRoleId: { list: "roles" },
      roleId: { list: "roles" },
      groupId: { list: "groups" },
    }),
  read: async (org) => {
    const [users, roles, groups] = await Promise.all([org.users(), org.roles(), org.groups()]);
    const roleById = new Map(roles.map((r) => [r.id, r]));
    const paths = groupPaths(groups);
    return users.map((user) => {
      const fields = liveStateOf(userProperties, user);
      const orgRole = user.accessControls.find((ac) => ac.protectable.type === "organization")?.role;
      const roleTexts = [
        ...(fields.defaultRoleId ? [roleText(fields.defaultRoleId, roleById)] : []),
        ...fields.groupRoles.map(
          (r) => `${roleText(r.roleId, roleById)} on "${paths.get(r.groupId) ?? r.groupId}"`,
        ),
      ];
      const name = `${user.firstName} ${user.lastName}`.trim();
      return {
        key: user.email.toLowerCase(),
        label: `${user.email}${name ? ` (${name})` : ""}: ${roleTexts.join(", ") || "no role"}`,
        fields,
        auditIds: [user.id],
        admin: orgRole?.type === "organization" && orgRole.name === "Admin",
        names: [user.email, name],
      };
    });
  },
};
