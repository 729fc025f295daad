/**
 * Client-side throttling, so that a run never sees a 429 in a window it opened (and one at most in a window an
 * earlier run nearly spent, see below).
 *
 * The server limits each organization with a FIXED window (Laravel throttle): L requests per window W,
 * the window starting at the first request, reporting `X-RateLimit-Limit` / `X-RateLimit-Remaining` on
 * every answer. A token bucket alone at L/W would be slower than the window allows and could still overrun
 * it, so a request goes out only when both agree:
 *
 * - `TokenBucket` — local pacing (capacity = burst, refill = limit per window). Its default burst equals the
 *   limit, so it never holds back a run the server would accept.
 * - `ServerBudget` — tracks the server's window: it may spend the lowest Remaining reported in the window
 *   minus what may not be reflected in it yet (requests in flight, lost answers), so others spending the same
 *   budget are accounted for; when that is spent it waits for the estimated reset. The reset is estimated
 *   never early: the window started no later than the receipt of the first answer seen in it, so
 *   reset = that receipt + W + margin. While the window is unknown (at start, after a reset) one probe
 *   request goes out alone and its answer re-establishes the budget. A Remaining that rises for a request
 *   sent after a lower Remaining was seen means a new window.
 *   A window someone else opened earlier (e.g. a previous process: its first answer reports a tenth of L or more
 *   already spent) may reset at any time before that estimate, up to W earlier. When its budget is spent, one
 *   request goes out to ask: a refusal costs nothing of the window, and its Retry-After says when the window
 *   resets; without one, the estimate stands. So a run that inherits a nearly spent window sees one 429 instead
 *   of waiting up to a whole window longer than needed.
 * - On a 429 anyway, everybody pauses until Retry-After.
 *
 * Both are pure state machines driven by explicit timestamps; `RateLimiter` adds the queue and the timer,
 * with an injectable clock. Limiters are process-wide per organization (base URL + organization id, learnt
 * from token-info); a token whose organization is not known yet uses one keyed by base URL + token hash.
 * `withThrottle` puts a limiter into the request chain (./chain).
 */
import { createHash } from "node:crypto";
import { type ChainResponse, headerValue, type RequestFn, type ResponseHeaders } from "./chain";
import { parseRetryAfter } from "./retry";
import { TokenBucket } from "./tokenBucket";

export interface RateLimitSettings {
  /** Requests per window (the server's allowance). */
  limit: number;
  windowMs: number;
  /** Token-bucket capacity; defaults to `limit`. */
  burst?: number;
  /**
   * Longest 429 Retry-After that pauses the whole organization (default 120 s, the client's
   * retry.maxRetryAfterMs). A longer one pauses nobody: the request that got it fails, and the others go out
   * one at a time (probes) until an answer other than 429 arrives — so a 600 s pause cannot freeze every
   * other request of the run, and an organization that really is blocked costs one refused request each.
   */
  maxPauseMs?: number;
}

export const DEFAULT_RATE_LIMIT: RateLimitSettings = { limit: 2000, windowMs: 60_000 };

const DEFAULT_MAX_PAUSE_MS = 120_000;

/** The largest delay a Node timer holds; a longer one fires after 1 ms (a busy loop) with a warning. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Added to estimated window resets to absorb timer and clock granularity. */
export const RESET_MARGIN_MS = 20;

/** Identifies one sent request to the budget, so its answer is reconciled against the right window. */
export interface SendTicket {
  readonly epoch: number;
  readonly sentAt: number;
  readonly probe: boolean;
  /** Sent when an inherited window's budget was spent, to learn when it resets (see ServerBudget). */
  readonly resetProbe: boolean;
}

export interface RateLimitObservation {
  status: number;
  /** X-RateLimit-Limit, when present. */
  limit?: number;
  /** X-RateLimit-Remaining, when present. */
  remaining?: number;
  /** Retry-After in ms (429 only). */
  retryAfterMs?: number;
}

export type SendDecision =
  | { send: true }
  /** Wait until `until` (absolute ms) before asking again. */
  | { send: false; until: number }
  /** Wait for an outstanding answer (the probe of an unknown window). */
  | { send: false; until: null };

