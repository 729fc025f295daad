/**
 * The bench's printed tables: requests and time per phase, the CPU and memory of the CLI and of the plugin
 * against the do-nothing provider's, the wall time of the checkpoint variants, and the checkpoint's bytes per resource.
 */
import type { CpuMeasure, PhaseResult } from "./phases";
import type { StateSize } from "./stateSize";

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
  return row.requests > 0 ? ((row.usage.plugin.cpu - floor.usage.plugin.cpu) * 1000) / row.requests : NaN;
}

/** A one-line summary of a phase as it ends. */
export function phaseLine(row: PhaseResult, floor?: CpuMeasure, label = ""): string {
  const { operation, plugin, otherCommands } = row.usage;
  return (
    `  ${(row.phase + label).padEnd(9)} ${fixed(row.wallMs / 1000)} s (floor ${fixed(row.floorMs / 1000)} s; ` +
    `\`pulumi ${operation.command}\` ${fixed(operation.wallMs / 1000)} s, ${otherCommands.count} other commands ` +
    `${fixed(otherCommands.wallMs / 1000)} s), ${row.requests} requests (naive ${row.naive}), ` +
    `${row.rateLimited} 429s, ${row.retries} retries (${row.lookupRetries} of lookups); CPU s: CLI ` +
    `${fixed(operation.cpu, 1)}, plugin ${fixed(plugin.cpu, 1)}` +
    (floor
      ? ` (do-nothing provider ${fixed(floor.usage.plugin.cpu, 1)}, ` +
        `${fixed(perRequestAboveNoopMs(row, floor))} ms per request above it)`
      : "") +
    `, bench ${fixed(row.benchCpu, 1)}, emulator ${fixed(row.emulatorCpu, 1)}; peak MiB: CLI ` +
    `${fixed(operation.peakMiB, 0)}, plugin ${fixed(plugin.peakMiB, 0)}`
  );
}

/** Requests, 429s, retries, wall time against the floor; CPU and peak memory of the CLI and of the plugin. */
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
      "pulumi cmd s",
      "CLI CPU s",
      "plugin CPU s",
      "bench CPU s",
      "CLI peak MiB",
      "plugin peak MiB",
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
      fixed(p.usage.operation.wallMs / 1000),
      fixed(p.usage.operation.cpu),
      fixed(p.usage.plugin.cpu),
      fixed(p.benchCpu),
      fixed(p.usage.operation.peakMiB, 0),
      fixed(p.usage.plugin.peakMiB, 0),
    ]),
  );
}

const perResourceMs = (m: CpuMeasure) => (m.usage.plugin.cpu * 1000) / m.resources;

/**
 * The plugin's CPU per resource, real provider against the do-nothing one in the same run, and their ratio;
 * the real plugin's CPU above the do-nothing one per API request; the provider calls (the same in both when the
 * do-nothing phase mirrors the real one); the peak RSS of the plugin and of the CLI, and the CLI's CPU.
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
      "plugin peak MiB real",
      "noop",
      "CLI CPU s real",
      "noop",
      "CLI peak MiB real",
      "noop",
      "wall s real",
      "noop",
    ],
    real.map((r, i) => {
      const f = floor[i];
      return [
        r.phase,
        f.resources === r.resources ? String(r.resources) : `${r.resources}/${f.resources}`,
        `${r.providerCalls}/${f.providerCalls}`,
        fixed(r.usage.plugin.cpu),
        fixed(f.usage.plugin.cpu),
        fixed(perResourceMs(r)),
        fixed(perResourceMs(f)),
        fixed(perResourceMs(r) / perResourceMs(f)),
        String(r.requests),
        fixed(perRequestAboveNoopMs(r, f)),
        fixed(r.usage.plugin.peakMiB, 0),
        fixed(f.usage.plugin.peakMiB, 0),
        fixed(r.usage.operation.cpu),
        fixed(f.usage.operation.cpu),
        fixed(r.usage.operation.peakMiB, 0),
        fixed(f.usage.operation.peakMiB, 0),
        fixed(r.wallMs / 1000),
        fixed(f.wallMs / 1000),
      ];
    }),
  );
}

/** A checkpoint variant's phases: the same organization in its own emulator, its CLI with other settings. */
export interface VariantPhases {
  name: string;
  phases: PhaseResult[];
}

/**
 * Per phase, the wall time of each checkpoint variant, what the default spends above the others (the
 * checkpoint writes, the backups), and each variant's CLI CPU; the phases ran interleaved, variant by variant.
 */
export function checkpointTable(variants: VariantPhases[]): string {
  const [base, ...others] = variants;
  const same = (values: string[]) => (values.every((v) => v === values[0]) ? values[0] : values.join("/"));
  return table(
    [
      "phase",
      "state MiB",
      "requests",
      "floor s",
      ...variants.map((v) => `wall s ${v.name}`),
      ...others.map((v) => `${base.name} - ${v.name} s (% of wall)`),
      ...variants.map((v) => `CLI CPU s ${v.name}`),
    ],
    base.phases.map((p, i) => {
      const at = (v: VariantPhases) => v.phases[i];
      return [
        p.phase,
        fixed(Math.max(p.checkpointBytes.before, p.checkpointBytes.after) / 2 ** 20),
        same(variants.map((v) => String(at(v).requests))),
        same(variants.map((v) => fixed(at(v).floorMs / 1000))),
        ...variants.map((v) => fixed(at(v).wallMs / 1000)),
        ...others.map((v) => {
          const saved = p.wallMs - at(v).wallMs;
          return `${fixed(saved / 1000)} (${fixed((100 * saved) / p.wallMs, 0)}%)`;
        }),
        ...variants.map((v) => fixed(at(v).usage.operation.cpu)),
      ];
    }),
  );
}

/** The checkpoint's bytes per resource, by part, of each provider measured (./stateSize.ts). */
export function stateSizeTable(sizes: { real?: StateSize; noop?: StateSize }): string {
  return table(
    ["provider", "resources", "total", "__provider", "stack trace", "inputs", "outputs", "engine fields"],
    Object.entries(sizes).map(([name, size]) => [
      name,
      String(size.resources),
      ...[size.total, size.provider, size.stackTrace, size.inputs, size.outputs, size.engine].map((b) =>
        fixed(b, 0),
      ),
    ]),
  );
}
