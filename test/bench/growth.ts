/**
 * `npm run bench:growth [-- results/bench-a.json results/bench-b.json …]`: how the `pulumi` process's CPU grows
 * with the stack's size, from bench runs of different sizes (by default the three presets' runs with
 * `--variants skip-checkpoints`: small, default and large, 260, 1300 and 3300 resources). For every phase and
 * every series — the real provider with the CLI's default checkpoints, with PULUMI_SKIP_CHECKPOINTS=true, and the
 * do-nothing provider (default checkpoints) — it prints the measured CPU seconds at each size and two
 * least-squares fits (./growthFit.ts): the exponent k of c·n^k, and a·n + b·n², with the share of the largest
 * size's CPU that the n² term accounts for. Measured numbers only; it reads the runs' JSON, it runs nothing.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { fitLinearQuadratic, fitPowerLaw, type Point } from "./growthFit";
import { findRepoRoot } from "./repoRoot";

interface PhaseRecord {
  phase: string;
  resources: number;
  wallMs: number;
  usage: { operation: { cpu: number } };
}

interface BenchRecord {
  command: string;
  date: string;
  /** False in a run stopped before its last phase (bench.ts writes the JSON after every phase). */
  complete?: boolean;
  machine: { loadAverage1m: { start: number; end: number } };
  phases: PhaseRecord[];
  noopPhases: PhaseRecord[];
  checkpointVariants: Array<{ name: string; phases: PhaseRecord[] }>;
}

const DEFAULT_RUNS = ["small", "default", "large"].map(
  (preset) => `bench-${preset}-vs-skip-checkpoints.json`,
);

/** The series of one run: its phases by name, per provider and checkpoint setting. */
function seriesOf(record: BenchRecord): Record<string, PhaseRecord[]> {
  const series: Record<string, PhaseRecord[]> = { "real, default checkpoints": record.phases };
  for (const variant of record.checkpointVariants ?? []) series[`real, ${variant.name}`] = variant.phases;
  if (record.noopPhases?.length) series["noop, default checkpoints"] = record.noopPhases;
  return series;
}

function main(): void {
  const root = findRepoRoot(__dirname);
  const args = process.argv.slice(2);
  const files = args.length ? args : DEFAULT_RUNS.map((f) => path.join(root, "results", f));
  const records = files.map((f) => JSON.parse(fs.readFileSync(f, "utf8")) as BenchRecord);
  for (const [i, r] of records.entries()) {
    const load = r.machine.loadAverage1m;
    console.log(
      `${path.basename(files[i])}: ${r.date}, \`${r.command}\`, load average ${load.start.toFixed(1)} → ` +
        `${load.end.toFixed(1)}${r.complete === false ? `; stopped after ${r.phases.length} phases` : ""}`,
    );
  }
  // The size of a run is its create's resources (the program's custom resources).
  const sizes = records.map((r) => r.phases.find((p) => p.phase === "create")?.resources ?? Number.NaN);
  const header = [
    "series",
    "phase",
    ...sizes.map((n) => `CPU s n=${n}`),
    "k (c·n^k)",
    "a ms/resource",
    "b µs/resource²",
    "n² share at largest n",
  ];
  const rows: string[][] = [];
  const perRun = records.map(seriesOf);
  for (const series of Object.keys(perRun[0])) {
    for (const phase of perRun[0][series].map((p) => p.phase)) {
      const points: Point[] = perRun.map((run, i) => ({
        n: sizes[i],
        y: run[series]?.find((p) => p.phase === phase)?.usage.operation.cpu ?? Number.NaN,
      }));
      const measured = points.filter((p) => Number.isFinite(p.y));
      const { k } = fitPowerLaw(measured);
      const { a, b } = fitLinearQuadratic(measured);
      const largest = Math.max(...measured.map((p) => p.n));
      const quadratic = b * largest ** 2;
      // Fewer than two sizes measured: no fit ("-").
      const shown = (x: number, digits: number) => (Number.isFinite(x) ? x.toFixed(digits) : "-");
      rows.push([
        series,
        phase,
        ...points.map((p) => shown(p.y, 2)),
        shown(k, 2),
        shown(a * 1000, 2),
        shown(b * 1e6, 3),
        `${shown((100 * quadratic) / (a * largest + quadratic), 0)}%`,
      ]);
    }
  }
  console.log(
    `\nthe \`pulumi\` process's CPU seconds per phase against the stack's size n, with least-squares fits ` +
      `c·n^k and a·n + b·n²:\n`,
  );
  console.log(`| ${header.join(" | ")} |`);
  console.log(
    `| --- | --- | ${header
      .slice(2)
      .map(() => "---:")
      .join(" | ")} |`,
  );
  for (const row of rows) console.log(`| ${row.join(" | ")} |`);
}

main();
