/**
 * The User kind's CRUD, on typed inputs: create directly or by invitation (never adopting silently:
 * invitation.ts), read (a pending invitation resolved to its user once one exists), update (the fewest PUTs
 * from the recorded state: roles.ts), delete.
 */
import type * as pulumi from "@pulumi/pulumi";
import { AdoptionError, ObjectGoneError } from "../../errors";
import { NotFoundError, ValidationError, type DeviceMgmtClient, type User as ApiUser } from "../../client";
import {
  clientForProps,
  readUser,
  adoptable,
  carriedInputs,
  containsUnknown,
  jsonClean,
  partialFailure,
  type Props,
  unlessGone,
  leftByUnfinishedCreate,
  unfinishedCreateStartedAt,
  checkKind,
  diffKind,
  diffKindAsked,
  liveInputs,
  type InputsOf,
  type KindHandler,
  stateFrom,
} from "../../framework";
import { fieldsFromOutputs, fieldsOf, userUpdateBodies, type DeclaredUser, type GroupRole } from "./roles";
import {
  acceptedUser,
  createOrInvite,
  invitationId,
  isInvitationId,
  isPending,
  sameEmail,
} from "./invitation";
import { userProperties, type UserProperties, type UserState, userIdentity } from "./properties";

export function diffUser(olds: Props, news: Props, sameOrganization?: boolean): pulumi.dynamic.DiffResult {
  return diffKind(userIdentity, olds, news, sameOrganization);
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

/** The declared user, as POST /users takes it. */
const declared = (inputs: InputsOf<UserProperties>): DeclaredUser => ({
  firstName: inputs.firstName,
  lastName: inputs.lastName,
  email: inputs.email,
  defaultRoleId: inputs.defaultRoleId,
  groupRoles: inputs.groupRoles,
});

/** What a pending invitation records: the declared inputs, or (at read) what it recorded before. */
type PendingValues = Pick<UserState, "firstName" | "lastName" | "email" | "defaultRoleId"> & {
  groupRoles?: GroupRole[];
};

/**
 * A pending invitation's outputs: what is declared, to be applied once the user exists. Recording the declared
 * values (not the invitation's) keeps `up` and `refresh` from showing a change that cannot be made yet.
 */
function pendingOutputs(props: PendingValues & Props, invitedAt: unknown): Props {
  return jsonClean({
    firstName: props.firstName,
    lastName: props.lastName,
    email: props.email,
    defaultRoleId: props.defaultRoleId,
    groupRoles: props.groupRoles ?? [],
    invite: true,
    pending: true,
    invitedAt: typeof invitedAt === "string" ? invitedAt : undefined,
    ...carriedInputs(props),
  });
}

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

export const userHandler: KindHandler<UserProperties> = {
  async check(_olds, news) {
    return checkKind(userIdentity, news);
  },

  async diff(id, olds, news) {
    const result = await diffKindAsked(userIdentity, olds, news);
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
    if (inputs.adoptId !== undefined) {
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
      const made = await createOrInvite(client, want, inputs.invite, {
        startedAt: unfinishedCreateStartedAt(userIdentity.kind, inputs),
        // A pending invitation's id names no user: the user it became is found by time.
        made: (user) =>
          leftByUnfinishedCreate(userIdentity.kind, inputs, [user], (id) => !isInvitationId(id)) !==
          undefined,
      });
      // Invited, but no user record yet: recorded as a pending invitation (see invitation.ts).
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
    return { id: live.id, props: outputs, inputs: liveInputs(userIdentity, outputs) };
  },

  async update(recordedId, recorded, news) {
    const client = clientForProps(news);
    const want = declared(news);
    let id = recordedId;
    // What the update plans from: the recorded outputs (no extra read).
    let current = fieldsFromOutputs(recorded);
    let email = recorded.email;
    if (isInvitationId(recordedId)) {
      const accepted = await acceptedUser(client, recordedId, recorded);
      // Not accepted yet: there is no user to give names or roles to. The declared values are recorded (so no
      // change shows meanwhile) and applied by the first `up` after the invitee accepts. The invitation already
      // sent keeps the roles it was sent with until then.
      if (!accepted && isPending(recorded)) return { outs: pendingOutputs(news, recorded.invitedAt) };
      if (accepted) {
        id = accepted.id;
        // Plan from the user as it is: the recorded outputs of an invitation are declared values, not live ones.
        if (isPending(recorded)) {
          current = fieldsOf(accepted);
          email = accepted.email;
        }
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
            `User ${id} (${email}) no longer exists in the organization. Run \`pulumi refresh\` ` +
              `to forget it, then \`pulumi up\` creates it again.`,
            "User",
            id,
          )
        : error;
    // If the server says the recorded outputs are stale because someone changed the user's roles behind
    // Pulumi's back, plan again from a fresh read.
    try {
      const updated = await applyUpdates(client, id, userUpdateBodies(current, want));
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
