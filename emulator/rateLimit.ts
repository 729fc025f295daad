/**
 * Fixed-window rate limiting per organization, as Laravel's `throttle` middleware does it: an organization's
 * window opens at its first counted request and lasts `windowMs`; the first `limit` requests in it pass, later
 * ones are refused (and not counted) until the window ends; the next request after that opens a new window.
 */
import type { RateLimitConfig } from "./types";

export const DEFAULT_RATE_LIMIT: RateLimitConfig = { limit: 2000, windowMs: 60_000 };

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets, rounded up (at least 1); absent with strict `noRetryAfter`. */
  retryAfterSeconds?: number;
  /** Epoch seconds at which the window resets; absent with strict `noRetryAfter`. */
  resetAt?: number;
}

export class FixedWindowRateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly config: RateLimitConfig,
    private readonly now: () => number,
    private readonly headers: { retryAfter: boolean } = { retryAfter: true },
  ) {}

  hit(key: string): RateLimitDecision {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || now >= window.start + this.config.windowMs) {
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    const endsAt = window.start + this.config.windowMs;
    const allowed = window.count < this.config.limit;
    if (allowed) window.count++;
    const decision = { allowed, limit: this.config.limit, remaining: this.config.limit - window.count };
    if (!this.headers.retryAfter) return decision;
    return {
      ...decision,
      retryAfterSeconds: Math.max(1, Math.ceil((endsAt - now) / 1000)),
      resetAt: Math.ceil(endsAt / 1000),
    };
  }

  /** The human-readable limit reported by GET / (rateLimiting). */
  describe(): string {
    const { limit, windowMs } = this.config;
    const per = windowMs === 60_000 ? "minute" : `${windowMs / 1000} seconds`;
    return `${limit} requests per ${per} per organization.`;
  }
}
