import * as pulumi from "@pulumi/pulumi";
import { clientFor, resolveConnection, stackSettingsFrom, type ConnectionInput } from "./connection";
import { NotFoundError, type DeviceMgmtClient, type Device as ApiDevice } from "./client";

/**
 * Lookups read the organization while the program runs (during preview too), like a Terraform data source.
 * Each comes as `getX` (a promise) and `getXOutput` (an Output that takes Inputs), the Pulumi convention.
 */
export interface LookupOptions {
  /** Another organization's API for this lookup only. */
  connection?: ConnectionInput;
}

function lookupClient(options?: LookupOptions): DeviceMgmtClient {
  const stack = stackSettingsFrom((key) => pulumi.runtime.getConfig(key));
  return clientFor(resolveConnection(options?.connection, stack));
}

const quoted = (values: string[]) => values.map((v) => `"${v}"`).join(", ");

function exactlyOne<T>(what: string, matches: T[], describe: (m: T) => string, nearby: string[]): T {
  if (matches.length === 1) return matches[0];
  if (matches.length === 0) {
    throw new Error(`No ${what}.${nearby.length ? ` Available: ${quoted(nearby)}.` : ""}`);
  }
  throw new Error(
    `More than one ${what}: ${matches.map(describe).join("; ")}. Narrow the lookup (e.g. by id).`,
  );
}

/** A by-id read whose 404 says, in the program's terms, that nothing has that id. */
async function byId<T>(what: string, id: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof NotFoundError) {
      throw new Error(`No ${what} with id ${id} in the organization (${error.message}).`);
    }
    throw error;
  }
}

/** The options of a getXOutput: the connection may come from Outputs, e.g. a secret from stack config. */
export interface LookupOutputOptions {
  connection?: pulumi.Input<{ baseUrl?: pulumi.Input<string>; apiToken?: pulumi.Input<string> }>;
}

/** Resolves the options' Inputs; a secret token makes the result secret too, as Outputs do. */
const resolvedOptions = (options?: LookupOutputOptions): pulumi.Output<LookupOptions> =>
  pulumi.output(options ?? {}) as pulumi.Output<LookupOptions>;

const toOutput =
  <A, R>(fn: (args: A, options?: LookupOptions) => Promise<R>) =>
  (
    args: pulumi.Inputs & { [K in keyof A]: pulumi.Input<A[K]> },
    options?: LookupOutputOptions,
  ): pulumi.Output<R> =>
    pulumi
      .all([pulumi.output(args), resolvedOptions(options)])
      .apply(([resolved, opts]) => fn(resolved as unknown as A, opts));

const toOutputWithoutArgs =
  <R>(fn: (options?: LookupOptions) => Promise<R>) =>
  (options?: LookupOutputOptions): pulumi.Output<R> =>
    resolvedOptions(options).apply((opts) => fn(opts));

// ---- Roles --------------------------------------------------------------------------------------------------

export interface RoleResult {
  id: string;
  name: string;
  type: "organization" | "group";
  isOwnedBySystem: boolean;
}

export interface GetRoleArgs {
  name: string;
  type?: "organization" | "group";
}

export async function getRole(args: GetRoleArgs, options?: LookupOptions): Promise<RoleResult> {
  const roles = await lookupClient(options).roles.all();
  const matches = roles.filter((r) => r.name === args.name && (!args.type || r.type === args.type));
  const role = exactlyOne(
    `role named "${args.name}"${args.type ? ` of type ${args.type}` : ""}`,
    matches,
    (r) => `${r.id} (${r.type})`,
    roles.map((r) => `${r.name} (${r.type})`),
  );
  return { id: role.id, name: role.name, type: role.type, isOwnedBySystem: role.isOwnedBySystem };
}
export const getRoleOutput = toOutput(getRole);

// ---- Groups -------------------------------------------------------------------------------------------------

export interface GroupResult {
  id: string;
  name: string;
  parentId: string | null;
  configured: boolean;
  deviceCount: number;
}

/** By id, or by name under a parent (parentId null or absent: a root-level group). */
export type GetGroupArgs = { id: string } | { name: string; parentId?: string | null };

