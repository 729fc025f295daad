import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { NotFoundError, ValidationError, type DeviceMgmtClient, type User as ApiUser } from "../client";
import { kindOptions, thinProvider, TYPE_MODULE } from "../dynamic";
import { clientForProps } from "./context";
import { readUser } from "./coalescedReads";
import {
  adoptIdSchema,
  adoptable,
  carriedInputs,
  checkProperties,
  connectionSchema,
  connectionStaysInOrganization,
  diffProperties,
  jsonClean,
  partialFailure,
  untilApplied,
  uuid,
  type Props,
  unlessGone,
  type ResourceHandler,
} from "./framework";
import { secretConnection, type ConnectionArgs } from "./secretConnection";

// ---- Input schema -------------------------------------------------------------------------------------------

export interface GroupRole {
  roleId: string;
  groupId: string;
}

const groupRoleSchema = z.object({ roleId: uuid("roleId"), groupId: uuid("groupId") }).strict();

const MAX_GROUP_ROLES = 100;

/** The API's limit on names and e-mail addresses. */
const MAX_TEXT = 255;

const userShape = {
  firstName: z
    .string({ error: "firstName is required and must be a string" })
    .trim()
    .min(1, { error: "firstName must not be empty" })
    .max(MAX_TEXT, { error: `firstName must be at most ${MAX_TEXT} characters: shorten it` }),
  lastName: z
    .string({ error: "lastName is required and must be a string" })
    .trim()
    .min(1, { error: "lastName must not be empty" })
    .max(MAX_TEXT, { error: `lastName must be at most ${MAX_TEXT} characters: shorten it` }),
  email: z
    .email({ error: "email must be an e-mail address such as ada@example.com" })
    .max(MAX_TEXT, { error: `email must be at most ${MAX_TEXT} characters` }),
  defaultRoleId: uuid("defaultRoleId"),
  groupRoles: z
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
  invite: z
    .boolean({ error: "invite must be true or false" })
    .optional()
    .transform((v) => v ?? false),
  adoptId: adoptIdSchema,
  connection: connectionSchema,
};

export interface UserOutputs {
  firstName: string;
  lastName: string;
  email: string;
  defaultRoleId: string;
  groupRoles: GroupRole[];
  invite: boolean;
  createdAt: string;
  updatedAt: string;
}

// ---- Pure set logic -----------------------------------------------------------------------------------------

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

const sameEmail = (a: unknown, b: unknown) =>
  typeof a === "string" && typeof b === "string" ? a.toLowerCase() === b.toLowerCase() : a === b;

const sameGroupRoles = (a: unknown, b: unknown) =>
  groupRoleActions((a as GroupRole[] | undefined) ?? [], (b as GroupRole[] | undefined) ?? []).length === 0;

// ---- Diff ---------------------------------------------------------------------------------------------------

export function diffUser(olds: Props, news: Props, sameOrganization?: boolean): pulumi.dynamic.DiffResult {
  return diffProperties(
    olds,
    news,
    {
      updatable: ["firstName", "lastName", "defaultRoleId", "groupRoles"],
      replaceOn: ["email"],
      equal: { email: sameEmail, groupRoles: sameGroupRoles },
      defaults: { groupRoles: [] },
      naturalKey: true,
    },
    sameOrganization,
  );
}

// ---- Mapping ------------------------------------------------------------------------------------------------

/** Live access controls back to inputs: the organization-level one is the default role, group ones are groupRoles. */
export function rolesOf(user: ApiUser): { defaultRoleId: string | null; groupRoles: GroupRole[] } {
  const orgLevel = user.accessControls.find((ac) => ac.protectable.type === "organization");
  const groupRoles = user.accessControls
    .filter((ac) => ac.protectable.type === "group")
    .map((ac) => ({ roleId: ac.role.id, groupId: ac.protectable.id }));
  return { defaultRoleId: orgLevel?.role.id ?? null, groupRoles: sortGroupRoles(groupRoles) };
}

function toOutputs(live: ApiUser, props: Props): UserOutputs {
  const roles = rolesOf(live);
  return jsonClean({
    firstName: live.firstName,
    lastName: live.lastName,
    email: live.email,
    defaultRoleId: roles.defaultRoleId,
    groupRoles: roles.groupRoles,
    invite: props.invite === true,
    createdAt: live.createdAt,
    updatedAt: live.updatedAt,
    ...carriedInputs(props),
  }) as UserOutputs;
}

function liveInputs(outputs: Props): Props {
  const { createdAt: _c, updatedAt: _u, ...inputs } = outputs;
  return inputs;
}

export interface DeclaredUser {
  firstName: string;
  lastName: string;
  email: string;
  defaultRoleId: string;
  groupRoles: GroupRole[];
}

const declared = (props: Props): DeclaredUser => ({
  firstName: props.firstName as string,
  lastName: props.lastName as string,
  email: props.email as string,
  defaultRoleId: props.defaultRoleId as string,
  groupRoles: (props.groupRoles as GroupRole[] | undefined) ?? [],
});

// ---- CRUD ---------------------------------------------------------------------------------------------------

/** Newest users come first in the API's order, so a just-made user is found on the first page. */
async function findByEmail(client: DeviceMgmtClient, email: string): Promise<ApiUser | undefined> {
  for await (const user of client.users.list()) {
    if (sameEmail(user.email, email)) return user;
  }
  return undefined;
}

/** Allowance for the server's clock running behind ours when judging whether a user is one we just made. */
const CLOCK_SKEW_MS = 60_000;

