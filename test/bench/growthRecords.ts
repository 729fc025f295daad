/**
 * The bench runs ./growth.ts fits, read from their JSON and put together by the stack's size: pure, unit-tested in
 * growthRecords.test.ts. A size may come from several runs (the large preset's create, updates and so on from one,
 * its destroy from a `--phases destroy` run, ./phasePlan.ts): each phase of each series is taken from the latest
 * run that measured it.
 */

export interface PhaseRecord {
  phase: string;
  resources: number;
  wallMs?: number;
  usage: { operation: { cpu: number } };
}

export interface BenchRecord {
  command: string;
  date: string;
  /** False in a run stopped before its last phase (bench.ts writes the JSON after every phase). */
  complete?: boolean;
  /** The program's custom resources; older records give it only as their create's `resources`. */
  resources?: number;
  /** Set in a record rebuilt from a document's tables rather than written by the bench: where it came from. */
  transcribed?: string;
  machine: { loadAverage1m: { start: number; end: number } };
  phases: PhaseRecord[];
  noopPhases?: PhaseRecord[];
  checkpointVariants?: Array<{ name: string; phases: PhaseRecord[] }>;
}

/** The bench's phases in the order it runs them: the order of the fit's rows. */
const PHASE_ORDER = ["create", "up again", "refresh", "update", "destroy"];

/** The stack's size n of a run: the program's custom resources. */
export function runSize(record: BenchRecord): number {
  return record.resources ?? record.phases.find((p) => p.phase === "create")?.resources ?? Number.NaN;
}

/** The series of one run: its phases, per provider and checkpoint setting. */
export function seriesOf(record: BenchRecord): Record<string, PhaseRecord[]> {
  const series: Record<string, PhaseRecord[]> = { "real, default checkpoints": record.phases };
  for (const variant of record.checkpointVariants ?? []) series[`real, ${variant.name}`] = variant.phases;
  if (record.noopPhases?.length) series["noop, default checkpoints"] = record.noopPhases;
  return series;
}

export interface SizeRuns {
  n: number;
  /** Per series, per phase: the measured phase and the run (its index in the records given) it came from. */
  series: Record<string, Record<string, { phase: PhaseRecord; run: number }>>;
}

/**
 * The records put together by size, smallest first; a phase measured by several runs of one size is the latest
 * run's (by `date`).
 */
export function mergeBySize(records: BenchRecord[]): SizeRuns[] {
  const bySize = new Map<number, SizeRuns>();
  const oldestFirst = records
    .map((r, i) => ({ r, i }))
    .sort((x, y) => Date.parse(x.r.date) - Date.parse(y.r.date));
  for (const { r, i } of oldestFirst) {
    const n = runSize(r);
    const size = bySize.get(n) ?? { n, series: {} };
    bySize.set(n, size);
    for (const [name, phases] of Object.entries(seriesOf(r))) {
      const merged = (size.series[name] ??= {});
      for (const phase of phases) merged[phase.phase] = { phase, run: i };
    }
  }
  return [...bySize.values()].sort((a, b) => a.n - b.n);
}

/** The series and phases any size has, in the order of the first series seen and of the bench's phases. */
export function seriesAndPhases(sizes: SizeRuns[]): Array<{ series: string; phases: string[] }> {
  const names = [...new Set(sizes.flatMap((s) => Object.keys(s.series)))];
  const rank = (p: string) => (PHASE_ORDER.includes(p) ? PHASE_ORDER.indexOf(p) : PHASE_ORDER.length);
  return names.map((series) => ({
    series,
    phases: [...new Set(sizes.flatMap((s) => Object.keys(s.series[series] ?? {})))].sort(
      (a, b) => rank(a) - rank(b),
    ),
  }));
}
