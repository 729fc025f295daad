import { DeviceMgmtClient, organizationKey } from "./client";

/** Where a resource's API calls go. The token is a secret: it lives in stack config, the environment, or a
 * per-resource `connection` input that the resource classes wrap in `pulumi.secret`. */
export interface ConnectionSettings extends ClientTuning {
  baseUrl: string;
  apiToken: string;
}

/** Stack-wide knobs of the client; absent means the client's defaults. */
export interface ClientTuning {
  requestsPerMinute?: number;
  maxRetries?: number;
}

export interface ConnectionInput {
  baseUrl?: string;
  apiToken?: string;
}

export const CONFIG_KEYS = {
  baseUrl: "devicemgmt:baseUrl",
  apiToken: "devicemgmt:apiToken",
  requestsPerMinute: "devicemgmt:requestsPerMinute",
  maxRetries: "devicemgmt:maxRetries",
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

export interface StackSettings extends ClientTuning {
  baseUrl?: string;
  apiToken?: string;
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
  const { baseUrl: _baseUrl, apiToken: _apiToken, ...tuning } = stack;
  return { baseUrl, apiToken, ...tuning };
}

function nonEmpty(value: string | undefined): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** Reads stack settings from a config getter (the plugin's `configure` request, or `pulumi.runtime.getConfig`). */
export function stackSettingsFrom(get: (key: string) => string | undefined): StackSettings {
  const settings: StackSettings = {};
  const baseUrl = get(CONFIG_KEYS.baseUrl);
  const apiToken = get(CONFIG_KEYS.apiToken);
  if (baseUrl) settings.baseUrl = baseUrl;
  if (apiToken) settings.apiToken = apiToken;
  const requestsPerMinute = wholeNumber(get, CONFIG_KEYS.requestsPerMinute, 1);
  const maxRetries = wholeNumber(get, CONFIG_KEYS.maxRetries, 0);
  if (requestsPerMinute !== undefined) settings.requestsPerMinute = requestsPerMinute;
  if (maxRetries !== undefined) settings.maxRetries = maxRetries;
  return settings;
}

function wholeNumber(get: (key: string) => string | undefined, key: string, min: number): number | undefined {
  const raw = get(key);
  if (raw === undefined || raw === "") return undefined;
  const parsed = Number(raw);
  if (!Number.isInteger(parsed) || parsed < min) {
    throw new Error(`${key} must be a whole number of at least ${min}, got "${raw}".`);
  }
  return parsed;
}

const clients = new Map<string, DeviceMgmtClient>();

/** One client per organization and token in a process, so throttling and keep-alive are shared. */
export function clientFor(settings: ConnectionSettings): DeviceMgmtClient {
  const key = JSON.stringify([
    settings.baseUrl,
    organizationKey(settings.baseUrl, settings.apiToken),
    settings.requestsPerMinute,
    settings.maxRetries,
  ]);
  let client = clients.get(key);
  if (!client) {
    client = new DeviceMgmtClient({
      baseUrl: settings.baseUrl,
      apiToken: settings.apiToken,
      ...(settings.requestsPerMinute ? { requestsPerMinute: settings.requestsPerMinute } : {}),
      ...(settings.maxRetries !== undefined ? { retry: { maxAttempts: settings.maxRetries + 1 } } : {}),
    });
    clients.set(key, client);
  }
  return client;
}
