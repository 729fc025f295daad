/** Retry behaviour end to end through the client, with exact server answers from undici's MockAgent. */
import { AmbiguousWriteError, NetworkError, NotFoundError, ServerError } from "../../provider/client";
import { allowV3Token, group, JSON_HEADERS, mockClient, networkError } from "./fixtures";

const GROUP_ID = "3c59dc04-8e1b-4b1f-9a3e-6f1d2c3b4a59";

describe("idempotent requests are retried", () => {
  test("GET 503 then 200 succeeds, counting one retry", async () => {
    const { client, pool, sleeps } = mockClient();
    const body = group({ id: GROUP_ID });
    pool.intercept({ path: `/api/v3/groups/${GROUP_ID}` }).reply(503, { message: "Service Unavailable" });
    pool.intercept({ path: `/api/v3/groups/${GROUP_ID}` }).reply(200, body, { headers: JSON_HEADERS });
    await expect(client.groups.get(GROUP_ID)).resolves.toMatchObject({ id: GROUP_ID, parent: null });
    expect(client.stats()).toMatchObject({ requests: 2, retries: 1, rateLimited: 0 });
    expect(sleeps).toHaveLength(1);
  });

  test("Retry-After in seconds sets the wait", async () => {
    const { client, pool, sleeps } = mockClient();
    pool
      .intercept({ path: `/api/v3/groups/${GROUP_ID}` })
      .reply(503, { message: "Service Unavailable" }, { headers: { "retry-after": "4" } });
    pool
      .intercept({ path: `/api/v3/groups/${GROUP_ID}` })
      .reply(200, group({ id: GROUP_ID }), { headers: JSON_HEADERS });
    await client.groups.get(GROUP_ID);
    expect(sleeps).toEqual([4000]);
  });

  test("Retry-After as an HTTP date sets the wait", async () => {
    const { client, pool, sleeps } = mockClient();
    const at = new Date(Math.ceil(Date.now() / 1000) * 1000 + 9000).toUTCString();
    pool
      .intercept({ path: `/api/v3/groups/${GROUP_ID}` })
      .reply(502, { message: "Bad Gateway" }, { headers: { "retry-after": at } });
    pool
      .intercept({ path: `/api/v3/groups/${GROUP_ID}` })
      .reply(200, group({ id: GROUP_ID }), { headers: JSON_HEADERS });
    await client.groups.get(GROUP_ID);
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThan(7000);
    expect(sleeps[0]).toBeLessThanOrEqual(10_000);
  });

  test("without Retry-After, waits grow as bounded full-jitter backoff", async () => {
    const { client, pool, sleeps } = mockClient({
      retry: { baseDelayMs: 100, maxDelayMs: 350, maxAttempts: 6 },
    });
    pool.intercept({ path: "/api/v3/current-user" }).reply(504, { message: "Gateway Timeout" }).times(5);
    pool.intercept({ path: "/api/v3/current-user" }).replyWithError(networkError("ECONNRESET")).times(1);
    await expect(client.currentUser()).rejects.toBeInstanceOf(NetworkError);
    expect(sleeps).toHaveLength(5);
    [100, 200, 350, 350, 350].forEach((ceiling, i) => {
      expect(sleeps[i]).toBeGreaterThanOrEqual(0);
      expect(sleeps[i]).toBeLessThan(ceiling);
    });
  });

  test("a retry that would end after the deadline is not made", async () => {
    const { client, pool, sleeps } = mockClient({ deadlineMs: 2000 });
    pool
      .intercept({ path: "/api/v3/current-user" })
      .reply(503, { message: "Service Unavailable" }, { headers: { "retry-after": "3" } });
    const error = await client.currentUser().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(sleeps).toEqual([]);
  });

  test("a DELETE whose first attempt may have been applied and whose retry answers 404 is NotFoundError flagged as such", async () => {
    const { client, pool } = mockClient();
    allowV3Token(pool);
    const path = `/api/v3/groups/${GROUP_ID}`;
    pool.intercept({ path, method: "DELETE" }).replyWithError(networkError("ECONNRESET", "socket hang up"));
    pool.intercept({ path, method: "DELETE" }).reply(404, { message: "Not Found" });
    const error = await client.groups.delete(GROUP_ID).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).afterAmbiguousAttempt).toBe(true);
    expect((error as NotFoundError).attempts).toBe(2);
  });

  test("a plain 404 on DELETE is not flagged", async () => {
    const { client, pool } = mockClient();
    allowV3Token(pool);
    pool
      .intercept({ path: `/api/v3/groups/${GROUP_ID}`, method: "DELETE" })
      .reply(404, { message: "Not Found" });
    const error = await client.groups.delete(GROUP_ID).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).afterAmbiguousAttempt).toBe(false);
  });
});