function emailTaken(email: string, existing: ApiUser): Error {
  return new Error(
    `A user with e-mail ${email} already exists in the organization (id ${existing.id}), and this User did not ` +
      `create it. Nothing was changed. If you renamed this resource or moved it to another parent in code, add ` +
      `the resource option aliases: [{ name: "<old name>" }] (or { parent: <old parent> }) so Pulumi knows it is ` +
      `the same one. To manage a user made outside this stack, or left by an interrupted run, set ` +
      `adoptId: "${existing.id}".`,
  );
}

async function createOrInvite(
  client: DeviceMgmtClient,
  want: DeclaredUser,
  invite: boolean,
): Promise<ApiUser> {
  const startedAt = Date.now();
  const attempt = async (): Promise<ApiUser | undefined> => {
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
      if (found && Date.parse(found.createdAt) < startedAt - CLOCK_SKEW_MS)
        throw emailTaken(want.email, found);
      return found;
    });
  } catch (error) {
    if (error instanceof ValidationError && error.fieldErrors?.email) {
      const existing = await findByEmail(client, want.email);
      if (existing) throw emailTaken(want.email, existing);
      throw error;
    } else {
      throw error;
    }
  }
  if (created) return created;
  const invited = await findByEmail(client, want.email);
  if (!invited)
    throw new Error(`The invitation for ${want.email} was accepted, but no user with that e-mail appeared.`);
  return invited;
}

/** The user's mutable fields, from the API or from recorded outputs. */
export interface UserFields {
  firstName: string;
  lastName: string;
  defaultRoleId: string | null;
  groupRoles: GroupRole[];
}

const fieldsOf = (user: ApiUser): UserFields => ({
  firstName: user.firstName,
  lastName: user.lastName,
  ...rolesOf(user),
});

const fieldsFromOutputs = (olds: Props): UserFields => ({
  firstName: olds.firstName as string,
  lastName: olds.lastName as string,
  defaultRoleId: (olds.defaultRoleId as string | undefined) ?? null,
  groupRoles: (olds.groupRoles as GroupRole[] | undefined) ?? [],
});

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
    return checkProperties("User", userShape, news);
  },

  async diff(_id, olds, news) {
    return diffUser(olds, news, await connectionStaysInOrganization(olds, news));
  },

  async create(inputs) {
    const client = clientForProps(inputs);
    await client.assertV3Token();
    const want = declared(inputs);
    let live: ApiUser;
    if (typeof inputs.adoptId === "string") {
      live = await adoptable("user", inputs.adoptId, (id) => client.users.get(id));
      if (!sameEmail(live.email, want.email)) {
        throw new Error(
          `adoptId: user ${inputs.adoptId} has e-mail ${live.email}, but the program declares ${want.email}. ` +
            `A user's e-mail cannot change: declare ${live.email} to adopt this user.`,
        );
      }
    } else {
      live = await createOrInvite(client, want, inputs.invite === true);
    }
    try {
      live = (await applyUpdates(client, live.id, userUpdateBodies(fieldsOf(live), want))) ?? live;
    } catch (error) {
      throw partialFailure(live.id, toOutputs(live, inputs), inputs, error);
    }
    return { id: live.id, outs: toOutputs(live, inputs) };
  },

  async read(id, props) {
    const live = await unlessGone(readUser(clientForProps(props), id));
    if (!live) return {};
    const outputs = toOutputs(live, props);
    return { id, props: outputs, inputs: liveInputs(outputs as unknown as Props) };
  },

  async update(id, olds, news) {
    const client = clientForProps(news);
    await client.assertV3Token();
    const want = declared(news);
    const gone = (error: unknown) =>
      error instanceof NotFoundError
        ? new Error(
            `User ${id} (${olds.email as string}) no longer exists in the organization. Run \`pulumi refresh\` ` +
              `to forget it, then \`pulumi up\` creates it again.`,
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

  async delete(id, props) {
    const client = clientForProps(props);
    await client.assertV3Token();
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
export interface UserArgs {
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
  /** true: send an invitation e-mail (POST /user-invites); false (default): create directly, for single sign-on accounts. */
  invite?: pulumi.Input<boolean>;
  /** Adopt the existing user with this id instead of creating one; it is updated to the declared inputs. Inert after the first `up`. */
  adoptId?: pulumi.Input<string>;
  /** Another organization's API for this resource only (the token is kept secret in state); default: the stack's `devicemgmt:*` config. */
  connection?: pulumi.Input<ConnectionArgs>;
}

/**
 * A user of the organization with a default role and group roles. Names and roles update in place; a new
 * e-mail replaces the user (delete first: an e-mail cannot exist twice).
 *
 * A create fails, before any write, when a user with the e-mail exists: take it over with `adoptId` (the error
 * gives its id), or use `aliases` if you renamed or moved the resource in code.
 *
 * @example
 * const admin = dm.getRoleOutput({ name: "Admin", type: "organization" });
 * new dm.User("emil", { firstName: "Emil", lastName: "Lindqvist", email: "emil@acme.example", defaultRoleId: admin.id });
 */
export class User extends pulumi.dynamic.Resource {
  /** The id of the organization the object lives in (recorded at create; later calls refuse another). */
  declare readonly organizationId: pulumi.Output<string>;
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
  /** When the user was created (ISO 8601). */
  declare readonly createdAt: pulumi.Output<string>;
  /** When the user was last changed (ISO 8601). */
  declare readonly updatedAt: pulumi.Output<string>;

  constructor(name: string, args: UserArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      thinProvider("user"),
      name,
      {
        firstName: args.firstName,
        lastName: args.lastName,
        email: args.email,
        defaultRoleId: args.defaultRoleId,
        groupRoles: args.groupRoles,
        invite: args.invite,
        adoptId: args.adoptId,
        connection: secretConnection(args.connection),
        organizationId: undefined,
        createdAt: undefined,
        updatedAt: undefined,
      },
      kindOptions(opts, true),
      TYPE_MODULE,
      "User",
    );
  }
}
