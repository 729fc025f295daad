/**
 * The retry policy: one pure function that decides, after a failed attempt, whether to try again and when.
 *
 * | outcome                                        | GET/PUT/PATCH/DELETE      | POST                          |
 * |------------------------------------------------|---------------------------|-------------------------------|
 * | 429                                            | retry (Retry-After)       | retry (Retry-After)           |
 * | 500, 502, 503, 504                             | retry (Retry-After/backoff)| no: AmbiguousWriteError      |
 * | connection failed before sending (refused, DNS, connect timeout) | retry   | retry                         |
 * | failure after sending (reset, response timeout)| retry                     | no: AmbiguousWriteError       |
 * | any other status (400, 401, 403, 404, 422, …)  | no                        | no                            |
 *
 * A 5xx on a POST counts as ambiguous: the v3 API gives no idempotency keys and no promise that a 5xx
 * answer was produced before the write was committed, so only the caller — who can look the object up by
 * its natural key — may decide to create again. PUT/PATCH/DELETE are retried because they converge to the
 * same state, and so is a POST its operation marks `repeatable` (it sets a state: an experience's configure,
 * an unshare); a retried DELETE that answers 404 after an ambiguous first attempt is surfaced as a
 * NotFoundError flagged `afterAmbiguousAttempt`, which resource code treats as "already gone".
 *
 * Delays use exponential backoff with full jitter (delay = rng() × min(max, base × 2^(attempt−1))) unless
 * the server sent Retry-After (seconds or an HTTP date), which is honoured as is — up to `maxRetryAfterMs`.
 * A longer Retry-After (a 600 s abuse pause, or a value beyond what a timer can even hold) is not slept:
 * the call fails at once with reason "retry-after-too-long", so one throttled call cannot freeze a whole
 * `pulumi up`; the error tells the user when to run again. No retry is scheduled whose wait would end after
 * the call's deadline.
 *
 * `withRetry` applies the policy as a wrapper of the request chain (./chain).
 */
import { headerValue, isSuccess, type RequestFn } from "./chain";

export type AttemptOutcome =
  | { kind: "status"; status: number }
  /** `sent: false` means the request certainly never reached the server. */
  | { kind: "network"; sent: boolean };

export interface BackoffSettings {
  baseDelayMs: number;
  maxDelayMs: number;
  maxAttempts: number;
  /** Longest Retry-After that is waited for; a longer one fails the call at once. Default 120 s. */
  maxRetryAfterMs?: number;
}

/** The largest delay a Node timer holds; longer ones fire after 1 ms with a TimeoutOverflowWarning. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Two minutes: twice the documented one-minute rate-limit window, so an ordinary 429 (Retry-After ≤ 60 s)
 * is always waited for, while an unusual pause (an abuse block, a maintenance window) is reported instead.
 */
export const DEFAULT_MAX_RETRY_AFTER_MS = 120_000;

export const DEFAULT_BACKOFF: BackoffSettings = {
  baseDelayMs: 250,
  maxDelayMs: 20_000,
  maxAttempts: 10,
  maxRetryAfterMs: DEFAULT_MAX_RETRY_AFTER_MS,
};

export interface RetryInput {
  method: string;
  /** A write that sets a state whatever its method (a repeatable POST): retried as PUT/PATCH/DELETE are. */
  repeatable?: boolean;
  /** Attempts made so far, including the one that just failed (1 after the first failure). */
  attempt: number;
  outcome: AttemptOutcome;
  retryAfterHeader?: string | null;
  now: number;
  /** Absolute time (same clock as `now`) after which no retry may start. */
  deadline: number;
  /** Uniform random number in [0, 1). */
  rng: () => number;
  backoff?: BackoffSettings;
}

export type RetryDecision =
  | { retry: true; delayMs: number }
  | {
      retry: false;
      /** The failed attempt was a write that may have been applied: raise AmbiguousWriteError. */
      ambiguousWrite: boolean;
      reason: "not-retryable" | "deadline" | "max-attempts" | "retry-after-too-long";
      /** The server's Retry-After in ms, when it sent one (so the error can say when to try again). */
      retryAfterMs?: number;
    };

const RETRYABLE_STATUSES = new Set([429, 500, 502, 503, 504]);
const IDEMPOTENT_METHODS = new Set(["GET", "HEAD", "OPTIONS", "PUT", "PATCH", "DELETE"]);