describe("a POST that sets a state (repeatable) is retried like a PUT", () => {
  const APP = "5d41402a-bc4b-4a76-b971-9d911017c592";
  const CHANNEL = "7e2b4c1d-1111-4a2b-9c3d-4e5f60718293";
  const unsharePath = `/api/v3/apps/${APP}/release-channels/${CHANNEL}/unshare`;
  const configurePath = `/api/v3/groups/${GROUP_ID}/headset-experience/default-home`;

  test.each([500, 503])("an unshare answered %i is sent again and succeeds", async (status) => {
    const { client, pool } = mockClient();
    allowV3Token(pool);
    pool.intercept({ path: unsharePath, method: "POST" }).reply(status, { message: "boom" });
    pool
      .intercept({ path: unsharePath, method: "POST" })
      .reply(200, { message: "Unshared." }, { headers: JSON_HEADERS });
    await expect(client.releases.unshare(APP, CHANNEL, "acme-staging")).resolves.toBeDefined();
    expect(client.stats()).toMatchObject({ retries: 1 });
  });

  test("an experience's configure whose answer was lost (reset after sending) is sent again", async () => {
    const { client, pool } = mockClient();
    allowV3Token(pool);
    pool.intercept({ path: configurePath, method: "POST" }).replyWithError(networkError("ECONNRESET"));
    pool.intercept({ path: configurePath, method: "POST" }).reply(204, "");
    await expect(
      client.headsetExperiences.set({ groupId: GROUP_ID }, "default-home", {}),
    ).resolves.toBeUndefined();
    expect(client.stats()).toMatchObject({ retries: 1 });
  });
});

describe("POST is retried only when it certainly was not applied", () => {
  const create = { name: "Lab", parentId: null };

  test.each([500, 502, 503, 504])(
    "POST answered %i is an AmbiguousWriteError after one attempt",
    async (status) => {
      const { client, pool } = mockClient();
      allowV3Token(pool);
      pool.intercept({ path: "/api/v3/groups", method: "POST" }).reply(status, { message: "boom" });
      const error = await client.groups.create(create).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AmbiguousWriteError);
      expect(error).toBeInstanceOf(NetworkError);
      expect((error as AmbiguousWriteError).status).toBe(status);
      expect((error as AmbiguousWriteError).cause).toBeInstanceOf(ServerError);
      expect((error as Error).message).toContain("POST /api/v3/groups");
      expect((error as Error).message).toContain("Look the object up before creating it again");
      expect(client.stats()).toMatchObject({ requests: 2, retries: 0 }); // token-info + the one POST
    },
  );

  test.each([
    ["ECONNRESET", "read ECONNRESET"],
    ["UND_ERR_SOCKET", "other side closed"],
    ["UND_ERR_HEADERS_TIMEOUT", "Headers Timeout Error"],
    ["EPIPE", "write EPIPE"],
  ])("POST failing after sending (%s) is an AmbiguousWriteError after one attempt", async (code, message) => {
    const { client, pool } = mockClient();
    allowV3Token(pool);
    pool.intercept({ path: "/api/v3/groups", method: "POST" }).replyWithError(networkError(code, message));
    const error = await client.groups.create(create).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AmbiguousWriteError);
    expect((error as AmbiguousWriteError).requestSent).toBe(true);
    expect(client.stats().retries).toBe(0);
  });

  test.each(["ECONNREFUSED", "ENOTFOUND", "UND_ERR_CONNECT_TIMEOUT"])(
    "POST whose connection failed before sending (%s) is retried and succeeds",
    async (code) => {
      const { client, pool } = mockClient();
      allowV3Token(pool);
      const created = group({ name: "Lab" });
      pool.intercept({ path: "/api/v3/groups", method: "POST" }).replyWithError(networkError(code));
      pool
        .intercept({ path: "/api/v3/groups", method: "POST" })
        .reply(201, created, { headers: JSON_HEADERS });
      await expect(client.groups.create(create)).resolves.toMatchObject({ id: created.id });
      expect(client.stats().retries).toBe(1);
    },
  );

  test("POST answered 429 is retried after Retry-After and succeeds", async () => {
    const { client, pool, sleeps } = mockClient();
    allowV3Token(pool);
    const created = group({ name: "Lab" });
    pool
      .intercept({ path: "/api/v3/groups", method: "POST" })
      .reply(429, { message: "Too Many Attempts." }, { headers: { "retry-after": "0" } });
    pool.intercept({ path: "/api/v3/groups", method: "POST" }).reply(201, created, { headers: JSON_HEADERS });
    await expect(client.groups.create(create)).resolves.toMatchObject({ id: created.id });
    expect(sleeps).toEqual([0]);
    expect(client.stats()).toMatchObject({ retries: 1, rateLimited: 1 });
  });

  test("a 429 holds the organization's requests in the throttle until Retry-After", async () => {
    const { client, pool, sleeps } = mockClient();
    const user = {
      id: GROUP_ID,
      firstName: "A",
      lastName: "B",
      email: "a@b.example",
      accessControls: [],
      createdAt: "2024-05-01T10:00:00.000Z",
      updatedAt: "2024-05-01T10:00:00.000Z",
    };
    pool
      .intercept({ path: "/api/v3/current-user" })
      .reply(429, { message: "Too Many Attempts." }, { headers: { "retry-after": "1" } });
    pool.intercept({ path: "/api/v3/current-user" }).reply(200, user, { headers: JSON_HEADERS });
    await expect(client.currentUser()).resolves.toMatchObject({ email: "a@b.example" });
    // The retry's own sleep is mocked away; the wait that remains is the limiter's organization-wide pause.
    expect(sleeps).toEqual([1000]);
    expect(client.stats().throttledMs).toBeGreaterThanOrEqual(900);
    expect(client.stats()).toMatchObject({ requests: 2, retries: 1, rateLimited: 1 });
  });
});
