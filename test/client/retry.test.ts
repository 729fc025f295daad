import {
  type AttemptOutcome,
  DEFAULT_BACKOFF,
  decideRetry,
  jitteredBackoff,
  parseRetryAfter,
  type RetryInput,
} from "../../provider/client";

const NOW = Date.parse("2024-05-01T10:00:00.000Z");

function decide(method: string, outcome: AttemptOutcome, overrides: Partial<RetryInput> = {}) {
  return decideRetry({
    method,
    attempt: 1,
    outcome,
    now: NOW,
    deadline: NOW + 60_000,
    rng: () => 0.5,
    ...overrides,
  });
}

const status = (code: number): AttemptOutcome => ({ kind: "status", status: code });
const sentFailure: AttemptOutcome = { kind: "network", sent: true };
const refused: AttemptOutcome = { kind: "network", sent: false };

describe("decideRetry: which failures are retried", () => {
  const idempotent = ["GET", "PUT", "PATCH", "DELETE"];

  test.each(idempotent.flatMap((m) => [429, 500, 502, 503, 504].map((s) => [m, s] as const)))(
    "%s answered %i is retried",
    (method, code) => {
      expect(decide(method, status(code)).retry).toBe(true);
    },
  );

  test.each(idempotent)("%s after a connection failure (sent or not) is retried", (method) => {
    expect(decide(method, sentFailure).retry).toBe(true);
    expect(decide(method, refused).retry).toBe(true);
  });

  test("POST is retried after a 429 and after a refused connection: it was certainly not applied", () => {
    expect(decide("POST", status(429)).retry).toBe(true);
    expect(decide("POST", refused).retry).toBe(true);
  });

  test.each([500, 502, 503, 504])(
    "POST answered %i is not retried and reported as an ambiguous write",
    (code) => {
      expect(decide("POST", status(code))).toEqual({
        retry: false,
        ambiguousWrite: true,
        reason: "not-retryable",
      });
    },
  );

  test("POST that failed after sending is not retried and reported as an ambiguous write", () => {
    expect(decide("POST", sentFailure)).toEqual({
      retry: false,
      ambiguousWrite: true,
      reason: "not-retryable",
    });
  });

  test.each([400, 401, 403, 404, 409, 422])(
    "status %i is final for every method, never ambiguous",
    (code) => {
      for (const method of ["GET", "POST", "PUT", "DELETE"]) {
        expect(decide(method, status(code))).toEqual({
          retry: false,
          ambiguousWrite: false,
          reason: "not-retryable",
        });
      }
    },
  );
});

