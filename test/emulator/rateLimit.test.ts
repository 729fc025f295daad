/** The fixed-window rate limit per organization, on a fake clock so every window edge is exact. */
import type { RunningEmulator } from "../../emulator";
import { call, client, start } from "./helpers";

let emulator: RunningEmulator;
let clock = 1_000_000;

beforeAll(async () => {
  emulator = await start({ rateLimit: { limit: 3, windowMs: 10_000 }, now: () => clock });
});
afterAll(() => emulator.close());

const headerNumber = (value: string | string[] | undefined) => Number(value);

describe("rate limit", () => {
  it("counts down X-RateLimit-Remaining, then refuses with 429, Retry-After and the same headers", async () => {
    const admin = client(emulator, emulator.tokens.admin);
    emulator.resetStats();
    const seen: number[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await admin.get("/current-user");
      expect(response.status).toBe(200);
      expect(headerNumber(response.headers["x-ratelimit-limit"])).toBe(3);
      seen.push(headerNumber(response.headers["x-ratelimit-remaining"]));
      clock += 1_000;
    }
    expect(seen).toEqual([2, 1, 0]);

    // 3 s into the 10 s window: 7 s remain.
    const refused = await admin.post("/groups", { name: "Never stored", parentId: null });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ message: "Too Many Requests" });
    expect(refused.headers["retry-after"]).toBe("7");
    expect(headerNumber(refused.headers["x-ratelimit-limit"])).toBe(3);
    expect(headerNumber(refused.headers["x-ratelimit-remaining"])).toBe(0);
    // Refused requests are not executed.
    expect(emulator.snapshot().groups.map((g) => g.name)).not.toContain("Never stored");

    clock += 500; // 6.5 s remain: rounded up.
    expect((await admin.get("/groups")).headers["retry-after"]).toBe("7");
    clock += 6_499; // 1 ms remains: still a whole second.
    expect((await admin.get("/groups")).headers["retry-after"]).toBe("1");
    expect(emulator.stats().rateLimited).toBe(3);
    expect(emulator.stats().byStatus["429"]).toBe(3);
  });

  it("opens a new window at the first request after the old one ends (fixed, not sliding)", async () => {
    const admin = client(emulator, emulator.tokens.admin);
    clock += 1; // exactly the end of the first window
    const first = await admin.get("/current-user");
    expect(first.status).toBe(200);
    expect(headerNumber(first.headers["x-ratelimit-remaining"])).toBe(2);
    clock += 9_999;
    await admin.get("/current-user");
    await admin.get("/current-user");
    expect((await admin.get("/current-user")).status).toBe(429);
    clock += 1;
    expect((await admin.get("/current-user")).status).toBe(200);
  });

  it("keeps one window per organization, shared by all its tokens", async () => {
    clock += 60_000;
    const admin = client(emulator, emulator.tokens.admin);
    const reader = client(emulator, emulator.tokens.readOnly);
    const staging = client(emulator, emulator.tokens.multiOrgAdminSecondary);
    await admin.get("/groups");
    await reader.get("/groups");
    const third = await admin.get("/groups");
    expect(headerNumber(third.headers["x-ratelimit-remaining"])).toBe(0);
    expect((await reader.get("/groups")).status).toBe(429);
    const other = await staging.get("/groups");
    expect(other.status).toBe(200);
    expect(headerNumber(other.headers["x-ratelimit-remaining"])).toBe(2);
  });

  it("puts the headers on error answers and token-info, not on unauthenticated ones", async () => {
    clock += 60_000;
    const admin = client(emulator, emulator.tokens.admin);
    const notFound = await admin.get("/groups/00000000-0000-4000-8000-000000000000");
    expect(notFound.status).toBe(404);
    expect(notFound.headers["x-ratelimit-remaining"]).toBe("2");
    const info = await call("GET", `${emulator.url}/api/token-info`, { token: emulator.tokens.admin });
    expect(info.headers["x-ratelimit-remaining"]).toBe("1");
    const anonymous = await call("GET", `${emulator.baseUrl}/groups`, { token: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers["x-ratelimit-limit"]).toBeUndefined();
    const apiInfo = await call("GET", `${emulator.baseUrl}/`, { token: null });
    expect(apiInfo.body.rateLimiting).toBe("3 requests per 10 seconds per organization.");
  });
});

describe("default limit", () => {
  it("is 2000 per minute, as API info states", async () => {
    const fresh = await start();
    try {
      const response = await client(fresh, fresh.tokens.admin).get("/current-user");
      expect(response.headers["x-ratelimit-limit"]).toBe("2000");
      expect(response.headers["x-ratelimit-remaining"]).toBe("1999");
    } finally {
      await fresh.close();
    }
  });
});

describe("strict noRetryAfter (the documents do not show a 429's headers)", () => {
  it("refuses with 429 and the counters, but neither Retry-After nor X-RateLimit-Reset", async () => {
    const strict = await start({ rateLimit: { limit: 1, windowMs: 10_000 }, strict: { noRetryAfter: true } });
    try {
      const admin = client(strict, strict.tokens.admin);
      expect((await admin.get("/current-user")).status).toBe(200);
      const refused = await admin.get("/current-user");
      expect(refused.status).toBe(429);
      expect(refused.headers["x-ratelimit-remaining"]).toBe("0");
      expect(refused.headers["retry-after"]).toBeUndefined();
      expect(refused.headers["x-ratelimit-reset"]).toBeUndefined();
    } finally {
      await strict.close();
    }
  });
});
