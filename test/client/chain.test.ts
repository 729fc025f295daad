/**
 * Each wrapper of the request chain (provider/client/chain.ts) alone, around a fake `next` that plays the
 * answers a test needs; the chain as a whole is exercised by the other client tests.
 */
import { withAttemptLog } from "../../provider/client/attemptLog";
import type { Attempt, ChainRequest, ChainResponse, RequestFn } from "../../provider/client/chain";
import { withErrorMapping } from "../../provider/client/errorMapping";
import {
  AmbiguousWriteError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
} from "../../provider/client/errors";
import { DEFAULT_BACKOFF, withRetry } from "../../provider/client/retry";
import type { RateLimitObservation, SendTicket, Throttle } from "../../provider/client/throttle";
import { withThrottle } from "../../provider/client/throttle";
import { type ClientStats, withBearerToken, withCounters } from "../../provider/client/transport";

function request(overrides: Partial<ChainRequest> = {}): ChainRequest {
  const url = new URL("https://dm.example/api/v3/groups/7");
  return {
    method: "GET",
    url,
    shownPath: "/api/v3/groups/7",
    headers: { accept: "application/json" },
    ...overrides,
  };
}

function answer(status: number, text = "", headers: Record<string, string> = {}): ChainResponse {
  return { kind: "answer", status, headers, text, sentAt: Date.now() };
}

function lost(sent: boolean, code = "ECONNRESET"): ChainResponse {
  return { kind: "network", sent, code, error: Object.assign(new Error(code), { code }), sentAt: Date.now() };
}

/** A fake `next` answering from `script` in order and recording what it was sent. */
function scripted(...script: ChainResponse[]): RequestFn & { seen: ChainRequest[] } {
  const seen: ChainRequest[] = [];
  const next = async (req: ChainRequest) => {
    seen.push(req);
    const response = script.shift();
    if (response === undefined) throw new Error("the fake next was called more often than scripted");
    return response;
  };
  return Object.assign(next, { seen });
}

const policy = (sleeps: number[] = []) => ({
  backoff: { ...DEFAULT_BACKOFF, maxAttempts: 4 },
  deadlineMs: 60_000,
  sleep: async (ms: number) => void sleeps.push(ms),
  rng: () => 0.5,
});

describe("withRetry", () => {
  test("retries a GET after a 503 and hands back the success with the attempts it took", async () => {
    const sleeps: number[] = [];
    const next = scripted(answer(503), answer(200, "{}"));
    const response = await withRetry(next, policy(sleeps))(request());
    expect(response).toMatchObject({ kind: "answer", status: 200 });
    expect(response.retry).toEqual({ attempts: 2, afterAmbiguousAttempt: true });
    expect(next.seen.map((r) => r.attempt)).toEqual([1, 2]);
    expect(next.seen[0].call).toBe(next.seen[1].call); // one call, two attempts
    expect(sleeps).toEqual([125]); // full jitter: 0.5 × 250 ms
  });

  test("does not resend a POST after a 5xx: the attempt comes back marked as an ambiguous write", async () => {
    const next = scripted(answer(502));
    const response = await withRetry(next, policy())(request({ method: "POST" }));
    expect(next.seen).toHaveLength(1);
    expect(response.retry).toEqual({
      attempts: 1,
      afterAmbiguousAttempt: false,
      stop: { reason: "not-retryable", ambiguousWrite: true },
    });
  });

  test("resends a repeatable POST, and a POST that certainly never left", async () => {
    const repeatable = scripted(answer(500), answer(204));
    await withRetry(repeatable, policy())(request({ method: "POST", repeatable: true }));
    expect(repeatable.seen).toHaveLength(2);
    const refused = scripted(lost(false, "ECONNREFUSED"), answer(201, "{}"));
    const response = await withRetry(refused, policy())(request({ method: "POST" }));
    expect(response.retry).toEqual({ attempts: 2, afterAmbiguousAttempt: false });
  });

  test("stops at maxAttempts and says so", async () => {
    const next = scripted(answer(503), answer(503), answer(503), answer(503));
    const response = await withRetry(next, policy())(request());
    expect(next.seen).toHaveLength(4);
    expect(response.retry?.stop).toEqual({ reason: "max-attempts", ambiguousWrite: false });
  });
});

