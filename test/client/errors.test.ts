import {
  AmbiguousWriteError,
  BadRequestError,
  DeviceMgmtError,
  errorFromResponse,
  ForbiddenError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  ResponseShapeError,
  ServerError,
  UnauthorizedError,
  UnsupportedTokenError,
  ValidationError,
} from "../../provider/client";
import { redact, secretsOf } from "../../provider/client/redact";
import {
  allowV3Token,
  group,
  JSON_HEADERS,
  mockClient,
  networkError,
  tokenInfo,
  uniqueToken,
} from "./fixtures";

describe("errorFromResponse", () => {
  const base = { method: "POST", path: "/api/v3/users", secrets: [] as string[] };

  test.each([
    [400, BadRequestError],
    [401, UnauthorizedError],
    [403, ForbiddenError],
    [404, NotFoundError],
    [422, ValidationError],
    [429, RateLimitedError],
    [500, ServerError],
    [502, ServerError],
    [503, ServerError],
    [504, ServerError],
  ])("status %i becomes %p", (status, errorClass) => {
    const error = errorFromResponse({ ...base, status, body: { message: "Phrase" } });
    expect(error).toBeInstanceOf(errorClass);
    expect(error).toBeInstanceOf(DeviceMgmtError);
    expect(error.status).toBe(status);
    expect(error.name).toBe(errorClass.name);
  });

  test("an unexpected status is still a DeviceMgmtError with the status", () => {
    const error = errorFromResponse({ ...base, status: 409, body: { message: "Conflict" } });
    expect(error.constructor).toBe(DeviceMgmtError);
    expect(error.message).toBe("POST /api/v3/users failed with status 409: Conflict");
  });

  test("the message names method, path, status, server message and field errors", () => {
    const error = errorFromResponse({
      ...base,
      status: 422,
      body: {
        message: "The email has already been taken.",
        errors: {
          email: ["The email has already been taken."],
          defaultRoleId: ["Unknown role.", "Required."],
        },
      },
    });
    expect(error.message).toBe(
      "POST /api/v3/users failed with status 422: The email has already been taken. " +
        "(email: The email has already been taken.; defaultRoleId: Unknown role. Required.)",
    );
    expect(error.fieldErrors).toEqual({
      email: ["The email has already been taken."],
      defaultRoleId: ["Unknown role.", "Required."],
    });
    expect(error.serverMessage).toBe("The email has already been taken.");
  });

  test("a non-JSON body is used as the server message; an empty one is left out", () => {
    expect(errorFromResponse({ ...base, status: 502, body: "Bad gateway from proxy" }).serverMessage).toBe(
      "Bad gateway from proxy",
    );
    expect(errorFromResponse({ ...base, status: 500, body: undefined }).message).toBe(
      "POST /api/v3/users failed with status 500",
    );
  });

  test("401 explains how to get a v3 token", () => {
    const error = errorFromResponse({ ...base, status: 401, body: { message: "Unauthorized" } });
    expect(error.message).toContain("Settings > Access Tokens");
    expect(error.message).toContain("v3");
  });

  test("429 carries Retry-After", () => {
    const error = errorFromResponse({ ...base, status: 429, body: {}, retryAfterMs: 3000 });
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterMs).toBe(3000);
    expect(error.message).toContain("retry after 3 s");
  });

  test("the token is scrubbed from message, path, server message and field errors", () => {
    const token = "7|abcdefghijklmnopqrstuvwxyz0123456789";
    const error = errorFromResponse({
      method: "GET",
      path: `/api/v3/users?debug=${token}`,
      status: 422,
      secrets: [token, "abcdefghijklmnopqrstuvwxyz0123456789"],
      body: {
        message: `token ${token} is odd; secret abcdefghijklmnopqrstuvwxyz0123456789; Bearer someOtherCredential`,
        errors: { [token]: [`bad ${token}`] },
      },
    });
    const everything = JSON.stringify({ ...error, message: error.message });
    expect(everything).not.toContain("abcdefghijklmnopqrstuvwxyz0123456789");
    expect(everything).not.toContain("someOtherCredential");
    expect(error.message).toContain("[REDACTED]");
  });
});

