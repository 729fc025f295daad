import * as pulumi from "@pulumi/pulumi";
import { AdoptionError, ObjectGoneError } from "../../errors";
import { z } from "zod";
import { NotFoundError, ValidationError, type DeviceMgmtClient, type User as ApiUser } from "../../client";
import { clientForProps } from "../../framework/context";
import { readUser } from "../../framework/coalescedReads";
import {
  adoptable,
  carriedInputs,
  containsUnknown,
  jsonClean,
  partialFailure,
  uuid,
  type Props,
  unlessGone,
  type ResourceHandler,
} from "../../framework/framework";
import {
  checkKind,
  defineKind,
  diffKind,
  diffKindAsked,
  liveInputs,
  registration,
} from "../../framework/kind";
import { carried, stateFrom, type PropertySpecs } from "../../framework/properties";
import { DeviceMgmtResource, type AdoptionArgs } from "../../framework/common";
import { leftByUnfinishedCreate, unfinishedCreateStartedAt } from "../../framework/claims";
import {
  MAX_GROUP_ROLES,
  findDuplicateGroupRoles,
  fieldsFromOutputs,
  fieldsOf,
  rolesOf,
  sortGroupRoles,
  sameGroupRoles,
  userUpdateBodies,
  type DeclaredUser,
  type GroupRole,
} from "./roles";
import {
  acceptedUser,
  createOrInvite,
  invitationId,
  isInvitationId,
  isPending,
  sameEmail,
} from "./invitation";

export {
  findDuplicateGroupRoles,
  groupRoleActions,
  rolesOf,
  sortGroupRoles,
  userUpdateBodies,
  type DeclaredUser,
  type GroupRole,
  type GroupRoleAction,
  type UserFields,
} from "./roles";

// ---- Properties, declared once -----------------------------------------------------------------------------

const groupRoleSchema = z.object({ roleId: uuid("roleId"), groupId: uuid("groupId") }).strict();

/** The API's limit on names and e-mail addresses. */
const MAX_TEXT = 255;

const userProperties = {
  firstName: {
    schema: z
      .string({ error: "firstName is required and must be a string" })
      .trim()
      .min(1, { error: "firstName must not be empty" })
      .max(MAX_TEXT, { error: `firstName must be at most ${MAX_TEXT} characters: shorten it` }),
    change: "update",
    fromLive: (live: ApiUser) => live.firstName,
  },
  lastName: {
    schema: z
      .string({ error: "lastName is required and must be a string" })
      .trim()
      .min(1, { error: "lastName must not be empty" })
      .max(MAX_TEXT, { error: `lastName must be at most ${MAX_TEXT} characters: shorten it` }),
    change: "update",
    fromLive: (live: ApiUser) => live.lastName,
  },
  email: {
    schema: z
      .email({ error: "email must be an e-mail address such as ada@example.com" })
      .max(MAX_TEXT, { error: `email must be at most ${MAX_TEXT} characters` }),
    change: "replace",
    fromLive: (live: ApiUser) => live.email,
    equal: sameEmail,
  },
  defaultRoleId: {
    schema: uuid("defaultRoleId"),
    change: "update",
    fromLive: (live: ApiUser) => rolesOf(live).defaultRoleId,
  },
  groupRoles: {
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
    schema: z
      .boolean({ error: "invite must be true or false" })
      .optional()
      .transform((v) => v ?? false),
    change: "createOnly",
  },
  ...carried,
} satisfies PropertySpecs<ApiUser>;

export function diffUser(olds: Props, news: Props, sameOrganization?: boolean): pulumi.dynamic.DiffResult {
  return diffKind(userKind, olds, news, sameOrganization);
}

// ---- Mapping ------------------------------------------------------------------------------------------------

function toOutputs(live: ApiUser, props: Props): Props {
  return jsonClean({
    ...stateFrom(userProperties, live, props),
    invite: props.invite === true,
    pending: false,
    createdAt: live.createdAt,
    updatedAt: live.updatedAt,
  });
}

/**
 * A pending invitation's outputs: what is declared, to be applied once the user exists. Recording the declared
 * values (not the invitation's) keeps `up` and `refresh` from showing a change that cannot be made yet.
 */
function pendingOutputs(props: Props, invitedAt: unknown): Props {
  return jsonClean({
    ...declared(props),
    invite: true,
    pending: true,
    invitedAt: typeof invitedAt === "string" ? invitedAt : undefined,
    ...carriedInputs(props),
  });
}

const declared = (props: Props): DeclaredUser => ({
  firstName: props.firstName as string,
  lastName: props.lastName as string,
  email: props.email as string,
  defaultRoleId: props.defaultRoleId as string,
  groupRoles: (props.groupRoles as GroupRole[] | undefined) ?? [],
});

// ---- CRUD ---------------------------------------------------------------------------------------------------

/** Applies the bodies; returns the user as the last answer shows it, or undefined when nothing had to change. */
async function applyUpdates(
  client: DeviceMgmtClient,
  id: string,
  bodies: Record<string, unknown>[],
): Promise<ApiUser | undefined> {
  let last: ApiUser | undefined;
  for (const body of bodies) last = await client.users.update(id, body);
  return last;
}

