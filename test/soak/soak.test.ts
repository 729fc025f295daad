// The short fault soak (the long one is `npm run soak`): a few hundred objects applied while the emulator
// answers 10% 5xx, bursts of 429 and drops connections after applying writes. Re-running `up` must converge
// to exactly the declared organization, without duplicates, with nothing left to write, and without the token
// in state or logs. Every `up` is a run of the real Pulumi CLI: the whole scenario takes two to three minutes
// on a loaded 2-core machine (create and one edit round of 239 resources, each followed by a quiet `up`).
import { runSoak, type SoakReport } from "./scenario";

const MAX_UPS = 4;
let report: SoakReport;

beforeAll(async () => {
  report = await runSoak({
    extra: { groups: 30, users: 150, attachments: 30 },
    faults: {
      errorRate: 0.1,
      rateLimitBurst: { every: 150, length: 3 },
      dropAfterWriteRate: 0.1,
      seed: 7,
    },
    rounds: 1,
    destroy: false,
    maxRuns: MAX_UPS,
    log: (line) => process.stdout.write(`${line}\n`),
  });
}, 360_000);

describe("the fault soak", () => {
  it("injected every kind of fault into a few hundred objects", () => {
    expect(report.objects).toBeGreaterThanOrEqual(200);
    const faults = report.emulatorStats.faults;
    expect(faults.errorsInjected).toBeGreaterThan(20);
    expect(faults.rateLimitBursts).toBeGreaterThan(0);
    expect(faults.droppedAfterWrite).toBeGreaterThan(10);
  });

  it("converges within a few ups, to exactly the declared organization, without duplicates", () => {
    expect(report.stages.map((s) => ({ stage: s.stage, converged: s.converged }))).toEqual([
      { stage: "create", converged: true },
      { stage: "edit 1", converged: true },
    ]);
    for (const stage of report.stages) {
      expect(stage.runs).toBeLessThanOrEqual(MAX_UPS);
      expect(stage.differences).toEqual([]);
      expect(stage.duplicates).toEqual([]);
    }
  });

  it("leaves nothing to do: the next up has no step and sends no write", () => {
    for (const stage of report.stages) expect(stage.followUp).toEqual({ steps: 0, writes: 0 });
  });

  it("keeps the token out of the state file, the plugin's debug log and every error", () => {
    expect(report.debugLines).toBeGreaterThan(100);
    expect(report.tokenFound).toEqual([]);
  });
});