describe("errors surfaced by the client (MockAgent)", () => {
  test.each([
    [400, BadRequestError],
    [401, UnauthorizedError],
    [403, ForbiddenError],
    [404, NotFoundError],
    [422, ValidationError],
  ])("GET answered %i rejects with %p after a single attempt", async (status, errorClass) => {
    const { client, pool } = mockClient();
    const id = "8f14e45f-ceea-467f-a8f5-1e2b3c4d5e6f";
    pool
      .intercept({ path: `/api/v3/groups/${id}` })
      .reply(status, { message: "Server says no" }, { headers: JSON_HEADERS });
    if (status === 401) allowV3Token(pool); // a 401 consults token-info to tell a v2 token apart
    const error = await client.groups.get(id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(errorClass);
    expect((error as DeviceMgmtError).message).toContain(
      `GET /api/v3/groups/${id} failed with status ${status}`,
    );
    expect((error as DeviceMgmtError).message).toContain("Server says no");
    expect(client.stats()).toMatchObject({ requests: status === 401 ? 2 : 1, retries: 0 });
  });

  test("a GET that keeps failing with 500 ends in ServerError after maxAttempts", async () => {
    const { client, pool, sleeps } = mockClient({ retry: { maxAttempts: 3 } });
    pool
      .intercept({ path: "/api/v3/current-organization" })
      .reply(500, { message: "Internal Server Error" })
      .times(3);
    const error = await client.currentOrganization().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).attempts).toBe(3);
    expect((error as ServerError).message).toContain("[after 3 attempts]");
    expect(sleeps).toHaveLength(2);
    expect(client.stats()).toMatchObject({ requests: 3, retries: 2 });
  });

  test("a GET that keeps getting 429 ends in RateLimitedError once the deadline leaves no room", async () => {
    const { client, pool } = mockClient({ deadlineMs: 500 });
    pool
      .intercept({ path: "/api/v3/current-organization" })
      .reply(429, { message: "Too Many Attempts." }, { headers: { "retry-after": "5" } });
    const error = await client.currentOrganization().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterMs).toBe(5000);
    expect(client.stats()).toMatchObject({ requests: 1, rateLimited: 1 });
  });

  test("a connection that is refused every time ends in NetworkError marked as never sent", async () => {
    const { client, pool } = mockClient({ retry: { maxAttempts: 2 } });
    pool.intercept({ path: "/api/v3/current-user" }).replyWithError(networkError("ECONNREFUSED")).times(2);
    const error = await client.currentUser().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).not.toBeInstanceOf(AmbiguousWriteError);
    expect((error as NetworkError).requestSent).toBe(false);
    expect((error as NetworkError).message).toContain("ECONNREFUSED");
  });

  test("a response that does not match the schema is a ResponseShapeError naming the field", async () => {
    const { client, pool } = mockClient();
    const broken = { ...group(), isConfigured: "yes" };
    pool.intercept({ path: `/api/v3/groups/${broken.id}` }).reply(200, broken, { headers: JSON_HEADERS });
    const error = await client.groups.get(broken.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseShapeError);
    expect((error as ResponseShapeError).issues.join()).toContain("isConfigured");
  });

  test("a v2 token is refused before any write, with a message that says where to create a v3 token", async () => {
    const { client, pool } = mockClient();
    pool.intercept({ path: "/api/token-info" }).reply(200, tokenInfo("v2"), { headers: JSON_HEADERS });
    // No interceptor for POST /groups: MockAgent would fail the test with a different error if it were sent.
    const error = await client.groups.create({ name: "A", parentId: null }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedTokenError);
    expect((error as Error).message).toContain("v2 tokens are not accepted by the v3 API");
    expect((error as Error).message).toContain("Settings > Access Tokens");
    // The refusal is remembered: a second write asks token-info no more and still sends nothing.
    await expect(client.groups.delete("8f14e45f-ceea-467f-a8f5-1e2b3c4d5e6f")).rejects.toBeInstanceOf(
      UnsupportedTokenError,
    );
    expect(client.stats().requests).toBe(1);
  });

  test("a 401 on a read with a v2 token is explained as a v2 refusal", async () => {
    const { client, pool } = mockClient();
    pool.intercept({ path: "/api/v3/current-user" }).reply(401, { message: "Unauthorized" });
    pool.intercept({ path: "/api/token-info" }).reply(200, tokenInfo("v2"), { headers: JSON_HEADERS });
    await expect(client.currentUser()).rejects.toBeInstanceOf(UnsupportedTokenError);
  });

  test("assertV3Token asks token-info once per token, shared by concurrent callers and by new clients", async () => {
    const token = uniqueToken();
    const { client, pool } = mockClient({ apiToken: token });
    pool.intercept({ path: "/api/token-info" }).reply(200, tokenInfo("v3"), { headers: JSON_HEADERS });
    const [a, b] = await Promise.all([client.assertV3Token(), client.assertV3Token()]);
    expect(a.api_version).toBe("v3");
    expect(b).toBe(a);
    const second = mockClient({ apiToken: token });
    await expect(second.client.assertV3Token()).resolves.toBe(a);
    expect(client.stats().requests + second.client.stats().requests).toBe(1);
  });

  test("a transient token-info failure is not remembered", async () => {
    const { client, pool } = mockClient({ retry: { maxAttempts: 1 } });
    pool.intercept({ path: "/api/token-info" }).reply(503, { message: "Service Unavailable" });
    await expect(client.assertV3Token()).rejects.toBeInstanceOf(ServerError);
    pool.intercept({ path: "/api/token-info" }).reply(200, tokenInfo("v3"), { headers: JSON_HEADERS });
    await expect(client.assertV3Token()).resolves.toMatchObject({ api_version: "v3" });
  });
});

describe("secretsOf / redact", () => {
  test("a Sanctum token is scrubbed whole, by its secret part, and URL-encoded", () => {
    const token = "12|AbCdEfGhIjKlMnOp";
    const secrets = secretsOf(token);
    const text = redact(`a ${token} b AbCdEfGhIjKlMnOp c 12%7CAbCdEfGhIjKlMnOp d`, secrets);
    expect(text).toBe("a [REDACTED] b [REDACTED] c [REDACTED] d");
  });

  test("any bearer credential is scrubbed, even an unknown one", () => {
    expect(redact('header "Authorization: Bearer xyz.123-abc" sent', [])).toBe(
      'header "Authorization: Bearer [REDACTED]" sent',
    );
  });
});