/**
 * The server's window as seen from here. In a known window the budget is
 * `reported − inFlight − unreflected`: `reported` is the lowest Remaining the server sent in this window (it
 * already reflects every request whose answer carried it or a higher value, i.e. everything processed before),
 * `inFlight` are our requests that may still be counted, and `unreflected` are requests that may have been
 * counted without that showing in `reported` (lost answers, answers to requests sent before the window).
 */
export class ServerBudget {
  private limit: number;
  private windowMs: number;
  private maxPauseMs: number;
  private epoch = 0;
  /** "unknown": no answer seen in this window yet, so only a probe may go out. */
  private phase: "unknown" | "known" = "unknown";
  private reported = 0;
  private reportedAt = 0;
  private unreflected = 0;
  private inFlight = 0;
  private resetAt = 0;
  private pausedUntil = 0;
  private probeOutstanding = false;
  /** This window was opened by someone else before our first answer, so it may reset before `resetAt`. */
  private inherited = false;
  /** This window's reset probe has gone out (one per window). */
  private resetProbeSent = false;

  constructor(settings: RateLimitSettings) {
    this.limit = settings.limit;
    this.windowMs = settings.windowMs;
    this.maxPauseMs = settings.maxPauseMs ?? DEFAULT_MAX_PAUSE_MS;
  }

  reconfigure(settings: RateLimitSettings): void {
    this.limit = settings.limit;
    this.windowMs = settings.windowMs;
    this.maxPauseMs = settings.maxPauseMs ?? DEFAULT_MAX_PAUSE_MS;
  }

  decide(now: number): SendDecision {
    if (now < this.pausedUntil) return { send: false, until: this.pausedUntil };
    if (this.phase === "known" && now >= this.resetAt) this.startUnknownWindow();
    if (this.phase === "unknown")
      return this.probeOutstanding ? { send: false, until: null } : { send: true };
    if (this.remaining() > 0) return { send: true };
    // Spent. An inherited window may reset long before the estimate: one request may go out to ask.
    if (this.inherited && !this.resetProbeSent) return { send: true };
    return { send: false, until: this.resetAt };
  }

  /** Records a send; call only right after `decide` answered `send: true`. */
  onSend(now: number): SendTicket {
    const probe = this.phase === "unknown";
    if (probe) this.probeOutstanding = true;
    const resetProbe = !probe && this.remaining() <= 0;
    if (resetProbe) this.resetProbeSent = true;
    this.inFlight += 1;
    return { epoch: this.epoch, sentAt: now, probe, resetProbe };
  }

  onAnswer(ticket: SendTicket, now: number, observed: RateLimitObservation): void {
    this.settle(ticket);
    if (observed.limit !== undefined && observed.limit > 0) this.limit = observed.limit;

    if (observed.status === 429) {
      // Refused requests do not consume the window; everybody waits for the server's word, then probes.
      // A reset probe refused without Retry-After says nothing new: the estimate stands.
      if (ticket.resetProbe && observed.retryAfterMs === undefined) return;
      const waitMs = observed.retryAfterMs ?? Math.min(this.windowMs, 1000);
      if (waitMs > this.maxPauseMs) {
        // Too long to make everybody wait (see maxPauseMs): forget the window and probe one at a time.
        this.startUnknownWindow();
        return;
      }
      this.pausedUntil = Math.max(this.pausedUntil, now + waitMs);
      this.phase = "known";
      this.resetAt = this.pausedUntil;
      this.reported = 0;
      this.reportedAt = now;
      return;
    }
    if (ticket.epoch !== this.epoch) {
      // Sent before this window began: it may have been counted in it, unseen by `reported`.
      this.unreflected += 1;
      return;
    }

    const remaining = observed.remaining;
    if (this.phase === "unknown") {
      if (!ticket.probe) return;
      // The window started no later than this answer's receipt, so a reset estimated from it is never early.
      this.phase = "known";
      this.resetAt = now + this.windowMs + RESET_MARGIN_MS;
      this.reported = remaining ?? this.limit - 1;
      this.reportedAt = now;
      this.openedBy(remaining);
      return;
    }
    if (remaining === undefined) {
      // No headers: count locally against the configured limit.
      this.reported -= 1;
      return;
    }
    if (ticket.sentAt > this.reportedAt && remaining > this.reported) {
      // Sent after a lower Remaining was seen, yet higher: the server has started a new window.
      this.epoch += 1;
      this.unreflected = 0;
      this.resetAt = now + this.windowMs + RESET_MARGIN_MS;
      this.reported = remaining;
      this.reportedAt = now;
      this.openedBy(remaining);
      return;
    }
    if (remaining < this.reported) {
      this.reported = remaining;
      this.reportedAt = now;
    }
  }

