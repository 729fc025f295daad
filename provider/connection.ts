import { ConnectionSettingError } from "./errors";
import { DeviceMgmtClient, organizationKey, parseBaseUrl } from "./client";

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
  /** Per-request timeout of an upload's part sent to the storage host (client `storageTimeoutMs`). */
  uploadPartTimeoutSeconds?: number;
  /** How long a create waits for uploaded content to be processed (client `processingTimeoutMs`). */
  processingTimeoutSeconds?: number;
}

export interface ConnectionInput {
  baseUrl?: string;
  apiToken?: string;
  /** Lets a plain-http base URL reach a host other than this machine (the token then travels in clear). */
  allowInsecureHttp?: boolean;
}

export const CONFIG_KEYS = {
  baseUrl: "devicemgmt:baseUrl",
  apiToken: "devicemgmt:apiToken",
  requestsPerMinute: "devicemgmt:requestsPerMinute",
  maxRetries: "devicemgmt:maxRetries",
  uploadPartTimeoutSeconds: "devicemgmt:uploadPartTimeoutSeconds",
  processingTimeoutSeconds: "devicemgmt:processingTimeoutSeconds",
  allowInsecureHttp: "devicemgmt:allowInsecureHttp",
} as const;

export const ENV_KEYS = {
  baseUrl: "DEVICEMGMT_BASE_URL",
  apiToken: "DEVICEMGMT_API_TOKEN",
  allowInsecureHttp: "DEVICEMGMT_ALLOW_INSECURE_HTTP",
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
  /** `devicemgmt:allowInsecureHttp`: plain http to another machine for the stack config / environment base URL. */
  allowInsecureHttp?: boolean;
}

function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    host === "::1" ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
  );
}

/** The opt-in that lets a base URL from `source` use plain http to another machine, as the fix to name. */
function insecureOptIn(source: string): string {
  if (source === "connection.baseUrl") return "set `allowInsecureHttp: true` in the resource's connection";
  return (
    `opt in with \`pulumi config set ${CONFIG_KEYS.allowInsecureHttp} true\` or the environment variable ` +
    `${ENV_KEYS.allowInsecureHttp}=true`
  );
}

/**
 * Why a base URL cannot be used, naming where it came from (`connection.baseUrl`, `devicemgmt:baseUrl`,
 * DEVICEMGMT_BASE_URL) and how to fix it; undefined when it is fine. It must be http(s) and end in /api/v3; plain
 * http is only for this machine (loopback: 127.0.0.0/8, ::1, localhost) unless `allowInsecureHttp`, as the token
 * would travel in clear. The same rule holds for every source; the opt-in named in the message is the source's
 * own (the resource's `connection.allowInsecureHttp`, or `devicemgmt:allowInsecureHttp` /
 * DEVICEMGMT_ALLOW_INSECURE_HTTP for stack config and environment). Never prints credentials or a query string.
 */
export function baseUrlProblem(raw: string, source: string, allowInsecureHttp = false): string | undefined {
  const parsed = parseBaseUrl(raw, source);
  if ("problem" in parsed) return parsed.problem;
  const url = new URL(parsed.baseUrl);
  if (url.protocol === "http:" && !allowInsecureHttp && !isLoopback(url.hostname)) {
    return (
      `${source} "${parsed.baseUrl}" uses plain http to another machine, so the API token would travel ` +
      `in clear. Use https://${url.host}${url.pathname}, or, if the network is trusted, ${insecureOptIn(source)}.`
    );
  }
  return undefined;
}

/** Why an explicitly given token cannot be used (empty or only spaces), or undefined. */
export function apiTokenProblem(value: unknown, source: string): string | undefined {
  if (typeof value !== "string") return `${source} must be a string (a v3 access token).`;
  if (value.trim() === "") {
    return (
      `${source} is empty or only spaces. Give the v3 access token, or leave ${source} out to use the ` +
      `stack's devicemgmt:apiToken.`
    );
  }
  return undefined;
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
  // Given explicitly but blank is a mistake, not a request for the stack's value.
  if (perResource?.apiToken !== undefined) {
    const problem = apiTokenProblem(perResource.apiToken, "connection.apiToken");
    if (problem) throw settingError(problem, "connection.apiToken");
  }
  if (perResource?.baseUrl !== undefined && nonEmpty(perResource.baseUrl) === undefined) {
    throw settingError(`connection.baseUrl is empty. ${MISSING_BASE_URL}`, "connection.baseUrl");
  }
  const sources: [string | undefined, string][] = [
    [nonEmpty(perResource?.baseUrl), "connection.baseUrl"],
    [nonEmpty(stack.baseUrl), CONFIG_KEYS.baseUrl],
    [nonEmpty(env[ENV_KEYS.baseUrl]), ENV_KEYS.baseUrl],
  ];
  const [baseUrl, baseUrlSource] = sources.find(([value]) => value !== undefined) ?? [undefined, ""];
  const apiToken =
    nonEmpty(perResource?.apiToken) ?? nonEmpty(stack.apiToken) ?? nonEmpty(env[ENV_KEYS.apiToken]);
  if (!apiToken) throw settingError(MISSING_TOKEN, CONFIG_KEYS.apiToken);
  if (!baseUrl) throw settingError(MISSING_BASE_URL, CONFIG_KEYS.baseUrl);
  // Each source has its own opt-in: a resource's connection its `allowInsecureHttp`, stack config and
  // environment the stack-wide `devicemgmt:allowInsecureHttp` or DEVICEMGMT_ALLOW_INSECURE_HTTP.
  const allowInsecureHttp =
    baseUrlSource === "connection.baseUrl"
      ? perResource?.allowInsecureHttp === true
      : stack.allowInsecureHttp === true || envFlag(env, ENV_KEYS.allowInsecureHttp) === true;
  const problem = baseUrlProblem(baseUrl, baseUrlSource, allowInsecureHttp);
  if (problem) throw settingError(problem, baseUrlSource);
  const { baseUrl: _baseUrl, apiToken: _apiToken, allowInsecureHttp: _allow, ...tuning } = stack;
  return { baseUrl, apiToken, ...tuning };
}