export async function getGroup(args: GetGroupArgs, options?: LookupOptions): Promise<GroupResult> {
  const client = lookupClient(options);
  if ("id" in args && args.id) {
    const g = await byId("group", args.id, () => client.groups.get(args.id));
    return {
      id: g.id,
      name: g.name,
      parentId: g.parent?.id ?? null,
      configured: g.isConfigured,
      deviceCount: g.deviceCount ?? 0,
    };
  }
  const { name, parentId: givenParentId } = args as { name: string; parentId?: string | null };
  // The API returns ids in lower case; one copied in capitals must still find its children.
  const parentId = givenParentId ? givenParentId.toLowerCase() : null;
  const groups = await client.groups.all();
  const siblings = groups.filter((g) => (g.parent?.id ?? null) === parentId);
  const g = exactlyOne(
    `group named "${name}" ${parentId ? `under group ${parentId}` : "at the root"}`,
    siblings.filter((s) => s.name === name),
    (m) => `${m.id} (created ${m.createdAt})`,
    siblings.map((s) => s.name),
  );
  return { id: g.id, name: g.name, parentId, configured: g.isConfigured, deviceCount: g.deviceCount ?? 0 };
}
export const getGroupOutput = toOutput(getGroup);

// ---- Release channels ---------------------------------------------------------------------------------------

export interface ReleaseChannelResult {
  id: string;
  name: string;
  appId: string;
  appName: string;
}

export interface GetReleaseChannelArgs {
  appName: string;
  channelName: string;
}

export async function getReleaseChannel(
  args: GetReleaseChannelArgs,
  options?: LookupOptions,
): Promise<ReleaseChannelResult> {
  const client = lookupClient(options);
  const apps = await client.apps.all();
  const app = exactlyOne(
    `app named "${args.appName}"`,
    apps.filter((a) => a.name === args.appName),
    (a) => a.id,
    apps.map((a) => a.name),
  );
  const channels: { id: string; name: string }[] = [];
  for await (const channel of client.apps.releaseChannels(app.id)) channels.push(channel);
  const channel = exactlyOne(
    `release channel named "${args.channelName}" in app "${app.name}"`,
    channels.filter((c) => c.name === args.channelName),
    (c) => c.id,
    channels.map((c) => c.name),
  );
  return { id: channel.id, name: channel.name, appId: app.id, appName: app.name };
}
export const getReleaseChannelOutput = toOutput(getReleaseChannel);

// ---- Devices ------------------------------------------------------------------------------------------------

export interface DeviceResult {
  id: string;
  name: string;
  serialNumber: string;
  groupId: string | null;
}

export type GetDeviceArgs = { id: string } | { name: string } | { serialNumber: string };

const deviceResult = (d: ApiDevice): DeviceResult => ({
  id: d.id,
  name: d.name,
  serialNumber: d.serialNumber,
  groupId: d.group?.id ?? null,
});

export async function getDevice(args: GetDeviceArgs, options?: LookupOptions): Promise<DeviceResult> {
  const client = lookupClient(options);
  if ("id" in args && args.id) {
    const id = args.id;
    return deviceResult(await byId("device", id, () => client.devices.get(id)));
  }
  const devices = await client.devices.all();
  const [field, value] =
    "serialNumber" in args
      ? (["serialNumber", args.serialNumber] as const)
      : (["name", (args as { name: string }).name] as const);
  const device = exactlyOne(
    `device with ${field} "${value}"`,
    devices.filter((d) => d[field] === value),
    (d) => `${d.id} (serial ${d.serialNumber})`,
    [],
  );
  return deviceResult(device);
}
export const getDeviceOutput = toOutput(getDevice);

// ---- The caller ---------------------------------------------------------------------------------------------

export interface OrganizationResult {
  id: string;
  name: string;
  slug: string;
}

export async function getCurrentOrganization(options?: LookupOptions): Promise<OrganizationResult> {
  const org = await lookupClient(options).currentOrganization();
  return { id: org.id, name: org.name, slug: org.slug };
}
export const getCurrentOrganizationOutput = toOutputWithoutArgs(getCurrentOrganization);

export interface CurrentUserResult {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
}

export async function getCurrentUser(options?: LookupOptions): Promise<CurrentUserResult> {
  const user = await lookupClient(options).currentUser();
  return { id: user.id, firstName: user.firstName, lastName: user.lastName, email: user.email };
}
export const getCurrentUserOutput = toOutputWithoutArgs(getCurrentUser);

export interface TokenInfoResult {
  tokenName: string;
  apiVersion: "v2" | "v3";
  organizationId: string;
  basePath: string;
}

/** The token's name, API version and organization (its display form is left out: it is part of the secret). */
export async function getTokenInfo(options?: LookupOptions): Promise<TokenInfoResult> {
  const info = await lookupClient(options).tokenInfo();
  return {
    tokenName: info.token_name,
    apiVersion: info.api_version,
    organizationId: info.organization_id,
    basePath: info.base_path,
  };
}
export const getTokenInfoOutput = toOutputWithoutArgs(getTokenInfo);
