/**
 * Local pacing for the rate limiter (./throttle.ts): a token bucket of `capacity` tokens refilled at
 * `refillPerMs`, driven by explicit timestamps.
 */
export class TokenBucket {
  private tokens: number;
  private updatedAt: number;

  constructor(
    private capacity: number,
    private refillPerMs: number,
    now: number,
  ) {
    this.tokens = capacity;
    this.updatedAt = now;
  }

  reconfigure(capacity: number, refillPerMs: number, now: number): void {
    this.refill(now);
    this.capacity = capacity;
    this.refillPerMs = refillPerMs;
    this.tokens = Math.min(this.tokens, capacity);
  }

  /** Milliseconds until one token is available (0 when one is available now). */
  msUntilAvailable(now: number): number {
    this.refill(now);
    if (this.tokens >= 1) return 0;
    return Math.ceil((1 - this.tokens) / this.refillPerMs);
  }

  take(now: number): void {
    this.refill(now);
    this.tokens -= 1;
  }

  private refill(now: number): void {
    if (now > this.updatedAt) {
      this.tokens = Math.min(this.capacity, this.tokens + (now - this.updatedAt) * this.refillPerMs);
      this.updatedAt = now;
    }
  }
}
