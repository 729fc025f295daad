/**
 * Users, invites and roles. A user's default role is the access control on the organization protectable; each
 * group role is an access control on a group protectable — so reading accessControls maps back exactly to
 * `defaultRoleId` + `groupRoles`.
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { created, noContent, ok, type RequestContext, type RouteDefinition } from "../context";
import { FieldErrorCollector, invalid, notFound, parseOrThrow } from "../errors";
import type { AccessControl, User } from "../model";
import type { OrgState } from "../store";
import { roleView, userView } from "../views";
import { userLabel } from "./audit";

const name = z.string().trim().min(1).max(255);
const groupRole = z.object({ roleId: z.guid(), groupId: z.guid() });

const createUserBody = z.object({
  firstName: name,
  lastName: name,
  email: z.email().max(255),
  defaultRoleId: z.guid(),
  groupRoles: z.array(groupRole).max(100).optional(),
});

const inviteBody = z.object({
  email: z.email().max(255),
  isSsoEnforced: z.boolean().optional(),
  defaultRoleId: z.guid(),
  groupRoles: z.array(groupRole).max(100).optional(),
});

const updateUserBody = z.object({
  firstName: name.optional(),
  lastName: name.optional(),
  defaultRoleId: z.guid().optional(),
  groupRoles: z
    .array(groupRole.extend({ action: z.enum(["attach", "detach"]) }))
    .max(100)
    .optional(),
});

function findUser(ctx: RequestContext): User {
  const user = ctx.org.users.get(ctx.params.userId);
  if (!user) throw notFound();
  return user;
}

/** Field problems of role references; ids are compared lowercased, as the database compares uuids. */
function checkRoles(
  ctx: RequestContext,
  errors: FieldErrorCollector,
  defaultRoleId: string | undefined,
  groupRoles: readonly { roleId: string; groupId: string }[] | undefined,
): void {
  if (defaultRoleId !== undefined && !ctx.org.roles.get(defaultRoleId.toLowerCase())) {
    errors.add("defaultRoleId", "The selected default role id is invalid.");
  }
  groupRoles?.forEach((item, i) => {
    const role = ctx.org.roles.get(item.roleId.toLowerCase());
    if (!role) errors.add(`groupRoles.${i}.roleId`, `The selected groupRoles.${i}.roleId is invalid.`);
    else if (role.type !== "group") errors.add(`groupRoles.${i}.roleId`, "The role must be a group role.");
    if (!ctx.org.groups.get(item.groupId.toLowerCase())) {
      errors.add(`groupRoles.${i}.groupId`, `The selected groupRoles.${i}.groupId is invalid.`);
    }
  });
}

function checkEmailFree(ctx: RequestContext, errors: FieldErrorCollector, email: string): void {
  if (ctx.org.findUserByEmail(email)) errors.add("email", "The email has already been taken.");
}

function accessControl(
  roleId: string,
  protectable: AccessControl["protectable"],
  now: string,
): AccessControl {
  return { id: randomUUID(), roleId, protectable, createdAt: now, updatedAt: now };
}

const samePair = (control: AccessControl, item: { roleId: string; groupId: string }) =>
  control.protectable.type === "group" &&
  control.roleId === item.roleId.toLowerCase() &&
  control.protectable.id === item.groupId.toLowerCase();

/** Creates a user (also used by the control endpoint that accepts a pending invitation). */
export function insertUser(
  org: OrgState,
  now: string,
  fields: { firstName: string; lastName: string; email: string; defaultRoleId: string },
  groupRoles: readonly { roleId: string; groupId: string }[],
): User {
  const controls = [
    accessControl(fields.defaultRoleId.toLowerCase(), { type: "organization", id: org.org.id }, now),
  ];
  for (const item of groupRoles) {
    // Repeating a pair in one request assigns it once.
    if (controls.some((c) => samePair(c, item))) continue;
    controls.push(
      accessControl(item.roleId.toLowerCase(), { type: "group", id: item.groupId.toLowerCase() }, now),
    );
  }
  const user: User = {
    id: randomUUID(),
    firstName: fields.firstName,
    lastName: fields.lastName,
    email: fields.email,
    accessControls: controls,
    createdAt: now,
    updatedAt: now,
  };
  org.users.insert(user);
  return user;
}

