/** Request counters for tests and benchmarks (GET /_emulator/stats), and the opt-in request log. */
import type { ApiRequestRecord, EmulatorStats, FaultStats } from "./types";

export class StatsCollector {
  /** `recordRequests`: keep every /api request with its body (off by default: a soak run makes millions). */
  constructor(private readonly recording = false) {}

  requests = 0;
  writes = 0;
  rateLimited = 0;
  private byStatus: Record<string, number> = {};
  private byRoute: Record<string, number> = {};
  private log: ApiRequestRecord[] = [];

  countRequest(routeKey: string, isWrite: boolean): void {
    this.requests++;
    if (isWrite) this.writes++;
    this.byRoute[routeKey] = (this.byRoute[routeKey] ?? 0) + 1;
  }

  countStatus(status: number): void {
    this.byStatus[status] = (this.byStatus[status] ?? 0) + 1;
  }

  /** Notes an answered request, when recording. */
  record(request: ApiRequestRecord): void {
    if (this.recording) this.log.push(request);
  }

  recorded(): ApiRequestRecord[] {
    if (!this.recording)
      throw new Error("the emulator records requests only when started with recordRequests: true");
    return [...this.log];
  }

  snapshot(faults: FaultStats): EmulatorStats {
    return {
      requests: this.requests,
      writes: this.writes,
      byStatus: { ...this.byStatus },
      byRoute: { ...this.byRoute },
      rateLimited: this.rateLimited,
      faults: { ...faults },
    };
  }

  reset(): void {
    this.requests = 0;
    this.writes = 0;
    this.rateLimited = 0;
    this.byStatus = {};
    this.byRoute = {};
    this.log = [];
  }
}