describe("withErrorMapping", () => {
  const settings = { secrets: ["s3cret"], timeoutMs: 1234 };

  test("passes a success on untouched", async () => {
    const ok = answer(200, "{}");
    await expect(withErrorMapping(scripted(ok), settings)(request())).resolves.toBe(ok);
  });

  test("turns a 404 into NotFoundError with the attempts and the ambiguity withRetry reported", async () => {
    const gone = {
      ...answer(404, '{"message":"No such group s3cret"}'),
      retry: { attempts: 2, afterAmbiguousAttempt: true },
    };
    const error = await withErrorMapping(
      scripted(gone),
      settings,
    )(request({ method: "DELETE" })).catch((e) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ method: "DELETE", path: "/api/v3/groups/7", status: 404, attempts: 2 });
    expect(error.afterAmbiguousAttempt).toBe(true);
    expect(error.message).not.toContain("s3cret");
  });

  test("raises AmbiguousWriteError when withRetry stopped on a write that may have been applied", async () => {
    const failed = {
      ...answer(500),
      retry: {
        attempts: 1,
        afterAmbiguousAttempt: false,
        stop: { reason: "not-retryable" as const, ambiguousWrite: true },
      },
    };
    const error = await withErrorMapping(
      scripted(failed),
      settings,
    )(request({ method: "POST" })).catch((e) => e);
    expect(error).toBeInstanceOf(AmbiguousWriteError);
    expect(error).toMatchObject({ method: "POST", status: 500, attempts: 1 });
  });

  test("names the timeout of a timed-out attempt, and the setting behind a Retry-After too long to wait", async () => {
    const timedOut = await withErrorMapping(
      scripted(lost(true, "UND_ERR_HEADERS_TIMEOUT")),
      settings,
    )(request()).catch((e) => e);
    expect(timedOut).toBeInstanceOf(NetworkError);
    expect(timedOut.message).toContain("No response within 1234 ms (UND_ERR_HEADERS_TIMEOUT)");
    const paused = {
      ...answer(429, "", { "retry-after": "600" }),
      retry: {
        attempts: 1,
        afterAmbiguousAttempt: false,
        stop: { reason: "retry-after-too-long" as const, ambiguousWrite: false },
      },
    };
    const error = await withErrorMapping(scripted(paused), settings)(request()).catch((e) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.message).toContain("retry.maxRetryAfterMs");
  });
});

/** A fake limiter recording what the wrapper told it. */
function fakeThrottle(waitedMs: number) {
  const reports: Array<{ answered: RateLimitObservation } | "unanswered"> = [];
  let acquired = 0;
  const throttle: Throttle = {
    acquire: async () => {
      acquired += 1;
      const ticket: SendTicket = { epoch: 0, sentAt: 0, probe: false, resetProbe: false };
      return { ticket, waitedMs };
    },
    answered: (_ticket, observed) => void reports.push({ answered: observed }),
    unanswered: () => void reports.push("unanswered"),
  };
  return { throttle, reports, acquired: () => acquired };
}