  /** An attempt that produced no answer (network failure): it may have been counted, and the probe slot is free. */
  onNoAnswer(ticket: SendTicket): void {
    this.settle(ticket);
    this.unreflected += 1;
  }

  /** Snapshot for tests and diagnostics. */
  state(): {
    phase: "unknown" | "known";
    limit: number;
    remaining: number;
    resetAt: number;
    pausedUntil: number;
    inFlight: number;
    epoch: number;
  } {
    return {
      phase: this.phase,
      limit: this.limit,
      remaining: this.remaining(),
      resetAt: this.resetAt,
      pausedUntil: this.pausedUntil,
      inFlight: this.inFlight,
      epoch: this.epoch,
    };
  }

  private remaining(): number {
    return this.reported - this.inFlight - this.unreflected;
  }

  private settle(ticket: SendTicket): void {
    this.inFlight -= 1;
    if (ticket.probe && ticket.epoch === this.epoch) this.probeOutstanding = false;
  }

  private startUnknownWindow(): void {
    this.epoch += 1;
    this.phase = "unknown";
    this.probeOutstanding = false;
    this.unreflected = 0;
  }

  /**
   * Records who opened the window just seen. What others spent of it before our first answer in it (the limit
   * less what is left, this request and ours still in flight) says it opened earlier than our estimate assumes.
   * A tenth of the limit or more (a previous run's window, say) makes it worth a reset probe when it is spent; a
   * few requests (a program's lookups, another token's first request) do not, as such a window is young.
   */
  private openedBy(remaining: number | undefined): void {
    const spentByOthers = remaining === undefined ? 0 : this.limit - 1 - this.inFlight - remaining;
    this.inherited = spentByOthers >= this.limit / 10;
    this.resetProbeSent = false;
  }
}

export interface Clock {
  now(): number;
  setTimer(callback: () => void, ms: number): { cancel(): void };
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(callback, ms) {
    const handle = setTimeout(callback, ms);
    return { cancel: () => clearTimeout(handle) };
  },
};

export interface Permit {
  ticket: SendTicket;
  /** Time spent waiting for this permit, in ms. */
  waitedMs: number;
}

/** Queues requests (FIFO) and releases each when both the bucket and the server budget allow it. */
export class RateLimiter {
  private readonly bucket: TokenBucket;
  private readonly budget: ServerBudget;
  private readonly waiting: Array<{ enqueuedAt: number; grant: (permit: Permit) => void }> = [];
  private timer: { cancel(): void; at: number } | null = null;

  constructor(
    settings: RateLimitSettings,
    private readonly clock: Clock = systemClock,
  ) {
    const now = clock.now();
    this.bucket = new TokenBucket(settings.burst ?? settings.limit, settings.limit / settings.windowMs, now);
    this.budget = new ServerBudget(settings);
  }

  reconfigure(settings: RateLimitSettings): void {
    this.bucket.reconfigure(
      settings.burst ?? settings.limit,
      settings.limit / settings.windowMs,
      this.clock.now(),
    );
    this.budget.reconfigure(settings);
    this.pump();
  }

  acquire(): Promise<Permit> {
    return new Promise((grant) => {
      const now = this.clock.now();
      this.waiting.push({ enqueuedAt: now, grant });
      this.pump(now);
    });
  }

  answered(ticket: SendTicket, observed: RateLimitObservation): void {
    this.budget.onAnswer(ticket, this.clock.now(), observed);
    this.pump();
  }

  unanswered(ticket: SendTicket): void {
    this.budget.onNoAnswer(ticket);
    this.pump();
  }

  budgetState(): ReturnType<ServerBudget["state"]> {
    return this.budget.state();
  }

