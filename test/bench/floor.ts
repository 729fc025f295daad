/**
 * The physical floor of a phase: the least wall time in which the emulator's rate limiter and the engine's
 * parallelism let that many requests through at the added latency. See docs/performance.md.
 */

export interface FloorInput {
  /** Requests the phase sent (all counted against the organization). */
  requests: number;
  /** Concurrent steps of the engine (`--parallel`). */
  parallelism: number;
  /** Latency the emulator adds to every request. */
  latencyMs: number;
  /** The server's allowance per window, and the window's length. */
  limit: number;
  windowMs: number;
  /** Budget left in the window that is open when the phase starts (`limit` when none is). */
  remaining: number;
  /** Time until that window ends (`windowMs` when none is open: the phase's first request opens one). */
  untilResetMs: number;
}

/**
 * max( ceil(N / P) × d,  R + (k − 1) × W + ceil(r / P) × d )   when N > S, else ceil(N / P) × d
 *
 * N requests, P parallelism, d latency, B budget left in the current window and R the time until it ends,
 * L the allowance and W the window. Before R at most S = min(B, ceil(R / d) × P) of them can go out (P at a
 * time, one round per d): what is left of B after R is lost with its window. The N − S others need
 * k = ceil((N − S) / L) more windows, the first opening no earlier than R and each next one W later, and the
 * last holds r = (N − S) − (k − 1) × L of them.
 */
export function floorMs(input: FloorInput): number {
  const { requests, parallelism, latencyMs, limit, windowMs, remaining, untilResetMs } = input;
  if (requests <= 0) return 0;
  const rounds = (n: number) => Math.ceil(n / parallelism) * latencyMs;
  const paced = rounds(requests);
  const beforeReset = Math.min(remaining, Math.ceil(untilResetMs / latencyMs) * parallelism);
  if (requests <= beforeReset) return paced;
  const beyond = requests - beforeReset;
  const windows = Math.ceil(beyond / limit);
  const inLast = beyond - (windows - 1) * limit;
  return Math.max(paced, untilResetMs + (windows - 1) * windowMs + rounds(inLast));
}

/**
 * Mirrors the emulator's fixed window (emulator/rateLimit.ts) from the timestamps of its limiter's clock,
 * which the limiter reads once per counted request. Valid while one organization is in use.
 */
export class WindowShadow {
  private start: number | undefined;
  private count = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Records a request at `now` exactly as the emulator counts it; returns `now` for the limiter. */
  hit(now: number): number {
    if (this.start === undefined || now >= this.start + this.windowMs) {
      this.start = now;
      this.count = 0;
    }
    if (this.count < this.limit) this.count++;
    return now;
  }

  /** The budget left at `now`, and the time until the window ends (a full window when none is open). */
  at(now: number): { remaining: number; untilResetMs: number } {
    if (this.start === undefined || now >= this.start + this.windowMs) {
      return { remaining: this.limit, untilResetMs: this.windowMs };
    }
    return { remaining: this.limit - this.count, untilResetMs: this.start + this.windowMs - now };
  }
}
