/** The bench's printed tables: requests and time per phase, and the plugin's CPU against the do-nothing floor. */
import type { CpuMeasure, PhaseResult } from "./phases";

const fixed = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : String(n));

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  ");
  return [line(header), ...rows.map(line)].join("\n");
}

/**
 * The plugin's CPU per API request above the do-nothing provider's in the same phase (ms): what the provider
 * adds, spread over the requests it sends; NaN for a phase that sends none.
 */
export function perRequestAboveNoopMs(row: PhaseResult, floor: CpuMeasure): number {
  return row.requests > 0 ? ((row.plugin.cpu - floor.plugin.cpu) * 1000) / row.requests : NaN;
}

/** A one-line summary of a phase as it ends. */
export function phaseLine(row: PhaseResult, floor: CpuMeasure): string {
  return (
    `  ${row.phase.padEnd(9)} ${fixed(row.wallMs / 1000)} s (floor ${fixed(row.floorMs / 1000)} s), ` +
    `${row.requests} requests (naive ${row.naive}), ${row.rateLimited} 429s, ${row.retries} retries ` +
    `(${row.lookupRetries} of lookups); CPU s: engine ${fixed(row.cpu.engine, 1)}, plugin ` +
    `${fixed(row.cpu.plugin, 1)} (do-nothing provider ${fixed(floor.plugin.cpu, 1)}, ` +
    `${fixed(perRequestAboveNoopMs(row, floor))} ms per request above it), emulator ${fixed(row.cpu.emulator, 1)}`
  );
}

/** Requests, 429s, retries, wall time against the floor and the bound: the real provider's phases. */
export function requestsTable(phases: PhaseResult[]): string {
  return table(
    [
      "phase",
      "requests",
      "naive",
      "req/naive",
      "429s",
      "retries",
      "wall s",
      "floor s",
      "wall/floor",
      "engine CPU s",
      "wall/bound",
    ],
    phases.map((p) => [
      p.phase,
      String(p.requests),
      String(p.naive),
      fixed(p.requestsOverNaive, 3),
      String(p.rateLimited),
      String(p.retries),
      fixed(p.wallMs / 1000),
      fixed(p.floorMs / 1000),
      fixed(p.wallOverFloor),
      fixed(p.cpu.engine, 1),
      fixed(p.wallOverBound),
    ]),
  );
}

const perResourceMs = (m: CpuMeasure) => (m.plugin.cpu * 1000) / m.resources;

/**
 * The plugin's CPU per resource, real provider against the do-nothing one in the same run, and their ratio;
 * the real plugin's CPU above the do-nothing one per API request; plus the provider calls (the same in both
 * when the floor mirrors the real phase) and the plugin's peak RSS.
 */
export function pluginTable(real: PhaseResult[], floor: CpuMeasure[]): string {
  return table(
    [
      "phase",
      "resources",
      "calls real/noop",
      "plugin CPU s real",
      "noop",
      "ms/resource real",
      "noop",
      "real/noop",
      "requests",
      "ms/request above noop",
      "start CPU s real",
      "noop",
      "peak RSS MiB real",
      "noop",
      "engine CPU s real",
      "noop",
    ],
    real.map((r, i) => {
      const f = floor[i];
      return [
        r.phase,
        f.resources === r.resources ? String(r.resources) : `${r.resources}/${f.resources}`,
        `${r.providerCalls}/${f.providerCalls}`,
        fixed(r.plugin.cpu),
        fixed(f.plugin.cpu),
        fixed(perResourceMs(r)),
        fixed(perResourceMs(f)),
        fixed(perResourceMs(r) / perResourceMs(f)),
        String(r.requests),
        fixed(perRequestAboveNoopMs(r, f)),
        fixed(r.plugin.startCpu),
        fixed(f.plugin.startCpu),
        fixed(r.plugin.peakMiB, 0),
        fixed(f.plugin.peakMiB, 0),
        fixed(r.engineCpu, 1),
        fixed(f.engineCpu, 1),
      ];
    }),
  );
}
