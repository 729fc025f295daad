import { DeviceMgmtClient } from "./client";

/** Where a resource's API calls go. The token is a secret: it lives in stack config, the environment, or a
 * per-resource `connection` input that the resource classes wrap in `pulumi.secret`. */
export interface ConnectionSettings {
  baseUrl: string;
  apiToken: string;
  requestsPerMinute?: number;
}

export interface ConnectionInput {
  baseUrl?: string;
  apiToken?: string;
}

export const CONFIG_KEYS = {
  baseUrl: "devicemgmt:baseUrl",
  apiToken: "devicemgmt:apiToken",
  requestsPerMinute: "devicemgmt:requestsPerMinute",
} as const;

export const ENV_KEYS = {
  baseUrl: "DEVICEMGMT_BASE_URL",
  apiToken: "DEVICEMGMT_API_TOKEN",
} as const;

const MISSING_TOKEN =
  "No API token for devicemgmt. Give one in any of three ways: the stack secret " +
  "`pulumi config set --secret devicemgmt:apiToken <token>`, the environment variable DEVICEMGMT_API_TOKEN, " +
  "or a resource's `connection: { apiToken }` input. Tokens are v3 access tokens made in the portal under " +
  "Settings > Access Tokens.";

const MISSING_BASE_URL =
  "No API base URL for devicemgmt. Give one in any of three ways: `pulumi config set devicemgmt:baseUrl " +
  "https://<host>/api/v3`, the environment variable DEVICEMGMT_BASE_URL, or a resource's " +
  "`connection: { baseUrl }` input.";

export interface StackSettings {
  baseUrl?: string;
  apiToken?: string;
  requestsPerMinute?: number;
}

/**
 * Merges the three sources, most specific first: the resource's own connection, stack config, environment.
 * The environment is read at call time so a CI job can rotate the token without touching state.
 */
export function resolveConnection(
  perResource: ConnectionInput | undefined,
  stack: StackSettings,
  env: NodeJS.ProcessEnv = process.env,
): ConnectionSettings {
  const baseUrl =
    nonEmpty(perResource?.baseUrl) ?? nonEmpty(stack.baseUrl) ?? nonEmpty(env[ENV_KEYS.baseUrl]);
  const apiToken =
    nonEmpty(perResource?.apiToken) ?? nonEmpty(stack.apiToken) ?? nonEmpty(env[ENV_KEYS.apiToken]);
  if (!apiToken) throw new Error(MISSING_TOKEN);
  if (!baseUrl) throw new Error(MISSING_BASE_URL);
  return stack.requestsPerMinute
    ? { baseUrl, apiToken, requestsPerMinute: stack.requestsPerMinute }
    : { baseUrl, apiToken };
}

function nonEmpty(value: string | undefined): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** Reads stack settings from a config getter (the plugin's `configure` request, or `pulumi.runtime.getConfig`). */
export function stackSettingsFrom(get: (key: string) => string | undefined): StackSettings {
  const settings: StackSettings = {};
  const baseUrl = get(CONFIG_KEYS.baseUrl);
  const apiToken = get(CONFIG_KEYS.apiToken);
  const rpm = get(CONFIG_KEYS.requestsPerMinute);
  if (baseUrl) settings.baseUrl = baseUrl;
  if (apiToken) settings.apiToken = apiToken;
  if (rpm) {
    const parsed = Number(rpm);
    if (!Number.isInteger(parsed) || parsed <= 0) {
      throw new Error(`devicemgmt:requestsPerMinute must be a positive whole number, got "${rpm}".`);
    }
    settings.requestsPerMinute = parsed;
  }
  return settings;
}

const clients = new Map<string, DeviceMgmtClient>();

/** One client per organization and token in a process, so throttling and keep-alive are shared. */
export function clientFor(settings: ConnectionSettings): DeviceMgmtClient {
  const key = `${settings.baseUrl}\u0000${settings.apiToken}\u0000${settings.requestsPerMinute ?? ""}`;
  let client = clients.get(key);
  if (!client) {
    client = new DeviceMgmtClient({
      baseUrl: settings.baseUrl,
      apiToken: settings.apiToken,
      ...(settings.requestsPerMinute ? { requestsPerMinute: settings.requestsPerMinute } : {}),
    });
    clients.set(key, client);
  }
  return client;
}
