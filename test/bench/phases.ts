/**
 * One phase of the bench, measured: the real provider's phase against the emulator (requests, 429s, retries,
 * wall time against the floor, CPU of each process), and the same phase of the do-nothing provider
 * (./noopProvider.ts) through the same engine stand-in and plugin binary (CPU only; it sends no request).
 */
import { organizationStats } from "../../provider/client";
import type { Engine, RunResult } from "../../engine-stand-in";
import type { EmulatorProcess } from "./emulatorProcess";
import { floorMs } from "./floor";
import { cpuSeconds, type PluginUsage } from "./proc";

/** What a phase cost in CPU and time, for the real provider and for the do-nothing one alike. */
export interface CpuMeasure {
  phase: string;
  /** Resources the phase handles: the stack's (or, for create, the program's) custom resources. */
  resources: number;
  /** Create, update, delete and read calls the engine made to the provider. */
  providerCalls: number;
  wallMs: number;
  /** CPU seconds of this process (the engine stand-in and the program, one thread) in the phase. */
  engineCpu: number;
  /** The phase's plugin process(es), read just before they were stopped. */
  plugin: PluginUsage;
}

export interface PhaseResult extends CpuMeasure {
  requests: number;
  naive: number;
  writes: number;
  rateLimited: number;
  retries: number;
  /** Of those, the retries of the program's lookups (this process; the rest are the plugin's). */
  lookupRetries: number;
  /** The plugin's debug lines of its first retried attempts, to see why. */
  retrySamples: string[];
  floorMs: number;
  /** Budget left in the open window and time to its end when the phase began (what its floor started from). */
  windowAtStart: { remaining: number; untilResetMs: number };
  wallOverFloor: number;
  /**
   * Wall time over the larger of the floor and this process's CPU time in the phase: the engine and the program
   * run on one thread, so a phase cannot end before they have done their own work, whatever the requests.
   */
  wallOverBound: number;
  requestsOverNaive: number;
  /** Requests by route ("GET /users"). */
  routes: Record<string, number>;
  /** CPU seconds spent in the phase by this process (engine and program), the plugin(s), and the emulator. */
  cpu: { engine: number; plugin: number; emulator: number };
}

/** The plugin's debug lines of attempts that were retries (`retry=N`, N > 0). */
function retriedLines(pluginStderr: string): string[] {
  return [...pluginStderr.matchAll(/^devicemgmt: .* retry=(\d+).*$/gm)]
    .filter((m) => m[1] !== "0")
    .map((m) => m[0]);
}

/** Attempts of this process's lookups that were retries. */
function lookupRetriesSoFar(): number {
  return Object.values(organizationStats()).reduce((sum, s) => sum + s.retries, 0);
}

function failIfErrors(phase: string, result: RunResult): void {
  if (!result.ok) {
    const shown = result.errors.slice(0, 5).map((e) => `  ${e.op} ${e.urn ?? ""}: ${e.message}`);
    throw new Error(`${phase} failed:\n${shown.join("\n")}`);
  }
}

const ownCpu = () => {
  const own = process.cpuUsage();
  return (own.user + own.system) / 1e6;
};

/** Runs one phase and measures its wall time, this process's CPU and the plugin's (from `takePlugin`). */
export async function measureCpu(
  phase: string,
  resources: number,
  takePlugin: () => PluginUsage,
  run: () => Promise<RunResult>,
): Promise<{ result: RunResult; measure: CpuMeasure }> {
  takePlugin(); // nothing of an earlier phase counts
  const cpuBefore = ownCpu();
  const started = performance.now();
  const result = await run();
  const wallMs = performance.now() - started;
  const engineCpu = ownCpu() - cpuBefore;
  failIfErrors(phase, result);
  const measure = {
    phase,
    resources,
    providerCalls: result.operations.length,
    wallMs,
    engineCpu,
    plugin: takePlugin(),
  };
  return { result, measure };
}

export interface RealPhaseContext {
  engine: Engine;
  emulator: EmulatorProcess;
  takePlugin: () => PluginUsage;
  parallelism: number;
  latencyMs: number;
  limit: number;
  windowMs: number;
}

/** A phase of the real provider against the emulator (in its own process). */
export async function realPhase(
  context: RealPhaseContext,
  name: string,
  naive: number,
  run: () => Promise<RunResult>,
): Promise<{ result: RunResult; row: PhaseResult }> {
  const { engine, emulator, parallelism, latencyMs, limit, windowMs } = context;
  const windowAtStart = await emulator.window();
  const before = await emulator.stats();
  const retriedBefore = retriedLines(engine.stderr()).length;
  const lookupRetriesBefore = lookupRetriesSoFar();
  const emulatorCpuBefore = cpuSeconds(emulator.pid);
  const { result, measure } = await measureCpu(name, naive, context.takePlugin, run);
  const emulatorCpu = cpuSeconds(emulator.pid) - emulatorCpuBefore;
  const after = await emulator.stats();
  const requests = after.requests - before.requests;
  const floor = floorMs({ requests, parallelism, latencyMs, limit, windowMs, ...windowAtStart });
  const retried = retriedLines(engine.stderr());
  const lookupRetries = lookupRetriesSoFar() - lookupRetriesBefore;
  const row: PhaseResult = {
    ...measure,
    requests,
    naive,
    writes: after.writes - before.writes,
    rateLimited: (after.byStatus["429"] ?? 0) - (before.byStatus["429"] ?? 0),
    retries: retried.length - retriedBefore + lookupRetries,
    lookupRetries,
    retrySamples: retried.slice(retriedBefore, retriedBefore + 10),
    floorMs: floor,
    windowAtStart,
    wallOverFloor: floor > 0 ? measure.wallMs / floor : Number.POSITIVE_INFINITY,
    wallOverBound: measure.wallMs / Math.max(floor, measure.engineCpu * 1000, 1),
    requestsOverNaive: requests / naive,
    routes: Object.fromEntries(
      Object.entries(after.byRoute)
        .map(([route, n]) => [route, n - (before.byRoute[route] ?? 0)] as const)
        .filter(([, n]) => n > 0),
    ),
    cpu: { engine: measure.engineCpu, plugin: measure.plugin.cpu, emulator: emulatorCpu },
  };
  return { result, row };
}
