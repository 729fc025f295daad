import type * as pulumi from "@pulumi/pulumi";
import { DeviceMgmtResource, type AdoptionArgs, registration } from "../../framework";
import { userKind } from "./definition";
import type { GroupRole } from "./roles";

// What the package exports of the kind besides its class, from the kind's other files.
export type { GroupRole } from "./roles";

/** A role the user holds on one group. */
export interface GroupRoleArgs {
  /** A group role's id (see `getRole({ name, type: "group" })`). */
  roleId: pulumi.Input<string>;
  /** The group the role applies to. */
  groupId: pulumi.Input<string>;
}

/** The inputs of a {@link User}. */
export interface UserArgs extends AdoptionArgs {
  /** The user's first name; changes update in place. */
  firstName: pulumi.Input<string>;
  /** The user's last name; changes update in place. */
  lastName: pulumi.Input<string>;
  /** The user's e-mail, unique in the organization. Changing it replaces the user (delete first). */
  email: pulumi.Input<string>;
  /** The role the user holds across the organization (an organization or group role). */
  defaultRoleId: pulumi.Input<string>;
  /** Extra roles on particular groups; order does not matter; at most 100; no duplicates. */
  groupRoles?: pulumi.Input<pulumi.Input<GroupRoleArgs>[]>;
  /**
   * true: send an invitation e-mail (POST /user-invites); false (default): create directly, for single sign-on
   * accounts. Where the organization makes the account only when the invitee accepts, the User is recorded as a
   * pending invitation until then (see {@link User.pending}).
   */
  invite?: pulumi.Input<boolean>;
}

/**
 * A user of the organization with a default role and group roles. Names and roles update in place; a new
 * e-mail replaces the user (delete first: an e-mail cannot exist twice).
 *
 * A create fails, before any write, when a user with the e-mail exists: take it over with `adoptId` (the error
 * gives its id), or use `aliases` if you renamed or moved the resource in code.
 *
 * With `invite: true`, an organization may make the account only when the invitee accepts. Until then the User
 * is a pending invitation: its id is `invite:<e-mail>`, `pending` is true, and its outputs show the declared
 * names and roles, so `up` and `refresh` show no change. Changes to names or roles meanwhile are recorded and
 * applied by the first `pulumi up` after acceptance (the invitation keeps the roles it was sent with until
 * then). Once the user exists, `pulumi refresh` gives the User the user's id and live values (a plain `up`
 * applies the declared values but keeps the `invite:` id until the next refresh). Deleting a pending invitation
 * removes it from the stack only: the API documents no way to withdraw an invitation.
 *
 * @example
 * const admin = dm.getRoleOutput({ name: "Admin", type: "organization" });
 * new dm.User("emil", { firstName: "Emil", lastName: "Lindqvist", email: "emil@acme.example", defaultRoleId: admin.id });
 */
export class User extends DeviceMgmtResource {
  /** The user's first name. */
  declare readonly firstName: pulumi.Output<string>;
  /** The user's last name. */
  declare readonly lastName: pulumi.Output<string>;
  /** The user's e-mail. */
  declare readonly email: pulumi.Output<string>;
  /** The role the user holds across the organization. */
  declare readonly defaultRoleId: pulumi.Output<string>;
  /** The roles the user holds on particular groups. */
  declare readonly groupRoles: pulumi.Output<GroupRole[]>;
  /** true while the User is an invitation not accepted yet (no user record exists); false once it is a user. */
  declare readonly pending: pulumi.Output<boolean>;
  /** When the invitation was sent (ISO 8601); only while pending. */
  declare readonly invitedAt: pulumi.Output<string | undefined>;
  // Typed as before (string) so that existing programs still compile; undefined only while pending.
  /** When the user was created (ISO 8601); undefined while the invitation is pending. */
  declare readonly createdAt: pulumi.Output<string>;
  /** When the user was last changed (ISO 8601); undefined while the invitation is pending. */
  declare readonly updatedAt: pulumi.Output<string>;

  constructor(name: string, args: UserArgs, opts?: pulumi.CustomResourceOptions) {
    super(...registration(userKind, name, args, opts));
  }
}
