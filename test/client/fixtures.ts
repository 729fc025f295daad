/** Response bodies shaped like the v3 API, and a MockAgent-backed client for exact edge cases. */
import { randomUUID } from "node:crypto";
import { MockAgent, type MockPool } from "undici";
import { DeviceMgmtClient, type DeviceMgmtClientOptions } from "../../provider/client";

export const ORIGIN = "http://api.devicemgmt.test";
export const BASE_URL = `${ORIGIN}/api/v3`;
const STAMP = "2024-05-01T10:00:00.000Z";

let tokenCounter = 0;
/**
 * A Sanctum-style token unique to each test: limiters and token checks are process-wide per base URL and
 * token, so a unique token keeps one test's 429 pause or cached token check out of the next test.
 */
export function uniqueToken(): string {
  tokenCounter += 1;
  return `${tokenCounter}|sEcReT${randomUUID().replace(/-/g, "")}`;
}

export function group(overrides: Record<string, unknown> = {}) {
  return {
    id: randomUUID(),
    name: "Classroom",
    deviceCount: 0,
    isConfigured: false,
    parent: null,
    createdAt: STAMP,
    updatedAt: STAMP,
    ...overrides,
  };
}

export function role(overrides: Record<string, unknown> = {}) {
  return {
    id: randomUUID(),
    name: "Admin",
    type: "organization",
    isOwnedBySystem: true,
    createdAt: STAMP,
    updatedAt: STAMP,
    ...overrides,
  };
}

export function tokenInfo(apiVersion: "v2" | "v3" = "v3") {
  return {
    token_name: "ci",
    display_token: "1|abc…",
    api_version: apiVersion,
    organization_id: randomUUID(),
    base_path: apiVersion === "v3" ? "/api/v3" : "/api/v2",
  };
}

/** A Laravel length-aware page envelope. */
export function page<T>(data: T[], currentPage: number, lastPage: number, perPage: number, total: number) {
  const from = data.length === 0 ? null : (currentPage - 1) * perPage + 1;
  return {
    data,
    links: {
      first: `${BASE_URL}/x?page=1`,
      last: `${BASE_URL}/x?page=${lastPage}`,
      prev: currentPage > 1 ? `${BASE_URL}/x?page=${currentPage - 1}` : null,
      next: currentPage < lastPage ? `${BASE_URL}/x?page=${currentPage + 1}` : null,
    },
    meta: {
      current_page: currentPage,
      from,
      last_page: lastPage,
      links: [],
      path: `${BASE_URL}/x`,
      per_page: perPage,
      to: from === null ? null : from + data.length - 1,
      total,
    },
  };
}

export interface MockSetup {
  client: DeviceMgmtClient;
  pool: MockPool;
  agent: MockAgent;
  token: string;
  sleeps: number[];
}

/** A client whose traffic goes to a MockAgent; retry waits are recorded instead of slept. */
export function mockClient(options: Partial<DeviceMgmtClientOptions> = {}): MockSetup {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const token = options.apiToken ?? uniqueToken();
  const sleeps: number[] = [];
  const client = new DeviceMgmtClient({
    baseUrl: BASE_URL,
    apiToken: token,
    // A known organization (unique per client, like the token) spares reads the token-info look-up that
    // keys the shared throttle, so each test scripts exactly the requests it asserts on.
    organizationId: randomUUID(),
    dispatcher: agent,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...options,
  });
  return { client, pool: agent.get(new URL(options.baseUrl ?? BASE_URL).origin), agent, token, sleeps };
}

export const JSON_HEADERS = { "content-type": "application/json" };

/** Makes the token check that precedes writes pass. */
export function allowV3Token(pool: MockPool): void {
  pool
    .intercept({ path: "/api/token-info", method: "GET" })
    .reply(200, tokenInfo("v3"), { headers: JSON_HEADERS });
}

export function networkError(code: string, message = code): Error {
  return Object.assign(new Error(message), { code });
}
