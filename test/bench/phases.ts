/**
 * One phase of the bench, measured: the real provider's phase against the emulator (requests, 429s, retries,
 * wall time against the floor, CPU and peak memory of the CLI, of its plugin, of this process and of the
 * emulator), and the same phase of the do-nothing provider (./noopProvider.ts) through the same CLI and plugin
 * binary (no request).
 */
import * as fs from "node:fs";
import { organizationStats } from "../../provider/client";
import type { Engine, RunResult } from "../engine";
import type { EmulatorProcess } from "./emulatorProcess";
import { floorMs } from "./floor";
import { cpuSeconds, cpuTimes, phaseUsage, type CliMeter, type PhaseUsage } from "./proc";

/** What a phase cost in CPU, memory and time, for the real provider and for the do-nothing one alike. */
export interface CpuMeasure {
  phase: string;
  /** Resources the phase handles: the stack's (or, for create, the program's) custom resources. */
  resources: number;
  /** Create, update, delete and read calls the engine made to the provider. */
  providerCalls: number;
  /** Wall time of the Engine's call: the CLI command and the Automation API's commands around it. */
  wallMs: number;
  /** The CLI processes and the plugin of the phase (./proc.ts). */
  usage: PhaseUsage;
  /** CPU seconds of this process in the phase: the inline program with the SDK, the Automation API, sampling. */
  benchCpu: number;
  /** CPU seconds of every CLI process of the phase and their descendants, exact (this process's reaped children). */
  cliTreeCpu: number;
  /** Size of the stack's checkpoint file before and after the phase, bytes. */
  checkpointBytes: { before: number; after: number };
}

export interface PhaseResult extends CpuMeasure {
  requests: number;
  naive: number;
  writes: number;
  rateLimited: number;
  retries: number;
  /** Of those, the retries of the program's lookups (this process; the rest are the plugin's). */
  lookupRetries: number;
  /** The plugin's log lines of its first retried attempts, to see why. */
  retrySamples: string[];
  floorMs: number;
  /** Budget left in the open window and time to its end when the phase began (what its floor started from). */
  windowAtStart: { remaining: number; untilResetMs: number };
  wallOverFloor: number;
  requestsOverNaive: number;
  /** Requests by route ("GET /users"). */
  routes: Record<string, number>;
  /** CPU seconds the emulator spent in the phase. */
  emulatorCpu: number;
}

/** The plugin's log lines of attempts that were retries (`retry=N`, N > 0). */
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
    throw new Error(`${phase} failed:\n${shown.join("\n")}\n${result.output.slice(-2000)}`);
  }
}

const ownCpu = () => {
  const own = process.cpuUsage();
  return (own.user + own.system) / 1e6;
};

/** The stack's checkpoint file in the Engine's file backend (test/engine/state.ts). */
export function checkpointBytes(engine: Engine): number {
  const stacks = `${engine.folder}/backend/.pulumi/stacks`;
  try {
    let bytes = 0;
    for (const project of fs.readdirSync(stacks)) {
      for (const file of fs.readdirSync(`${stacks}/${project}`)) {
        if (file.endsWith(".json")) bytes += fs.statSync(`${stacks}/${project}/${file}`).size;
      }
    }
    return bytes;
  } catch {
    return 0;
  }
}

/**
 * Create, update, delete and read calls of the run. A refresh's reads are its steps (the RunResult lists no
 * operation for a `pulumi refresh`, whose steps are all Read calls).
 */
function providerCalls(phase: string, result: RunResult): number {
  if (phase !== "refresh" || result.operations.length > 0) return result.operations.length;
  return result.steps.same.length + result.steps.update.length + result.steps.delete.length;
}

/** Runs one phase of `engine` and measures its wall time and the CPU and memory of every process in it. */
export async function measureCpu(
  phase: string,
  resources: number,
  engine: Engine,
  meter: CliMeter,
  run: () => Promise<RunResult>,
): Promise<{ result: RunResult; measure: CpuMeasure }> {
  meter.take(); // nothing of an earlier phase counts
  const bytesBefore = checkpointBytes(engine);
  const cpuBefore = ownCpu();
  const treeBefore = cpuTimes("self").children;
  const started = performance.now();
  const result = await run();
  const wallMs = performance.now() - started;
  const benchCpu = ownCpu() - cpuBefore;
  const cliTreeCpu = cpuTimes("self").children - treeBefore;
  failIfErrors(phase, result);
  const measure: CpuMeasure = {
    phase,
    resources,
    providerCalls: providerCalls(phase, result),
    wallMs,
    usage: phaseUsage(meter.take()),
    benchCpu,
    cliTreeCpu,
    checkpointBytes: { before: bytesBefore, after: checkpointBytes(engine) },
  };
  return { result, measure };
}

export interface RealPhaseContext {
  engine: Engine;
  meter: CliMeter;
  emulator: EmulatorProcess;
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
  const { result, measure } = await measureCpu(name, naive, engine, context.meter, run);
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
    requestsOverNaive: requests / naive,
    routes: Object.fromEntries(
      Object.entries(after.byRoute)
        .map(([route, n]) => [route, n - (before.byRoute[route] ?? 0)] as const)
        .filter(([, n]) => n > 0),
    ),
    emulatorCpu,
  };
  return { result, row };
}
