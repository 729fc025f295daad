// How bench:growth puts runs of different sizes, and several runs of one size, together (./growthRecords.ts).
import { mergeBySize, runSize, seriesAndPhases, type BenchRecord } from "./growthRecords";

const phase = (name: string, resources: number, cpu: number) => ({
  phase: name,
  resources,
  usage: { operation: { cpu } },
});
const record = (date: string, over: Partial<BenchRecord>): BenchRecord => ({
  command: "npm run bench",
  date,
  machine: { loadAverage1m: { start: 1, end: 1 } },
  phases: [],
  ...over,
});

// A full run of 3300 stopped before its destroy, and a later `--phases destroy` run of the same size.
const stopped = record("2026-12-07T00:04:00Z", {
  complete: false,
  phases: [phase("create", 3300, 883.7), phase("update", 3300, 143.5)],
  checkpointVariants: [{ name: "skip-checkpoints", phases: [phase("create", 3300, 8)] }],
  noopPhases: [phase("create", 3300, 618.17)],
});
const destroyOnly = record("2026-12-07T02:00:00Z", {
  resources: 3300,
  phases: [phase("destroy", 3300, 500)],
  checkpointVariants: [{ name: "skip-checkpoints", phases: [phase("destroy", 3300, 3)] }],
  noopPhases: [phase("destroy", 3300, 450)],
});
const small = record("2026-12-06T23:05:00Z", {
  phases: [phase("destroy", 260, 5.34), phase("create", 260, 6.46)],
});

describe("runSize", () => {
  it("is the record's resources, or its create's in a record that does not give them", () => {
    expect(runSize(destroyOnly)).toBe(3300);
    expect(runSize(small)).toBe(260);
    expect(runSize(record("2026-12-07T00:00:00Z", { phases: [phase("destroy", 9, 1)] }))).toBeNaN();
  });
});

describe("mergeBySize", () => {
  it("puts the runs of one size together, smallest size first, each phase from the run that measured it", () => {
    const sizes = mergeBySize([destroyOnly, stopped, small]);
    expect(sizes.map((s) => s.n)).toEqual([260, 3300]);
    const large = sizes[1].series;
    expect(large["real, default checkpoints"].create).toEqual({ phase: stopped.phases[0], run: 1 });
    expect(large["real, default checkpoints"].destroy).toEqual({ phase: destroyOnly.phases[0], run: 0 });
    expect(large["real, skip-checkpoints"].destroy.phase.usage.operation.cpu).toBe(3);
    expect(large["noop, default checkpoints"].create.phase.usage.operation.cpu).toBe(618.17);
    expect(large["noop, default checkpoints"].destroy.phase.usage.operation.cpu).toBe(450);
  });

  it("takes a phase measured by two runs of one size from the later one, whatever order they are given in", () => {
    const again = record("2026-12-07T03:00:00Z", { resources: 3300, phases: [phase("destroy", 3300, 480)] });
    for (const order of [
      [again, destroyOnly],
      [destroyOnly, again],
    ]) {
      const [large] = mergeBySize(order);
      expect(large.series["real, default checkpoints"].destroy.phase.usage.operation.cpu).toBe(480);
    }
  });
});

describe("seriesAndPhases", () => {
  it("lists every series and the phases any size has, in the bench's order", () => {
    expect(seriesAndPhases(mergeBySize([small, destroyOnly, stopped]))).toEqual([
      { series: "real, default checkpoints", phases: ["create", "update", "destroy"] },
      { series: "real, skip-checkpoints", phases: ["create", "destroy"] },
      { series: "noop, default checkpoints", phases: ["create", "destroy"] },
    ]);
  });
});