export const userHandler: ResourceHandler = {
  async check(_olds, news) {
    return checkKind(userKind, news);
  },

  async diff(id, olds, news) {
    const result = await diffKindAsked(userKind, olds, news);
    if (result.changes || !isPending(olds) || containsUnknown(news)) return result;
    // A pending invitation with nothing declared changed: if the invitee has accepted since, the update applies
    // the declared names and roles to the new user (without waiting for a refresh to notice the acceptance).
    const accepted = await acceptedUser(clientForProps(news), id, olds);
    return accepted ? { ...result, changes: true } : result;
  },

  async create(inputs) {
    const client = clientForProps(inputs);
    const want = declared(inputs);
    let live: ApiUser;
    if (typeof inputs.adoptId === "string") {
      live = await adoptable("user", inputs.adoptId, (id) => client.users.get(id));
      if (!sameEmail(live.email, want.email)) {
        throw new AdoptionError(
          `adoptId: user ${inputs.adoptId} has e-mail ${live.email}, but the program declares ${want.email}. ` +
            `A user's e-mail cannot change: declare ${live.email} to adopt this user.`,
          inputs.adoptId,
          "User",
        );
      }
    } else {
      const made = await createOrInvite(client, want, inputs.invite === true, {
        startedAt: unfinishedCreateStartedAt("user", inputs),
        made: (user) => leftByUnfinishedCreate("user", inputs, [user]) !== undefined,
      });
      // Invited, but no user record yet: recorded as a pending invitation (see userInvitation.ts).
      if (!("user" in made))
        return { id: invitationId(want.email), outs: pendingOutputs(inputs, made.invitedAt) };
      live = made.user;
    }
    try {
      live = (await applyUpdates(client, live.id, userUpdateBodies(fieldsOf(live), want))) ?? live;
    } catch (error) {
      throw partialFailure(live.id, toOutputs(live, inputs), inputs, error);
    }
    return { id: live.id, outs: toOutputs(live, inputs) };
  },

  async read(id, props) {
    const client = clientForProps(props);
    let live: ApiUser | undefined;
    if (isInvitationId(id)) {
      // Recorded under its invitation: resolved to the user once one exists, which gives it the user's id
      // (the engine's refresh records the id Read returns). Still pending: kept as it is, inputs untouched.
      live = await acceptedUser(client, id, props);
      if (!live && isPending(props)) return { id, props: pendingOutputs(props, props.invitedAt) };
    } else {
      live = await unlessGone(readUser(client, id));
    }
    if (!live) return {};
    const outputs = toOutputs(live, props);
    return { id: live.id, props: outputs, inputs: liveInputs(userKind, outputs) };
  },

  async update(recordedId, recorded, news) {
    const client = clientForProps(news);
    const want = declared(news);
    let id = recordedId;
    let olds = recorded;
    if (isInvitationId(recordedId)) {
      const accepted = await acceptedUser(client, recordedId, recorded);
      // Not accepted yet: there is no user to give names or roles to. The declared values are recorded (so no
      // change shows meanwhile) and applied by the first `up` after the invitee accepts. The invitation already
      // sent keeps the roles it was sent with until then.
      if (!accepted && isPending(recorded)) return { outs: pendingOutputs(news, recorded.invitedAt) };
      if (accepted) {
        id = accepted.id;
        // Plan from the user as it is: the recorded outputs of an invitation are declared values, not live ones.
        if (isPending(recorded)) olds = toOutputs(accepted, recorded);
      } else {
        throw new ObjectGoneError(
          `User ${recordedId} no longer exists in the organization. Run \`pulumi refresh\` to forget it, then ` +
            `\`pulumi up\` creates it again.`,
          "User",
          recordedId,
        );
      }
    }
    const gone = (error: unknown) =>
      error instanceof NotFoundError
        ? new ObjectGoneError(
            `User ${id} (${olds.email as string}) no longer exists in the organization. Run \`pulumi refresh\` ` +
              `to forget it, then \`pulumi up\` creates it again.`,
            "User",
            id,
          )
        : error;
    // Plan from the recorded outputs (no extra read); if the server says they are stale because someone
    // changed the user's roles behind Pulumi's back, plan again from a fresh read.
    try {
      const updated = await applyUpdates(client, id, userUpdateBodies(fieldsFromOutputs(olds), want));
      return { outs: toOutputs(updated ?? (await client.users.get(id)), news) };
    } catch (error) {
      const live = await client.users.get(id).catch(() => undefined);
      if (!(error instanceof ValidationError) || !live) {
        throw live ? partialFailure(id, toOutputs(live, news), news, error) : gone(error);
      }
      try {
        return {
          outs: toOutputs(
            (await applyUpdates(client, id, userUpdateBodies(fieldsOf(live), want))) ?? live,
            news,
          ),
        };
      } catch (retryError) {
        throw partialFailure(
          id,
          toOutputs(await client.users.get(id).catch(() => live), news),
          news,
          retryError,
        );
      }
    }
  },

  async delete(recordedId, props) {
    const client = clientForProps(props);
    let id = recordedId;
    if (isInvitationId(recordedId)) {
      const accepted = await acceptedUser(client, recordedId, props);
      // Still only an invitation: the API documents no way to withdraw one, so there is nothing to delete and
      // the delete succeeds. Should the invitee accept later, that user is not this stack's to manage.
      if (!accepted) return;
      id = accepted.id; // accepted since it was last seen: the user this stack invited
    }
    await unlessGone(client.users.delete(id));
  },
};

// ---- Resource class -----------------------------------------------------------------------------------------

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

export const userKind = defineKind({
  kind: "user",
  type: "User",
  naturalKey: true,
  properties: userProperties,
  outputs: ["pending", "invitedAt", "createdAt", "updatedAt"],
  handler: userHandler,
});
