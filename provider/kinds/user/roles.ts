/** Pure logic of a user's roles: the sets of group roles, and the updates that reach a declared user. */
import type { User as ApiUser } from "../../client";

export interface GroupRole {
  roleId: string;
  groupId: string;
}

/** The most group roles a user may declare, and the most one PUT may attach or detach. */
export const MAX_GROUP_ROLES = 100;

const keyOf = (r: GroupRole) => `${r.groupId}/${r.roleId}`;

export function sortGroupRoles(roles: GroupRole[]): GroupRole[] {
  return [...roles].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
}

export function findDuplicateGroupRoles(roles: GroupRole[]): GroupRole[] {
  const seen = new Set<string>();
  const duplicates: GroupRole[] = [];
  for (const role of roles) {
    if (seen.has(keyOf(role))) duplicates.push(role);
    seen.add(keyOf(role));
  }
  return duplicates;
}

export type GroupRoleAction = GroupRole & { action: "attach" | "detach" };

/** The attach/detach actions that turn `current` into `desired`: only the difference, never detach-all. */
export function groupRoleActions(current: GroupRole[], desired: GroupRole[]): GroupRoleAction[] {
  const have = new Set(current.map(keyOf));
  const want = new Set(desired.map(keyOf));
  return [
    ...sortGroupRoles(current.filter((r) => !want.has(keyOf(r)))).map((r) => ({
      ...pick(r),
      action: "detach" as const,
    })),
    ...sortGroupRoles(desired.filter((r) => !have.has(keyOf(r)))).map((r) => ({
      ...pick(r),
      action: "attach" as const,
    })),
  ];
}

const pick = (r: GroupRole): GroupRole => ({ roleId: r.roleId, groupId: r.groupId });

/** Live access controls back to inputs: the organization-level one is the default role, group ones are groupRoles. */
export function rolesOf(user: ApiUser): { defaultRoleId: string | null; groupRoles: GroupRole[] } {
  const orgLevel = user.accessControls.find((ac) => ac.protectable.type === "organization");
  const groupRoles = user.accessControls
    .filter((ac) => ac.protectable.type === "group")
    .map((ac) => ({ roleId: ac.role.id, groupId: ac.protectable.id }));
  return { defaultRoleId: orgLevel?.role.id ?? null, groupRoles: sortGroupRoles(groupRoles) };
}

export interface DeclaredUser {
  firstName: string;
  lastName: string;
  email: string;
  defaultRoleId: string;
  groupRoles: GroupRole[];
}

/** The user's mutable fields, from the API or from recorded outputs. */
export interface UserFields {
  firstName: string;
  lastName: string;
  defaultRoleId: string | null;
  groupRoles: GroupRole[];
}

/** Pure: the PUT bodies that turn `current` into `want` — only what differs, group roles in batches the API takes. */
export function userUpdateBodies(current: UserFields, want: DeclaredUser): Record<string, unknown>[] {
  const fields: Record<string, unknown> = {};
  if (current.firstName !== want.firstName) fields.firstName = want.firstName;
  if (current.lastName !== want.lastName) fields.lastName = want.lastName;
  if (current.defaultRoleId !== want.defaultRoleId) fields.defaultRoleId = want.defaultRoleId;
  const actions = groupRoleActions(current.groupRoles, want.groupRoles);
  const bodies: Record<string, unknown>[] = [];
  for (let i = 0; i < actions.length; i += MAX_GROUP_ROLES) {
    bodies.push({ groupRoles: actions.slice(i, i + MAX_GROUP_ROLES) });
  }
  if (Object.keys(fields).length) {
    if (bodies.length) Object.assign(bodies[0], fields);
    else bodies.push(fields);
  }
  return bodies;
}

const isGroupRole = (value: unknown): value is GroupRole =>
  typeof value === "object" &&
  value !== null &&
  "roleId" in value &&
  "groupId" in value &&
  typeof value.roleId === "string" &&
  typeof value.groupId === "string";

/**
 * A declared, recorded or live list of group roles as a sorted set of keys (absent: none). State no version of
 * the provider wrote (a hand-edited export) keeps its text, so that the drift report shows it as a difference
 * instead of failing on it.
 */
const groupRoleKeys = (value: unknown): string[] => {
  if (value === undefined || value === null) return [];
  const entries: unknown[] = Array.isArray(value) ? value : [value];
  return [...new Set(entries.map((r) => (isGroupRole(r) ? keyOf(r) : JSON.stringify(r))))].sort();
};

/** Whether two lists hold the same group roles, in any order. */
export const sameGroupRoles = (a: unknown, b: unknown) =>
  JSON.stringify(groupRoleKeys(a)) === JSON.stringify(groupRoleKeys(b));

/** The user's mutable fields as the API shows them. */
export const fieldsOf = (user: ApiUser): UserFields => ({
  firstName: user.firstName,
  lastName: user.lastName,
  ...rolesOf(user),
});

/**
 * The user's mutable fields as recorded in outputs. A user without an organization-wide role is recorded with
 * none, and state of an older version may lack groupRoles: both count as their defaults.
 */
export const fieldsFromOutputs = (olds: {
  firstName: string;
  lastName: string;
  defaultRoleId?: string | null;
  groupRoles?: GroupRole[];
}): UserFields => ({
  firstName: olds.firstName,
  lastName: olds.lastName,
  defaultRoleId: olds.defaultRoleId ?? null,
  groupRoles: olds.groupRoles ?? [],
});