describe("decideRetry: timing", () => {
  test("Retry-After in seconds is honoured exactly", () => {
    expect(decide("GET", status(429), { retryAfterHeader: "7" })).toEqual({ retry: true, delayMs: 7000 });
  });

  test("Retry-After as an HTTP date is honoured", () => {
    const header = new Date(NOW + 12_000).toUTCString();
    expect(decide("POST", status(429), { retryAfterHeader: header })).toEqual({
      retry: true,
      delayMs: 12_000,
    });
  });

  test("without Retry-After the delay is full-jitter backoff: rng × min(max, base × 2^(attempt−1))", () => {
    const base = DEFAULT_BACKOFF.baseDelayMs;
    expect(decide("GET", status(503), { attempt: 1, rng: () => 0.5 })).toEqual({
      retry: true,
      delayMs: base / 2,
    });
    expect(decide("GET", status(503), { attempt: 3, rng: () => 0.5 })).toEqual({
      retry: true,
      delayMs: base * 2,
    });
    expect(decide("GET", status(503), { attempt: 3, rng: () => 0 })).toEqual({ retry: true, delayMs: 0 });
  });

  test("backoff stays within [0, ceiling) and the ceiling is capped at maxDelayMs", () => {
    const settings = { baseDelayMs: 100, maxDelayMs: 1500, maxAttempts: 50 };
    for (let attempt = 1; attempt <= 12; attempt++) {
      const ceiling = Math.min(1500, 100 * 2 ** (attempt - 1));
      expect(jitteredBackoff(attempt, settings, () => 0)).toBe(0);
      const highest = jitteredBackoff(attempt, settings, () => 0.999999);
      expect(highest).toBeLessThan(ceiling);
      expect(highest).toBeGreaterThanOrEqual(ceiling - 1);
    }
    expect(jitteredBackoff(30, settings, () => 0.999999)).toBeLessThan(1500);
  });

  test("no retry is scheduled that would start after the deadline", () => {
    expect(decide("GET", status(429), { retryAfterHeader: "30", deadline: NOW + 29_000 })).toEqual({
      retry: false,
      ambiguousWrite: false,
      reason: "deadline",
      retryAfterMs: 30_000,
    });
    expect(decide("GET", status(429), { retryAfterHeader: "30", deadline: NOW + 30_000 }).retry).toBe(true);
  });

  test("a Retry-After longer than maxRetryAfterMs is not waited for, however long the deadline", () => {
    const far = NOW + 365 * 24 * 3_600_000;
    expect(decide("GET", status(429), { retryAfterHeader: "600", deadline: far })).toEqual({
      retry: false,
      ambiguousWrite: false,
      reason: "retry-after-too-long",
      retryAfterMs: 600_000,
    });
    // Beyond what a Node timer can hold (2^31-1 ms): refused rather than turned into a 1 ms busy loop.
    const huge = decide("POST", status(429), { retryAfterHeader: "99999999999", deadline: Infinity });
    expect(huge).toMatchObject({
      retry: false,
      reason: "retry-after-too-long",
      retryAfterMs: 99_999_999_999_000,
    });
    // Exactly the maximum is still waited for; a raised maximum lets a longer pause be waited for.
    expect(decide("GET", status(429), { retryAfterHeader: "120", deadline: far })).toEqual({
      retry: true,
      delayMs: 120_000,
    });
    const patient = { ...DEFAULT_BACKOFF, maxRetryAfterMs: 900_000 };
    expect(decide("GET", status(503), { retryAfterHeader: "600", deadline: far, backoff: patient })).toEqual({
      retry: true,
      delayMs: 600_000,
    });
    // Even a raised maximum never exceeds the timer range.
    const unbounded = { ...DEFAULT_BACKOFF, maxRetryAfterMs: Number.MAX_SAFE_INTEGER };
    expect(
      decide("GET", status(429), { retryAfterHeader: "3000000", deadline: Infinity, backoff: unbounded }),
    ).toMatchObject({ retry: false, reason: "retry-after-too-long" });
  });

  test("attempts are bounded by maxAttempts", () => {
    const backoff = { ...DEFAULT_BACKOFF, maxAttempts: 3 };
    expect(decide("GET", status(503), { attempt: 2, backoff }).retry).toBe(true);
    expect(decide("GET", status(503), { attempt: 3, backoff })).toEqual({
      retry: false,
      ambiguousWrite: false,
      reason: "max-attempts",
    });
  });
});

describe("parseRetryAfter", () => {
  test("delta-seconds, including fractions", () => {
    expect(parseRetryAfter("0", NOW)).toBe(0);
    expect(parseRetryAfter(" 2 ", NOW)).toBe(2000);
    expect(parseRetryAfter("1.5", NOW)).toBe(1500);
  });

  test("HTTP dates, clamped at zero when in the past", () => {
    expect(parseRetryAfter("Wed, 01 May 2024 10:00:05 GMT", NOW)).toBe(5000);
    expect(parseRetryAfter("Wed, 01 May 2024 09:59:00 GMT", NOW)).toBe(0);
  });

  test("absent or malformed values give undefined", () => {
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined();
    expect(parseRetryAfter(null, NOW)).toBeUndefined();
    expect(parseRetryAfter("", NOW)).toBeUndefined();
    expect(parseRetryAfter("-3", NOW)).toBeUndefined();
    expect(parseRetryAfter("soon", NOW)).toBeUndefined();
    expect(parseRetryAfter("12 34", NOW)).toBeUndefined();
  });
});