  /**
   * Grants what the bucket and the budget allow, at one instant: a permit granted in the call that asked for it
   * has waited 0 ms, even when the wall clock's millisecond turns meanwhile (it showed as `throttled=1ms`).
   */
  private pump(now = this.clock.now()): void {
    while (this.waiting.length > 0) {
      const decision = this.budget.decide(now);
      if (!decision.send) {
        if (decision.until !== null) this.wakeAt(decision.until);
        return;
      }
      const bucketWait = this.bucket.msUntilAvailable(now);
      if (bucketWait > 0) {
        this.wakeAt(now + bucketWait);
        return;
      }
      this.bucket.take(now);
      const ticket = this.budget.onSend(now);
      const next = this.waiting.shift()!;
      next.grant({ ticket, waitedMs: now - next.enqueuedAt });
    }
  }

  private wakeAt(at: number): void {
    if (this.timer !== null && this.timer.at <= at) return;
    this.timer?.cancel();
    const handle = this.clock.setTimer(
      () => {
        this.timer = null;
        this.pump();
      },
      // Clamped: a wake-up before `at` just finds nothing to do and schedules the next one.
      Math.min(MAX_TIMER_MS, Math.max(0, at - this.clock.now())),
    );
    this.timer = { cancel: () => handle.cancel(), at };
  }
}

const limiters = new Map<string, RateLimiter>();

/** The organization key: base URL plus a hash of the token — never the token itself. */
export function organizationKey(baseUrl: string, token: string): string {
  const digest = createHash("sha256").update(token).digest("hex").slice(0, 16);
  return `${baseUrl}#${digest}`;
}

/**
 * The key of an organization's shared limiter once its id is known (from token-info): every token of one
 * organization on one server spends the same budget, as the server counts it.
 */
export function organizationLimiterKey(baseUrl: string, organizationId: string): string {
  return `${baseUrl}#org:${organizationId.toLowerCase()}`;
}

/**
 * The process-wide limiter for an organization key. The settings of the most recent caller apply, so two
 * clients for one organization share one budget instead of each spending it in full.
 */
export function limiterFor(key: string, settings: RateLimitSettings): RateLimiter {
  const existing = limiters.get(key);
  if (existing) {
    existing.reconfigure(settings);
    return existing;
  }
  const limiter = new RateLimiter(settings);
  limiters.set(key, limiter);
  return limiter;
}

/** The part of a RateLimiter the chain uses (tests pass a fake). */
export type Throttle = Pick<RateLimiter, "acquire" | "answered" | "unanswered">;

/**
 * Sends each attempt when the limiter grants it and reports the answer (or its absence) back to it. The limiter
 * is looked up once per call (it may take a token-info request to learn the organization), not per attempt.
 */
export function withThrottle(next: RequestFn, limiter: () => Throttle | Promise<Throttle>): RequestFn {
  const limiterOfCall = new WeakMap<object, Promise<Throttle>>();
  return async (req) => {
    let found = req.call === undefined ? undefined : limiterOfCall.get(req.call);
    if (found === undefined) {
      found = Promise.resolve(limiter());
      if (req.call !== undefined) limiterOfCall.set(req.call, found);
    }
    const throttle = await found;
    const { ticket, waitedMs } = await throttle.acquire();
    let response: ChainResponse;
    try {
      response = await next({ ...req, throttledMs: waitedMs });
    } catch (error) {
      throttle.unanswered(ticket);
      throw error;
    }
    const answer = response.kind === "answer" ? response : response.answered;
    if (answer) throttle.answered(ticket, observe(answer.status, answer.headers));
    else throttle.unanswered(ticket);
    return response;
  };
}

function observe(status: number, headers: ResponseHeaders): RateLimitObservation {
  return {
    status,
    limit: integerHeader(headers, "x-ratelimit-limit"),
    remaining: integerHeader(headers, "x-ratelimit-remaining"),
    retryAfterMs:
      status === 429 ? parseRetryAfter(headerValue(headers, "retry-after"), Date.now()) : undefined,
  };
}

function integerHeader(headers: ResponseHeaders, name: string): number | undefined {
  const value = headerValue(headers, name);
  if (value === undefined || !/^\s*\d+\s*$/.test(value)) return undefined;
  return Number(value);
}