/** The message says what to set and where; the fix is the message itself. */
const settingError = (message: string, property: string) =>
  new ConnectionSettingError(message, { property, fix: message });

/** A true/false switch: undefined when unset or empty, an error naming `name` for anything else. */
function booleanSetting(raw: string | undefined, name: string): boolean | undefined {
  const value = raw?.trim().toLowerCase();
  if (value === undefined || value === "") return undefined;
  if (value === "true") return true;
  if (value === "false") return false;
  throw settingError(`${name} must be true or false, got "${raw}".`, name);
}

export function envFlag(env: NodeJS.ProcessEnv, name: string): boolean | undefined {
  return booleanSetting(env[name], name);
}

function nonEmpty(value: string | undefined): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** Reads stack settings from a config getter (the plugin's `configure` request, or `pulumi.runtime.getConfig`). */
export function stackSettingsFrom(
  get: (key: string) => string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): StackSettings {
  const settings: StackSettings = {};
  const baseUrl = get(CONFIG_KEYS.baseUrl);
  const apiToken = get(CONFIG_KEYS.apiToken);
  const allowInsecureHttp = booleanSetting(get(CONFIG_KEYS.allowInsecureHttp), CONFIG_KEYS.allowInsecureHttp);
  if (allowInsecureHttp !== undefined) settings.allowInsecureHttp = allowInsecureHttp;
  if (baseUrl) {
    // The same rules as at resolution, refused here already so that every resource (and preview) says why.
    const problem = baseUrlProblem(
      baseUrl,
      CONFIG_KEYS.baseUrl,
      allowInsecureHttp === true || envFlag(env, ENV_KEYS.allowInsecureHttp) === true,
    );
    if (problem) throw settingError(problem, CONFIG_KEYS.baseUrl);
    settings.baseUrl = baseUrl;
  }
  if (apiToken) settings.apiToken = apiToken;
  const requestsPerMinute = wholeNumber(get, CONFIG_KEYS.requestsPerMinute, 1);
  const maxRetries = wholeNumber(get, CONFIG_KEYS.maxRetries, 0);
  if (requestsPerMinute !== undefined) settings.requestsPerMinute = requestsPerMinute;
  if (maxRetries !== undefined) settings.maxRetries = maxRetries;
  // Seconds, at least one: a zero would fail every upload at once. No upper bound: a multi-GB part on a slow
  // line, or a large build's processing, may take hours, and the default is what most stacks need.
  const uploadPartTimeoutSeconds = wholeNumber(get, CONFIG_KEYS.uploadPartTimeoutSeconds, 1);
  const processingTimeoutSeconds = wholeNumber(get, CONFIG_KEYS.processingTimeoutSeconds, 1);
  if (uploadPartTimeoutSeconds !== undefined) settings.uploadPartTimeoutSeconds = uploadPartTimeoutSeconds;
  if (processingTimeoutSeconds !== undefined) settings.processingTimeoutSeconds = processingTimeoutSeconds;
  return settings;
}

function wholeNumber(get: (key: string) => string | undefined, key: string, min: number): number | undefined {
  const raw = get(key);
  if (raw === undefined || raw === "") return undefined;
  const parsed = Number(raw);
  if (!Number.isInteger(parsed) || parsed < min) {
    throw settingError(`${key} must be a whole number of at least ${min}, got "${raw}".`, key);
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
    settings.uploadPartTimeoutSeconds,
    settings.processingTimeoutSeconds,
  ]);
  let client = clients.get(key);
  if (!client) {
    client = new DeviceMgmtClient({
      baseUrl: settings.baseUrl,
      apiToken: settings.apiToken,
      ...(settings.requestsPerMinute ? { requestsPerMinute: settings.requestsPerMinute } : {}),
      ...(settings.maxRetries !== undefined ? { retry: { maxAttempts: settings.maxRetries + 1 } } : {}),
      ...(settings.uploadPartTimeoutSeconds !== undefined
        ? { storageTimeoutMs: settings.uploadPartTimeoutSeconds * 1000 }
        : {}),
      ...(settings.processingTimeoutSeconds !== undefined
        ? { processingTimeoutMs: settings.processingTimeoutSeconds * 1000 }
        : {}),
    });
    clients.set(key, client);
  }
  return client;
}
