/**
 * Long and huge Retry-After values through the whole client (MockAgent): the request that got one fails at
 * once with a RateLimitedError that says when to retry; the organization's other requests keep working; no
 * timer overflows. Nothing here sleeps for real.
 */
import { RateLimitedError, ServerError } from "../../provider/client";
import { JSON_HEADERS, mockClient } from "./fixtures";

const STAMP = "2024-05-01T10:00:00.000Z";
const organization = {
  id: "c4ca4238-a0b9-4382-8dcc-509a6f75849b",
  name: "Org",
  slug: "org",
  createdAt: STAMP,
  updatedAt: STAMP,
};

let warnings: Error[] = [];
const onWarning = (warning: Error) => warnings.push(warning);
beforeEach(() => {
  warnings = [];
  process.on("warning", onWarning);
});
afterEach(() => {
  process.off("warning", onWarning);
});

describe.each([
  ["600", 600_000],
  // 3.17 years: beyond the 2^31-1 ms a timer can hold.
  ["99999999999", 99_999_999_999_000],
])("a 429 with Retry-After: %s", (header, retryAfterMs) => {
  test("fails that request at once, naming the wait and the setting; other requests proceed", async () => {
    const { client, pool, sleeps } = mockClient();
    pool
      .intercept({ path: "/api/v3/current-user" })
      .reply(429, { message: "Too Many Requests" }, { headers: { "retry-after": header } });
    pool
      .intercept({ path: "/api/v3/current-organization" })
      .reply(200, organization, { headers: JSON_HEADERS })
      .times(3);

    const error = await client.currentUser().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    const limited = error as RateLimitedError;
    expect(limited.retryAfterMs).toBe(retryAfterMs);
    expect(limited.attempts).toBe(1);
    expect(limited.message).toContain(`retry after ${retryAfterMs / 1000} s`);
    expect(limited.message).toContain("retry.maxRetryAfterMs");
    if (retryAfterMs < 8.64e15 - Date.now()) {
      expect(limited.retryAt?.getTime()).toBeGreaterThan(Date.now() + retryAfterMs - 60_000);
    }
    expect(sleeps).toEqual([]);

    // The organization is not paused for the server's 600 s: the next requests go out and succeed.
    await expect(
      Promise.all([client.currentOrganization(), client.currentOrganization(), client.currentOrganization()]),
    ).resolves.toHaveLength(3);
    expect(client.stats()).toMatchObject({
      requests: 4,
      retries: 0,
      rateLimited: 1,
      throttledMs: expect.any(Number),
    });
    expect(warnings.filter((w) => w.name === "TimeoutOverflowWarning")).toEqual([]);
  });
});

test("a 503 with Retry-After: 600 on a GET is not retried either, and says why", async () => {
  const { client, pool, sleeps } = mockClient();
  pool
    .intercept({ path: "/api/v3/current-user" })
    .reply(503, { message: "Service Unavailable" }, { headers: { "retry-after": "600" } });
  const error = await client.currentUser().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ServerError);
  expect((error as Error).message).toMatch(/Not retried: .*longest wait this client accepts \(120 s/);
  expect(sleeps).toEqual([]);
});

test("a raised retry.maxRetryAfterMs waits for the same 600 s (the wait is recorded, not slept)", async () => {
  const { client, pool, sleeps } = mockClient({
    retry: { maxRetryAfterMs: 900_000 },
    deadlineMs: 1_000_000,
  });
  pool
    .intercept({ path: "/api/v3/current-user" })
    .reply(503, { message: "Service Unavailable" }, { headers: { "retry-after": "600" } });
  pool.intercept({ path: "/api/v3/current-user" }).reply(
    200,
    {
      id: organization.id,
      firstName: "A",
      lastName: "B",
      email: "a@b.example",
      accessControls: [],
      createdAt: STAMP,
      updatedAt: STAMP,
    },
    { headers: JSON_HEADERS },
  );
  await expect(client.currentUser()).resolves.toMatchObject({ email: "a@b.example" });
  expect(sleeps).toEqual([600_000]);
});
