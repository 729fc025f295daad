/** Request counters for tests and benchmarks (GET /_emulator/stats). */
import type { EmulatorStats, FaultStats } from "./types";

export class StatsCollector {
  requests = 0;
  writes = 0;
  rateLimited = 0;
  private byStatus: Record<string, number> = {};
  private byRoute: Record<string, number> = {};

  countRequest(routeKey: string, isWrite: boolean): void {
    this.requests++;
    if (isWrite) this.writes++;
    this.byRoute[routeKey] = (this.byRoute[routeKey] ?? 0) + 1;
  }

  countStatus(status: number): void {
    this.byStatus[status] = (this.byStatus[status] ?? 0) + 1;
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
  }
}