export const userRoutes: RouteDefinition[] = [
  {
    method: "GET",
    path: "/users",
    auth: "user",
    handler: (ctx) => {
      ctx.access.require("USER__VIEW");
      return ok(ctx.page(ctx.org.users.list(), (user) => userView(ctx.org, user)));
    },
  },
  {
    method: "GET",
    path: "/users/:userId",
    auth: "user",
    handler: (ctx) => {
      ctx.access.require("USER__VIEW");
      return ok(userView(ctx.org, findUser(ctx)));
    },
  },
  {
    method: "POST",
    path: "/users",
    auth: "user",
    handler: (ctx) => {
      ctx.access.require("USER__MANAGE");
      const body = parseOrThrow(createUserBody, ctx.body);
      const errors = new FieldErrorCollector();
      checkEmailFree(ctx, errors, body.email);
      checkRoles(ctx, errors, body.defaultRoleId, body.groupRoles);
      errors.throwIfAny();
      const user = insertUser(ctx.org, ctx.now, body, body.groupRoles ?? []);
      ctx.audit({
        type: "created",
        action: "create-user",
        resourceType: "user",
        resourceId: user.id,
        resourceName: userLabel(user),
        description: `Created user '${user.email}'.`,
      });
      return created(userView(ctx.org, user));
    },
  },
  {
    method: "POST",
    path: "/user-invites",
    auth: "user",
    handler: (ctx) => {
      ctx.access.require("USER__MANAGE");
      const body = parseOrThrow(inviteBody, ctx.body);
      const errors = new FieldErrorCollector();
      checkEmailFree(ctx, errors, body.email);
      const pending = ctx.services.invitations.get(ctx.org.org.id) ?? [];
      const email = body.email.toLowerCase();
      if (pending.some((i) => i.email.toLowerCase() === email))
        errors.add("email", "The email has already been invited.");
      checkRoles(ctx, errors, body.defaultRoleId, body.groupRoles);
      errors.throwIfAny();
      if (ctx.services.strict.pendingInvitations) {
        // Strict: nothing is a user until the invitee accepts (POST /_emulator/invitations/accept).
        const id = randomUUID();
        pending.push({
          id,
          organizationId: ctx.org.org.id,
          email: body.email,
          defaultRoleId: body.defaultRoleId.toLowerCase(),
          groupRoles: (body.groupRoles ?? []).map((g) => ({
            roleId: g.roleId.toLowerCase(),
            groupId: g.groupId.toLowerCase(),
          })),
          createdAt: ctx.now,
        });
        ctx.services.invitations.set(ctx.org.org.id, pending);
        ctx.audit({
          type: "created",
          action: "invite-user",
          resourceType: "user-invite",
          resourceId: id,
          resourceName: body.email,
          description: `Invited '${body.email}'.`,
        });
        return noContent();
      }
      // The invitee chooses a name when accepting; until then the account has empty names.
      const user = insertUser(
        ctx.org,
        ctx.now,
        { firstName: "", lastName: "", email: body.email, defaultRoleId: body.defaultRoleId },
        body.groupRoles ?? [],
      );
      ctx.audit({
        type: "created",
        action: "invite-user",
        resourceType: "user",
        resourceId: user.id,
        resourceName: userLabel(user),
        description: `Invited '${body.email}'.`,
      });
      return noContent();
    },
  },
  {
    method: "PUT",
    path: "/users/:userId",
    auth: "user",
    handler: (ctx) => {
      ctx.access.require("USER__MANAGE");
      const user = findUser(ctx);
      const body = parseOrThrow(updateUserBody, ctx.body);
      const errors = new FieldErrorCollector();
      checkRoles(ctx, errors, body.defaultRoleId, body.groupRoles);
      errors.throwIfAny();

      // Apply the actions in order to a working copy: attaching an assigned pair is a no-op, detaching an
      // unassigned one is an error, and nothing is stored unless every action is valid.
      const controls = [...user.accessControls];
      let changed = false;
      const strictAttach = ctx.services.strict.rejectRepeatedRoleAttach;
      body.groupRoles?.forEach((item, i) => {
        const index = controls.findIndex((c) => samePair(c, item));
        if (item.action === "attach" && index >= 0 && strictAttach) {
          errors.add(`groupRoles.${i}`, "The role is already assigned to the user on this group.");
        } else if (item.action === "attach" && index < 0) {
          controls.push(
            accessControl(
              item.roleId.toLowerCase(),
              { type: "group", id: item.groupId.toLowerCase() },
              ctx.now,
            ),
          );
          changed = true;
        } else if (item.action === "detach") {
          if (index < 0) errors.add(`groupRoles.${i}`, "The role is not assigned to the user on this group.");
          else {
            controls.splice(index, 1);
            changed = true;
          }
        }
      });
      errors.throwIfAny();

      if (body.defaultRoleId !== undefined) {
        const roleId = body.defaultRoleId.toLowerCase();
        const index = controls.findIndex((c) => c.protectable.type === "organization");
        if (index < 0) {
          controls.unshift(accessControl(roleId, { type: "organization", id: ctx.org.org.id }, ctx.now));
          changed = true;
        } else if (controls[index].roleId !== roleId) {
          controls[index] = { ...controls[index], roleId, updatedAt: ctx.now };
          changed = true;
        }
      }
      if (body.firstName !== undefined && body.firstName !== user.firstName) {
        user.firstName = body.firstName;
        changed = true;
      }
      if (body.lastName !== undefined && body.lastName !== user.lastName) {
        user.lastName = body.lastName;
        changed = true;
      }
      if (changed) {
        user.accessControls = controls;
        user.updatedAt = ctx.now;
        ctx.audit({
          type: "updated",
          action: "update-user",
          resourceType: "user",
          resourceId: user.id,
          resourceName: userLabel(user),
          description: `Updated user '${user.email}'.`,
        });
      }
      return ok(userView(ctx.org, user));
    },
  },
  {
    method: "DELETE",
    path: "/users/:userId",
    auth: "user",
    handler: (ctx) => {
      ctx.access.require("USER__MANAGE");
      const user = findUser(ctx);
      // Deleting yourself would lock the caller's token out mid-run.
      if (user.id === ctx.user.id) throw invalid("userId", "You cannot delete your own user.");
      ctx.org.users.delete(user.id);
      ctx.audit({
        type: "deleted",
        action: "delete-user",
        resourceType: "user",
        resourceId: user.id,
        resourceName: userLabel(user),
        description: `Deleted user '${user.email}'.`,
      });
      return noContent();
    },
  },
  {
    method: "GET",
    path: "/roles",
    auth: "user",
    handler: (ctx) => {
      ctx.access.require("ROLE__VIEW");
      return ok(ctx.page(ctx.org.roles.list(), roleView));
    },
  },
  {
    method: "GET",
    path: "/roles/:roleId",
    auth: "user",
    handler: (ctx) => {
      ctx.access.require("ROLE__VIEW");
      const role = ctx.org.roles.get(ctx.params.roleId);
      if (!role) throw notFound();
      return ok(roleView(role));
    },
  },
];
