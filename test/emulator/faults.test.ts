/** Fault injection (seeded, so deterministic) and the /_emulator control endpoints. */
import type { RunningEmulator } from "../../emulator";
import { call, client, start, type Client } from "./helpers";

let emulator: RunningEmulator;
let admin: Client;

beforeAll(async () => {
  emulator = await start({ adminToken: "control-secret" });
  admin = client(emulator, emulator.tokens.admin);
});
afterAll(() => emulator.close());
afterEach(() =>
  emulator.setFaults({
    latencyMs: 0,
    errorRate: 0,
    rateLimitBurst: null,
    dropBeforeWriteRate: 0,
    dropAfterWriteRate: 0,
  }),
);

/** A request whose connection the emulator destroys rejects with a socket error. */
async function expectDropped(promise: Promise<unknown>): Promise<void> {
  await expect(promise).rejects.toThrow(/other side closed|socket|ECONNRESET/i);
}

describe("injected errors", () => {
  it("answers 500, 502 or 503 with the status phrase and does not execute the request", async () => {
    emulator.setFaults({ errorRate: 1 });
    const statuses = new Set<number>();
    for (let i = 0; i < 30; i++) {
      const response = await admin.post("/groups", { name: `Ghost ${i}`, parentId: null });
      statuses.add(response.status);
      const phrase = { 500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable" }[
        response.status
      ];
      expect(response.body).toEqual({ message: phrase });
    }
    expect([...statuses].sort()).toEqual([500, 502, 503]);
    expect(emulator.snapshot().groups).toEqual([]);
  });

  it("replays exactly the same sequence for the same seed", async () => {
    const run = async () => {
      emulator.setFaults({ errorRate: 0.5, seed: 42 });
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push((await admin.get("/current-user")).status);
      return statuses;
    };
    const first = await run();
    expect(first).toContain(200);
    expect(first.some((s) => s >= 500)).toBe(true);
    expect(await run()).toEqual(first);
    emulator.setFaults({ seed: 7 });
    const other: number[] = [];
    for (let i = 0; i < 20; i++) other.push((await admin.get("/current-user")).status);
    expect(other).not.toEqual(first);
  });
});

describe("latency", () => {
  it("delays each request by at least latencyMs", async () => {
    emulator.setFaults({ latencyMs: 60 });
    const started = performance.now();
    const response = await admin.get("/current-user");
    expect(response.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
  });
});

describe("429 bursts", () => {
  it("answers the last `length` of every `every` requests with 429 and Retry-After", async () => {
    emulator.setFaults({ rateLimitBurst: { every: 5, length: 2 } });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const response = await admin.post("/groups", { name: `Burst ${i}`, parentId: null });
      statuses.push(response.status);
      if (response.status === 429) {
        expect(response.body).toEqual({ message: "Too Many Requests" });
        expect(response.headers["retry-after"]).toBe("1");
        expect(response.headers["x-ratelimit-remaining"]).toBe("0");
      }
    }
    expect(statuses).toEqual([201, 201, 201, 429, 429, 201, 201, 201, 429, 429]);
    const names = emulator.snapshot().groups.map((g) => g.name);
    expect(names).toEqual(expect.arrayContaining(["Burst 0", "Burst 5"]));
    expect(names).not.toContain("Burst 3");
  });
});

describe("dropped connections", () => {
  it("before the write: no answer, nothing stored", async () => {
    emulator.setFaults({ dropBeforeWriteRate: 1 });
    await expectDropped(admin.post("/groups", { name: "Dropped before", parentId: null }));
    emulator.setFaults({ dropBeforeWriteRate: 0 });
    expect(emulator.snapshot().groups.map((g) => g.name)).not.toContain("Dropped before");
  });

  it("after the write: no answer, but the write is stored", async () => {
    emulator.setFaults({ dropAfterWriteRate: 1 });
    await expectDropped(admin.post("/groups", { name: "Dropped after", parentId: null }));
    emulator.setFaults({ dropAfterWriteRate: 0 });
    expect(emulator.snapshot().groups.map((g) => g.name)).toContain("Dropped after");
  });

  it("never drops reads", async () => {
    emulator.setFaults({ dropBeforeWriteRate: 1, dropAfterWriteRate: 1 });
    expect((await admin.get("/groups")).status).toBe(200);
  });

  it("counts drops in stats", async () => {
    emulator.resetStats();
    emulator.setFaults({ dropAfterWriteRate: 1 });
    await expectDropped(admin.post("/groups", { name: "Counted", parentId: null }));
    const stats = emulator.stats();
    expect(stats.faults.droppedAfterWrite).toBe(1);
    expect(stats.requests).toBe(1);
    expect(stats.writes).toBe(1);
  });
});

describe("control endpoint", () => {
  const control = (method: string, path: string, token: string | null = "control-secret", body?: unknown) =>
    call(method, `${emulator.url}/_emulator${path}`, { token, body, accept: null });

  it("needs the admin token", async () => {
    for (const token of [null, "wrong", emulator.tokens.admin]) {
      for (const [method, path] of [
        ["GET", "/faults"],
        ["PUT", "/faults"],
        ["GET", "/stats"],
        ["POST", "/stats/reset"],
        ["GET", "/snapshot"],
      ]) {
        const response = await control(method, path, token, method === "PUT" ? { errorRate: 1 } : undefined);
        expect(response.status).toBe(401);
      }
    }
    expect((await control("GET", "/faults")).body.errorRate).toBe(0);
  });

  it("reads and changes faults at run time, validating the patch", async () => {
    const updated = await control("PUT", "/faults", "control-secret", {
      latencyMs: 5,
      rateLimitBurst: { every: 10, length: 1 },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      latencyMs: 5,
      rateLimitBurst: { every: 10, length: 1 },
      errorRate: 0,
    });
    expect((await control("GET", "/faults")).body).toEqual(updated.body);
    const bad = await control("PUT", "/faults", "control-secret", { errorRate: 2, unknown: true });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe("Unprocessable Entity");
    expect((await control("GET", "/faults")).body).toEqual(updated.body);
    expect(() => emulator.setFaults({ errorRate: -1 })).toThrow();
  });

  it("serves stats, resets them, and serves snapshots by id or slug", async () => {
    await admin.get("/groups");
    const stats = await control("GET", "/stats");
    expect(stats.body.byRoute["GET /groups"]).toBeGreaterThanOrEqual(1);
    expect((await control("POST", "/stats/reset")).status).toBe(204);
    expect((await control("GET", "/stats")).body).toMatchObject({
      requests: 0,
      writes: 0,
      byStatus: {},
      byRoute: {},
    });
    const snapshot = await control("GET", "/snapshot?org=acme-staging");
    expect(snapshot.body.organization).toEqual(emulator.orgs.secondary);
    expect((await control("GET", "/snapshot")).body.organization).toEqual(emulator.orgs.primary);
    expect((await control("GET", "/snapshot?org=nope")).status).toBe(404);
  });
});

describe("faults at start", () => {
  it("are taken from the options", async () => {
    const faulty = await start({ faults: { errorRate: 1, seed: 3 } });
    try {
      const response = await client(faulty, faulty.tokens.admin).get("/current-user");
      expect([500, 502, 503]).toContain(response.status);
    } finally {
      await faulty.close();
    }
  });
});
