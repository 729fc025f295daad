/**
 * `npm run bench:growth [-- results/bench-a.json results/bench-b.json …]`: how the `pulumi` process's CPU grows
 * with the stack's size, from bench runs of different sizes (by default the records kept in test/bench/records/:
 * the three presets' runs with `--variants skip-checkpoints`, small, default and large, 260, 1300 and 3300
 * resources, and the large preset's `--phases destroy` run). Runs of one size are put together, each phase from
 * the latest run that measured it (./growthRecords.ts). For every phase and every series — the real provider with
 * the CLI's default checkpoints, with PULUMI_SKIP_CHECKPOINTS=true, and the do-nothing provider (default
 * checkpoints) — it prints the measured CPU seconds at each size and two least-squares fits (./growthFit.ts): the
 * exponent k of c·n^k, and a·n + b·n², with the share of the largest size's CPU that the n² term accounts for.
 * Measured numbers only; it reads the runs' JSON, it runs nothing.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { fitLinearQuadratic, fitPowerLaw, type Point } from "./growthFit";
import { mergeBySize, seriesAndPhases, type BenchRecord } from "./growthRecords";
import { findRepoRoot } from "./repoRoot";

function main(): void {
  const root = findRepoRoot(__dirname);
  const args = process.argv.slice(2);
  const recordsDir = path.join(root, "test/bench/records");
  const files = args.length
    ? args
    : fs
        .readdirSync(recordsDir)
        .filter((f) => f.endsWith(".json"))
        .sort()
        .map((f) => path.join(recordsDir, f));
  const records = files.map((f) => JSON.parse(fs.readFileSync(f, "utf8")) as BenchRecord);
  for (const [i, r] of records.entries()) {
    const load = r.machine.loadAverage1m;
    console.log(
      `${path.basename(files[i])}: ${r.date}, \`${r.command}\`, load average ${load.start.toFixed(1)} → ` +
        `${load.end.toFixed(1)}${r.complete === false ? `; stopped after ${r.phases.length} phases` : ""}` +
        `${r.transcribed ? " (transcribed from docs/performance.md's tables)" : ""}`,
    );
  }
  const sizes = mergeBySize(records);
  const header = [
    "series",
    "phase",
    ...sizes.map((s) => `CPU s n=${s.n}`),
    "k (c·n^k)",
    "a ms/resource",
    "b µs/resource²",
    "n² share at largest n",
  ];
  const rows: string[][] = [];
  for (const { series, phases } of seriesAndPhases(sizes)) {
    for (const phase of phases) {
      const points: Point[] = sizes.map((size) => ({
        n: size.n,
        y: size.series[series]?.[phase]?.phase.usage.operation.cpu ?? Number.NaN,
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
