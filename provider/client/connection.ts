/**
 * Connection basics: base-URL handling, the User-Agent, and one keep-alive undici dispatcher per process and
 * base URL (clients are cheap to create; their sockets are shared).
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import type { Dispatcher } from "undici";
import { ConnectionSettingError } from "../errors";
import { Agent } from "./http";

const PACKAGE_NAME = "pulumi-devicemgmt";

export interface Endpoints {
  /** Normalized v3 base URL without trailing slash, e.g. "http://127.0.0.1:8080/api/v3". */
  baseUrl: string;
  /** The version-less API root that serves token-info, e.g. "http://127.0.0.1:8080/api". */
  apiRoot: string;
}

/** A base URL that reads well in a message. */
export const EXAMPLE_BASE_URL = "https://devices.example.com/api/v3";

/**
 * The one rule for the shape of a base URL: an http(s) URL whose path ends in /api/v3 (a trailing slash is
 * fine). Returns the endpoints, or the sentence saying why not, naming `source` (where the value came from:
 * `connection.baseUrl`, `devicemgmt:baseUrl`, `--base-url`...) and the URL to use instead. Never prints
 * credentials or a query string. Where the token may travel (plain http to another machine) is the provider's
 * rule on top (`baseUrlProblem` in provider/connection.ts).
 */
export function parseBaseUrl(raw: string, source: string): Endpoints | { problem: string } {
  const expected = `${source} must be an http(s) URL ending in /api/v3, such as ${EXAMPLE_BASE_URL}`;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { problem: `${expected}; the value given is not a URL.` };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return { problem: `${expected}; got a "${url.protocol}" URL.` };
  }
  const pathname = url.pathname.replace(/\/+$/, "");
  if (!pathname.endsWith("/api/v3")) {
    const fixed = pathname.endsWith("/api/v2")
      ? `${url.origin}${pathname.slice(0, -"/v2".length)}/v3 (v2 is not supported)`
      : `${url.origin}${pathname.endsWith("/api") ? pathname : `${pathname}/api`}/v3`;
    return { problem: `${expected}; got "${url.origin}${pathname}". Use ${fixed}.` };
  }
  return { baseUrl: url.origin + pathname, apiRoot: url.origin + pathname.slice(0, -"/v3".length) };
}

/** The endpoints of a base URL, or a ConnectionSettingError naming `source` when it breaks {@link parseBaseUrl}. */
export function resolveEndpoints(baseUrl: string, source = "baseUrl"): Endpoints {
  const parsed = parseBaseUrl(baseUrl, source);
  if ("problem" in parsed)
    throw new ConnectionSettingError(parsed.problem, { property: source, fix: parsed.problem });
  return parsed;
}

/** A URL safe to print: no credentials, no query string. */
export function describeUrl(raw: string): string {
  try {
    const url = new URL(raw);
    return url.origin + url.pathname;
  } catch {
    return "<unparseable URL>";
  }
}

let cachedUserAgent: string | undefined;

/** `pulumi-devicemgmt/<version>`, the version read from the package's own package.json at run time. */
export function userAgent(): string {
  if (cachedUserAgent === undefined) cachedUserAgent = `${PACKAGE_NAME}/${findPackageVersion(__dirname)}`;
  return cachedUserAgent;
}

function findPackageVersion(startDir: string): string {
  // Source (provider/client) and build output (dist/provider/client) sit at different depths, so walk up.
  for (let dir = startDir; ; dir = path.dirname(dir)) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as {
        name?: string;
        version?: string;
      };
      if (manifest.name === PACKAGE_NAME && typeof manifest.version === "string") return manifest.version;
    } catch {
      // no package.json at this level: keep walking
    }
    if (path.dirname(dir) === dir) return "unknown";
  }
}

const dispatchers = new Map<string, Agent>();

/** The shared keep-alive dispatcher for a base URL. */
export function dispatcherFor(baseUrl: string): Dispatcher {
  let agent = dispatchers.get(baseUrl);
  if (!agent) {
    agent = new Agent({
      keepAliveTimeout: 4_000,
      keepAliveMaxTimeout: 60_000,
      // Bounded so a burst of thousands of queued calls does not open thousands of sockets.
      connections: 32,
      connect: { timeout: 10_000 },
    });
    dispatchers.set(baseUrl, agent);
  }
  return agent;
}

/** Closes every shared dispatcher (tests and short-lived scripts that want a clean exit). */
export async function closeDispatchers(): Promise<void> {
  const agents = [...dispatchers.values()];
  dispatchers.clear();
  await Promise.all(agents.map((agent) => agent.close()));
}