describe("withThrottle", () => {
  test("sends each attempt after a permit, passes the wait on and reports the answer's rate headers", async () => {
    const fake = fakeThrottle(40);
    const next = scripted(answer(200, "{}", { "x-ratelimit-limit": "100", "x-ratelimit-remaining": "7" }));
    await withThrottle(next, () => fake.throttle)(request());
    expect(fake.acquired()).toBe(1);
    expect(next.seen[0].throttledMs).toBe(40);
    expect(fake.reports).toEqual([
      { answered: { status: 200, limit: 100, remaining: 7, retryAfterMs: undefined } },
    ]);
  });

  test("reports a 429's Retry-After, and an attempt without answer as unanswered", async () => {
    const fake = fakeThrottle(0);
    const chain = withThrottle(
      scripted(answer(429, "", { "retry-after": "3" }), lost(true)),
      () => fake.throttle,
    );
    await chain(request());
    await chain(request());
    expect(fake.reports).toEqual([
      { answered: { status: 429, limit: undefined, remaining: undefined, retryAfterMs: 3000 } },
      "unanswered",
    ]);
  });

  test("looks the limiter up once per call, however many attempts it takes", async () => {
    const fake = fakeThrottle(0);
    let lookups = 0;
    const next = scripted(answer(503), answer(503), answer(200, "{}"));
    const limiter = async () => {
      lookups += 1;
      return fake.throttle;
    };
    await withRetry(withThrottle(next, limiter), policy())(request());
    expect(fake.acquired()).toBe(3);
    expect(lookups).toBe(1);
  });
});

describe("withAttemptLog", () => {
  const original = process.env.DEVICEMGMT_LOG;
  afterEach(() => {
    if (original === undefined) delete process.env.DEVICEMGMT_LOG;
    else process.env.DEVICEMGMT_LOG = original;
  });

  test("debug: a line per attempt with status, retry and the throttle wait, secrets scrubbed", async () => {
    process.env.DEVICEMGMT_LOG = "debug";
    const lines: string[] = [];
    const chain = withAttemptLog(scripted(answer(200, "{}")), {
      logger: (l) => lines.push(l),
      secrets: ["g7"],
    });
    await chain(request({ shownPath: "/api/v3/groups/g7", attempt: 2, throttledMs: 15 }));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^devicemgmt: GET \/api\/v3\/groups\/\[REDACTED\] 200 \d+ms retry=1 throttled=15ms$/,
    );
  });

  test("retries: a failed first attempt is written only once the call's second attempt starts", async () => {
    process.env.DEVICEMGMT_LOG = "retries";
    const lines: string[] = [];
    const chain = withAttemptLog(scripted(answer(503), answer(200, "{}"), answer(404)), {
      logger: (l) => lines.push(l),
      secrets: [],
    });
    const call = {};
    await chain(request({ attempt: 1, call }));
    expect(lines).toEqual([]);
    await chain(request({ attempt: 2, call }));
    expect(lines.map((l) => l.replace(/ \d+ms/, ""))).toEqual([
      "devicemgmt: GET /api/v3/groups/7 503 retry=0",
      "devicemgmt: GET /api/v3/groups/7 200 retry=1",
    ]);
    await chain(request({ attempt: 1, call: {} })); // failed, never retried: nothing
    expect(lines).toHaveLength(2);
  });
});

describe("withCounters and withBearerToken", () => {
  test("count attempts, retries, 429s and the throttle wait", async () => {
    const stats: ClientStats = { requests: 0, retries: 0, rateLimited: 0, throttledMs: 0 };
    const counters = {
      count: (counter: keyof ClientStats, amount: number) => void (stats[counter] += amount),
    };
    const chain = withCounters(scripted(answer(429), answer(200, "{}")), counters);
    await chain(request({ attempt: 1, throttledMs: 5 }));
    await chain(request({ attempt: 2, throttledMs: 20 }));
    expect(stats).toEqual({ requests: 2, retries: 1, rateLimited: 1, throttledMs: 25 });
  });

  test("add the token to the request's headers, leaving the caller's headers alone", async () => {
    const next = scripted(answer(200, "{}"));
    const original = request();
    await withBearerToken(next, "1|abc")(original);
    expect(next.seen[0].headers).toEqual({ accept: "application/json", authorization: "Bearer 1|abc" });
    expect(original.headers).toEqual({ accept: "application/json" });
  });
});

// Compile-time: a network attempt with headers but a failed body is still an answer for the throttle.
const _bodyFailed: Attempt = {
  kind: "network",
  sent: true,
  error: new Error(),
  answered: { status: 200, headers: {} },
};
void _bodyFailed;
