/**
 * Creating a user, directly or by invitation, and the invitations that are still pending (issue #14).
 *
 * The API documents that `POST /user-invites` answers 204, not that a user record exists at once. Some
 * organizations create the account right away (with empty names until the invitee signs in); others only when
 * the invitee accepts. The provider must not depend on which: a User whose invitation is not accepted yet is
 * recorded as a pending invitation, and becomes the user record once one with its e-mail appears.
 *
 * A pending invitation in state:
 * - id `invite:<e-mail in lower case>` (there is no user id yet, and the e-mail is unique in the organization);
 * - outputs: the declared names and roles (what will be applied once the user exists, so no change is shown
 *   in the meantime), `invite: true`, `pending: true`, `invitedAt` (when it was sent); no createdAt/updatedAt.
 *
 * The API has no documented way to list, look up or withdraw an invitation, so the provider only ever looks
 * for the user record: an invitation that expired or was withdrawn in the portal stays pending in state.
 */
import { NotPossibleError } from "../../errors";
import { ValidationError, type DeviceMgmtClient, type User as ApiUser } from "../../client";
import { notCreatedHere, untilApplied, type Props } from "../../framework";
import type { DeclaredUser } from "./roles";

/** The start of a pending invitation's id. */
export const INVITATION_ID_PREFIX = "invite:";

/** The id a pending invitation is recorded under (user ids are UUIDs, so the two cannot be confused). */
export const invitationId = (email: string): string => `${INVITATION_ID_PREFIX}${email.toLowerCase()}`;

export const isInvitationId = (id: string): boolean => id.startsWith(INVITATION_ID_PREFIX);

/** Whether recorded outputs are those of an invitation that was not accepted when last seen. */
export const isPending = (props: Props): boolean => props.pending === true;

export const sameEmail = (a: unknown, b: unknown): boolean =>
  typeof a === "string" && typeof b === "string" ? a.toLowerCase() === b.toLowerCase() : a === b;

/** Newest users come first in the API's order, so a just-made user is found on the first page. */
export async function findByEmail(client: DeviceMgmtClient, email: string): Promise<ApiUser | undefined> {
  for await (const user of client.users.list()) {
    if (sameEmail(user.email, email)) return user;
  }
  return undefined;
}

/** Allowance for the server's clock running behind ours when judging whether a user is one we just made. */
const CLOCK_SKEW_MS = 60_000;

const madeSince = (user: ApiUser, since: number) => Date.parse(user.createdAt) >= since - CLOCK_SKEW_MS;

function emailTaken(email: string, existing: ApiUser): Error {
  return notCreatedHere(
    `A user with e-mail ${email} already exists in the organization (id ${existing.id}), and this User did not ` +
      `create it.`,
    "a user",
    existing.id,
  );
}

function alreadyInvited(email: string): Error {
  return new NotPossibleError(
    `An invitation for ${email} is already pending in the organization (sent outside this stack, or by an ` +
      `earlier run that was interrupted), and no user with that e-mail exists yet. Nothing was changed. The API ` +
      `offers no way to withdraw or adopt an invitation: withdraw it in the portal and run \`pulumi up\` again, ` +
      `or wait until it is accepted and set adoptId to the new user's id.`,
    {
      kind: "User",
      property: "email",
      fix: "withdraw the invitation in the portal, or adopt the user once it exists",
    },
  );
}

/** A created user, or an invitation the API took but that is no user yet (`invitedAt`: when it was sent). */
export type Made = { user: ApiUser } | { invitedAt: string };

/**
 * Creates the user (POST /users) or invites them (POST /user-invites). Never takes over a user that existed
 * before: a duplicate e-mail is an error that says how to adopt it.
 */
export async function createOrInvite(
  client: DeviceMgmtClient,
  want: DeclaredUser,
  invite: boolean,
  /** What an earlier create of this User left unfinished (a killed run): its time and whether a user is its. */
  unfinished: { startedAt?: number; made(user: ApiUser): boolean } = { made: () => false },
): Promise<Made> {
  const startedAt = Date.now();
  let sent = 0;
  const attempt = async (): Promise<ApiUser | undefined> => {
    sent++;
    if (!invite) return client.users.create(want);
    await client.users.invite({
      email: want.email,
      defaultRoleId: want.defaultRoleId,
      groupRoles: want.groupRoles,
    });
    return undefined;
  };
  let created: ApiUser | undefined;
  try {
    created = await untilApplied(attempt, async () => {
      // The request may have made the user. One that existed before it began is someone else's: the request
      // was then refused as a duplicate, and quietly taking that user over would manage (and later delete) it.
      const found = await findByEmail(client, want.email);
      if (found && !madeSince(found, startedAt) && !unfinished.made(found))
        throw emailTaken(want.email, found);
      return found;
    });
  } catch (error) {
    if (!(error instanceof ValidationError && error.fieldErrors?.email)) throw error;
    const existing = await findByEmail(client, want.email);
    // The user an earlier, killed create of this User made is its own: taken over, not refused.
    if (existing && unfinished.made(existing)) return { user: existing };
    if (existing) throw emailTaken(want.email, existing);
    if (!invite) throw error;
    // No user, but the e-mail is refused: it has a pending invitation. When an earlier attempt of this very
    // create lost its answer, or an earlier create of this User was killed, that invitation is ours (the retry
    // found no user because it is still pending).
    if (sent > 1) return { invitedAt: new Date(startedAt).toISOString() };
    if (unfinished.startedAt !== undefined)
      return { invitedAt: new Date(unfinished.startedAt).toISOString() };
    throw alreadyInvited(want.email);
  }
  if (created) return { user: created };
  const invited = await findByEmail(client, want.email);
  return invited ? { user: invited } : { invitedAt: new Date(startedAt).toISOString() };
}

/**
 * The user a recorded invitation became, or undefined while there is none. Only a user made after the
 * invitation was sent counts (less clock skew): an older one cannot have come from it.
 */
export async function acceptedUser(
  client: DeviceMgmtClient,
  id: string,
  props: Props,
): Promise<ApiUser | undefined> {
  const email = typeof props.email === "string" ? props.email : id.slice(INVITATION_ID_PREFIX.length);
  const found = await findByEmail(client, email);
  const invitedAt = typeof props.invitedAt === "string" ? Date.parse(props.invitedAt) : Number.NaN;
  if (!found || (isPending(props) && !Number.isNaN(invitedAt) && !madeSince(found, invitedAt)))
    return undefined;
  return found;
}
