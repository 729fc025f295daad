/**
 * Connection basics: base-URL handling, the User-Agent, and one keep-alive undici dispatcher per process and
 * base URL (clients are cheap to create; their sockets are shared).
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import type { Dispatcher } from "undici";
import { Agent } from "./http";

const PACKAGE_NAME = "pulumi-devicemgmt";

export interface Endpoints {
  /** Normalized v3 base URL without trailing slash, e.g. "http://127.0.0.1:8080/api/v3". */
  baseUrl: string;
  /** The version-less API root that serves token-info, e.g. "http://127.0.0.1:8080/api". */
  apiRoot: string;
}

/** Accepts a base URL ending in /api/v3, with or without a trailing slash. */
export function resolveEndpoints(baseUrl: string): Endpoints {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new Error(
      `Invalid devicemgmt base URL "${describeUrl(baseUrl)}": expected e.g. https://host/api/v3.`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new Error(
      `Invalid devicemgmt base URL "${describeUrl(baseUrl)}": only http and https are supported.`,
    );
  }
  const pathname = url.pathname.replace(/\/+$/, "");
  if (!pathname.endsWith("/api/v3")) {
    const hint = pathname.endsWith("/api/v2") ? " v2 is not supported; use the /api/v3 base URL." : "";
    throw new Error(`Invalid devicemgmt base URL "${describeUrl(baseUrl)}": it must end in /api/v3.${hint}`);
  }
  const origin = url.origin;
  return { baseUrl: origin + pathname, apiRoot: origin + pathname.slice(0, -"/v3".length) };
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