export function isIdempotent(method: string): boolean {
  return IDEMPOTENT_METHODS.has(method.toUpperCase());
}

export function decideRetry(input: RetryInput): RetryDecision {
  const backoff = input.backoff ?? DEFAULT_BACKOFF;
  const idempotent = input.repeatable === true || isIdempotent(input.method);
  const { outcome } = input;

  let retryable: boolean;
  let ambiguousWrite = false;
  if (outcome.kind === "status") {
    const transient = RETRYABLE_STATUSES.has(outcome.status);
    // A 429 was refused before any handler ran, so even a POST is safe to send again.
    retryable = transient && (idempotent || outcome.status === 429);
    ambiguousWrite = transient && !retryable;
  } else {
    retryable = idempotent || !outcome.sent;
    ambiguousWrite = !retryable;
  }
  if (!retryable) return { retry: false, ambiguousWrite, reason: "not-retryable" };
  if (input.attempt >= backoff.maxAttempts)
    return { retry: false, ambiguousWrite: false, reason: "max-attempts" };

  const retryAfterMs = parseRetryAfter(input.retryAfterHeader, input.now);
  const maxRetryAfterMs = Math.min(backoff.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS, MAX_TIMER_MS);
  if (retryAfterMs !== undefined && retryAfterMs > maxRetryAfterMs)
    return { retry: false, ambiguousWrite: false, reason: "retry-after-too-long", retryAfterMs };
  const delayMs = retryAfterMs ?? jitteredBackoff(input.attempt, backoff, input.rng);
  if (input.now + delayMs > input.deadline)
    return { retry: false, ambiguousWrite: false, reason: "deadline", retryAfterMs };
  return { retry: true, delayMs };
}

/** Full-jitter exponential backoff for the retry after `attempt` failed attempts. */
export function jitteredBackoff(attempt: number, backoff: BackoffSettings, rng: () => number): number {
  const ceiling = Math.min(backoff.maxDelayMs, backoff.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(rng() * ceiling);
}

/** Retry-After as a delay in ms: delta-seconds or an HTTP date; undefined when absent or unparseable. */
export function parseRetryAfter(header: string | null | undefined, now: number): number | undefined {
  if (header === undefined || header === null) return undefined;
  const value = header.trim();
  if (value === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1000);
  // Only accept real HTTP dates (they name a weekday or month); Date.parse is lenient with other text.
  if (!/[a-z]{3}/i.test(value)) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

export interface RetryPolicy {
  backoff: BackoffSettings;
  /** How long after the first send no retry may start. */
  deadlineMs: number;
  sleep: (ms: number) => Promise<void>;
  rng: () => number;
}

/**
 * Sends a call's attempts through `next` until one succeeds or `decideRetry` says stop, and hands back the last
 * attempt with a summary (attempts made, whether one may have been applied, why it stopped) for the error.
 */
export function withRetry(next: RequestFn, policy: RetryPolicy): RequestFn {
  return async (req) => {
    const call = {};
    let deadline: number | undefined;
    let afterAmbiguousAttempt = false;
    for (let attempt = 1; ; attempt++) {
      const response = await next({ ...req, attempt, call });
      // The deadline bounds retrying, so it starts at the first send, not while queued behind the throttle.
      deadline ??= response.sentAt + policy.deadlineMs;
      if (isSuccess(response)) return { ...response, retry: { attempts: attempt, afterAmbiguousAttempt } };
      const decision = decideRetry({
        method: req.method,
        repeatable: req.repeatable,
        attempt,
        outcome:
          response.kind === "answer"
            ? { kind: "status", status: response.status }
            : { kind: "network", sent: response.sent },
        retryAfterHeader:
          response.kind === "answer" ? headerValue(response.headers, "retry-after") : undefined,
        now: Date.now(),
        deadline,
        rng: policy.rng,
        backoff: policy.backoff,
      });
      if (!decision.retry) {
        const stop = { reason: decision.reason, ambiguousWrite: decision.ambiguousWrite };
        return { ...response, retry: { attempts: attempt, afterAmbiguousAttempt, stop } };
      }
      if (response.kind === "network" ? response.sent : response.status >= 500) afterAmbiguousAttempt = true;
      await policy.sleep(decision.delayMs);
    }
  };
}
