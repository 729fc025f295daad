/**
 * Lookups of the organization's structure: roles, groups, release channels, devices, the organization and the
 * token's user (what every lookup shares is in lookupSupport.ts; each kind's own in its kinds/<kind>/lookups.ts).
 */
import { checker } from "./client/arguments";
import {
  appNamed,
  exactlyOne,
  lookup,
  lookupWithoutArgs,
  lookupClient,
  toOutput,
  toOutputWithoutArgs,
  type LookupOptions,
} from "./lookupSupport";

export type { LookupInputs, LookupOptions, LookupOutputOptions } from "./lookupSupport";

// ---- Roles --------------------------------------------------------------------------------------------------

/** A role of the organization (system roles included). */
export interface RoleResult {
  /** The role's UUID, e.g. for a User's `defaultRoleId` or `groupRoles[].roleId`. */
  id: string;
  name: string;
  type: "organization" | "group";
  /** True for the built-in roles the service provides. */
  isOwnedBySystem: boolean;
}

/** Arguments of {@link getRole}. */
export interface GetRoleArgs {
  /** The role's exact name, e.g. "Admin" or "Group Viewer" (1 to 255 characters, case-sensitive). */
  name: string;
  /** Only roles of this type: needed when an organization role and a group role share the name. */
  type?: "organization" | "group";
}

const ROLE_USAGE = 'getRole({ name: "Admin" }) or getRole({ name: "Group Viewer", type: "group" })';

/**
 * Finds a role by name (and type); an error lists the roles there are when none or several match.
 *
 * @function
 * @example
 * const berlin = dm.getGroupOutput({ name: "Berlin Lab" }); // a configured group at the root
 * const groupAdmin = dm.getRoleOutput({ name: "Group Admin", type: "group" });
 * const readOnly = dm.getRoleOutput({ name: "Read Only", type: "organization" });
 * new dm.User("emil", {
 *   firstName: "Emil", lastName: "Lindqvist", email: "emil@acme.example", defaultRoleId: readOnly.id,
 *   groupRoles: [{ roleId: groupAdmin.id, groupId: berlin.id }],
 * });
 */
export const getRole = lookup(async function getRole(
  args: GetRoleArgs,
  options?: LookupOptions,
): Promise<RoleResult> {
  const check = checker("getRole", args, ROLE_USAGE);
  check.only("name", "type");
  const name = check.name("name", "role's name");
  const type = check.oneOf("type", ["organization", "group"] as const);
  const roles = await lookupClient(options).roles.all();
  const matches = roles.filter((r) => r.name === name && (!type || r.type === type));
  const role = exactlyOne(
    `role named "${name}"${type ? ` of type ${type}` : ""}`,
    matches,
    (r) => `${r.id} (${r.type})`,
    roles.map((r) => `${r.name} (${r.type})`),
  );
  return { id: role.id, name: role.name, type: role.type, isOwnedBySystem: role.isOwnedBySystem };
});
/** {@link getRole} with Inputs, as an Output. */
export const getRoleOutput = toOutput(getRole);

// ---- Release channels ---------------------------------------------------------------------------------------

/** A release channel of an app. */
export interface ReleaseChannelResult {
  id: string;
  name: string;
  appId: string;
  appName: string;
}

/** Arguments of {@link getReleaseChannel}. */
export interface GetReleaseChannelArgs {
  /** The app's exact name, e.g. "Warehouse Picker" (1 to 255 characters). */
  appName: string;
  /** The channel's exact name within that app, e.g. "Production" (1 to 255 characters). */
  channelName: string;
}

const CHANNEL_USAGE = 'getReleaseChannel({ appName: "Warehouse Picker", channelName: "Production" })';

/**
 * Finds a release channel by app name and channel name.
 *
 * @function
 * @example
 * const berlin = dm.getGroupOutput({ name: "Berlin Lab" }); // a configured group at the root
 * const production = dm.getReleaseChannelOutput({ appName: "Training Simulator", channelName: "Production" });
 * new dm.GroupReleaseChannel("berlin-simulator", { groupId: berlin.id, releaseChannelId: production.id });
 */
export const getReleaseChannel = lookup(async function getReleaseChannel(
  args: GetReleaseChannelArgs,
  options?: LookupOptions,
): Promise<ReleaseChannelResult> {
  const check = checker("getReleaseChannel", args, CHANNEL_USAGE);
  check.only("appName", "channelName");
  const appName = check.name("appName", "app's name");
  const channelName = check.name("channelName", "release channel's name");
  const client = lookupClient(options);
  const app = await appNamed(client, appName);
  const channels: { id: string; name: string }[] = [];
  for await (const channel of client.apps.releaseChannels(app.id)) channels.push(channel);
  const channel = exactlyOne(
    `release channel named "${channelName}" in app "${app.name}"`,
    channels.filter((c) => c.name === channelName),
    (c) => c.id,
    channels.map((c) => c.name),
  );
  return { id: channel.id, name: channel.name, appId: app.id, appName: app.name };
});
/** {@link getReleaseChannel} with Inputs, as an Output. */
export const getReleaseChannelOutput = toOutput(getReleaseChannel);

// ---- The caller ---------------------------------------------------------------------------------------------

/** The organization the token belongs to. */
export interface OrganizationResult {
  id: string;
  name: string;
  /** The organization's slug, e.g. the target of a device migration. */
  slug: string;
}

/**
 * The organization of the token in use.
 *
 * @function
 * @example
 * export const organizationSlug = dm.getCurrentOrganizationOutput().slug;
 */
export const getCurrentOrganization = lookupWithoutArgs(async function getCurrentOrganization(
  options?: LookupOptions,
): Promise<OrganizationResult> {
  const org = await lookupClient(options).currentOrganization();
  return { id: org.id, name: org.name, slug: org.slug };
});
/** {@link getCurrentOrganization} as an Output (its connection may come from Outputs). */
export const getCurrentOrganizationOutput = toOutputWithoutArgs(getCurrentOrganization);

/** The user the token belongs to. */
export interface CurrentUserResult {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
}

/**
 * The user of the token in use.
 *
 * @function
 * @example
 * export const deployedBy = dm.getCurrentUserOutput().email;
 */
export const getCurrentUser = lookupWithoutArgs(async function getCurrentUser(
  options?: LookupOptions,
): Promise<CurrentUserResult> {
  const user = await lookupClient(options).currentUser();
  return { id: user.id, firstName: user.firstName, lastName: user.lastName, email: user.email };
});
/** {@link getCurrentUser} as an Output (its connection may come from Outputs). */
export const getCurrentUserOutput = toOutputWithoutArgs(getCurrentUser);

/** What the API says about the token in use. */
export interface TokenInfoResult {
  tokenName: string;
  apiVersion: "v2" | "v3";
  organizationId: string;
  basePath: string;
}

/**
 * The token's name, API version and organization (its display form is left out: it is part of the secret).
 *
 * @function
 * @example
 * export const tokenName = dm.getTokenInfo().then((token) => `${token.tokenName} (${token.apiVersion})`);
 */
export const getTokenInfo = lookupWithoutArgs(async function getTokenInfo(
  options?: LookupOptions,
): Promise<TokenInfoResult> {
  const info = await lookupClient(options).tokenInfo();
  return {
    tokenName: info.token_name,
    apiVersion: info.api_version,
    organizationId: info.organization_id,
    basePath: info.base_path,
  };
});
/** {@link getTokenInfo} as an Output (its connection may come from Outputs). */
export const getTokenInfoOutput = toOutputWithoutArgs(getTokenInfo);
