/**
 * Transport failures as undici really reports them (MockAgent cannot time out or reset a socket): a small
 * HTTP server on 127.0.0.1 that stalls, resets or is not there at all.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { AmbiguousWriteError, closeDispatchers, DeviceMgmtClient, NetworkError } from "../../provider/client";
import { group, tokenInfo, uniqueToken } from "./fixtures";

type Handler = (req: IncomingMessage, res: ServerResponse, seen: number) => void;

const STAMP = "2024-05-01T10:00:00.000Z";
const organization = {
  id: "c4ca4238-a0b9-4382-8dcc-509a6f75849b",
  name: "Org",
  slug: "org",
  createdAt: STAMP,
  updatedAt: STAMP,
};

let server: Server;
let baseUrl: string;
const handlers = new Map<string, Handler>();
const seen = new Map<string, number>();

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const key = `${req.method} ${req.url}`;
    const count = (seen.get(key) ?? 0) + 1;
    seen.set(key, count);
    if (req.url === "/api/token-info") return json(res, 200, tokenInfo("v3"));
    const handler = handlers.get(key);
    if (!handler) return json(res, 404, { message: "Not Found" });
    handler(req, res, count);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v3/`;
});

afterAll(async () => {
  await closeDispatchers();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  handlers.clear();
  seen.clear();
});

function client(options: { timeoutMs?: number } = {}) {
  return new DeviceMgmtClient({
    baseUrl,
    apiToken: uniqueToken(),
    // Known up front, so reads send no token-info look-up and the counts below are of the calls under test.
    organizationId: organization.id,
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
    ...options,
  });
}

test("a GET whose answer does not come within the timeout is retried", async () => {
  handlers.set("GET /api/v3/current-organization", (_req, res, count) => {
    // The first answer never comes (afterAll closes the connection), so the timeout decides however slow the
    // machine is; a late answer could beat a timer that a loaded machine fired late.
    if (count !== 1) json(res, 200, organization);
  });
  const c = client({ timeoutMs: 150 });
  await expect(c.currentOrganization()).resolves.toMatchObject({ slug: "org" });
  expect(c.stats()).toMatchObject({ requests: 2, retries: 1 });
});

test("a POST whose answer does not come within the timeout is an AmbiguousWriteError, sent once", async () => {
  handlers.set("POST /api/v3/groups", () => {
    // Never answered (afterAll closes the connection): the timeout decides however slow the machine is.
  });
  const c = client({ timeoutMs: 150 });
  const error = await c.groups.create({ name: "Lab", parentId: null }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(AmbiguousWriteError);
  expect((error as Error).message).toContain("No response within 150 ms");
  expect(seen.get("POST /api/v3/groups")).toBe(1);
});

test("a POST whose connection is reset after sending is an AmbiguousWriteError, sent once", async () => {
  handlers.set("POST /api/v3/groups", (req) => {
    req.socket.destroy();
  });
  const c = client();
  const error = await c.groups.create({ name: "Lab", parentId: null }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(AmbiguousWriteError);
  expect((error as AmbiguousWriteError).requestSent).toBe(true);
  expect(seen.get("POST /api/v3/groups")).toBe(1);
});

test("a PUT whose connection is reset is retried", async () => {
  const id = "c81e728d-9d4c-4f63-af06-7f89cc14862c";
  handlers.set(`PUT /api/v3/groups/${id}`, (req, res, count) => {
    if (count === 1) req.socket.destroy();
    else json(res, 200, group({ id, name: "Renamed" }));
  });
  const c = client();
  await expect(c.groups.update(id, { name: "Renamed", parentId: null })).resolves.toMatchObject({
    name: "Renamed",
  });
  expect(seen.get(`PUT /api/v3/groups/${id}`)).toBe(2);
});

test("a refused connection is reported as never sent, so even a POST was safe to retry", async () => {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  const c = new DeviceMgmtClient({
    baseUrl: `http://127.0.0.1:${port}/api/v3`,
    apiToken: uniqueToken(),
    retry: { baseDelayMs: 1, maxDelayMs: 2, maxAttempts: 3 },
  });
  const error = await c.tokenInfo().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(NetworkError);
  expect(error).not.toBeInstanceOf(AmbiguousWriteError);
  expect((error as NetworkError).requestSent).toBe(false);
  expect(c.stats()).toMatchObject({ requests: 3, retries: 2 });
});
