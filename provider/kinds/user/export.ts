/** The generated program's users: names and e-mail as read, roles through the looked-up roles and groups. */
import { section, statement, type Expr, type KindSection } from "../../export/layout";
import { tsString } from "../../export/text";

export const userSection: KindSection = (plan, { adopt, opts }, construct) => {
  if (!plan.users.length) return undefined;
  return section(
    "// Users with their default role and group roles (the token's own user is not here: see README.md).",
    plan.users.map((u) => {
      const groupRoles: [string, Expr][] = u.groupRoles.length
        ? [
            [
              "groupRoles",
              {
                array: u.groupRoles.map((r) => ({
                  object: [
                    ["roleId", `${r.roleVariable}.id`],
                    ["groupId", `${r.groupVariable}.id`],
                  ],
                })),
              },
            ],
          ]
        : [];
      return statement(
        undefined,
        construct,
        [tsString(u.resourceName)],
        [
          ["firstName", tsString(u.user.firstName)],
          ["lastName", tsString(u.user.lastName)],
          ["email", tsString(u.user.email)],
          ["defaultRoleId", `${u.defaultRoleVariable}.id`],
          ...groupRoles,
          adopt(u.resourceName),
        ],
        opts(u.resourceName),
      );
    }),
  );
};
