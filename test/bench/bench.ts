/**
 * `npm run bench [-- --preset small|default|large] [--users N --groups N --attachments N] [--latency-ms 40]`
 *
 * Runs a generated organization through the engine stand-in and the real plugin against the emulator (in its
 * own process, 2000 requests per minute, added latency) — create, up again, refresh, update a tenth, destroy —
 * and prints per phase the requests sent, 429s, retries, wall time, wall time over the floor (./floor.ts) and
 * requests over the naive count (one request per resource). Writes results/bench-<preset>.{json,svg}.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { findRepoRoot } from "./repoRoot";
import { parseArgs } from "node:util";
import { closeDispatchers, organizationStats } from "../../provider/client";
import { createEngine, type RunResult } from "../../emulator/engine";
import { declareBenchOrg, treeShape, type OrgSize } from "./benchOrg";
import { chartSvg } from "./chart";
import { startEmulatorProcess } from "./emulatorProcess";
import { floorMs } from "./floor";
import { assertFreshBuild } from "./freshBuild";
import { cpuSeconds, memoryMiB, pluginPid, resetPeakMemory } from "./proc";

const repoRoot = findRepoRoot(__dirname);

const PRESETS: Record<string, OrgSize> = {
  tiny: { users: 20, groups: 10, attachments: 6 },
  small: { users: 200, groups: 40, attachments: 20 },
  default: { users: 1000, groups: 200, attachments: 100 },
  // Crosses the 2000-per-minute limit on create and destroy, so pacing is exercised.
  large: { users: 3000, groups: 200, attachments: 100 },
};

interface PhaseResult {
  phase: string;
  requests: number;
  naive: number;
  writes: number;
  rateLimited: number;
  retries: number;
  /** Of those, the retries of the program's lookups (this process; the rest are the plugin's). */
  lookupRetries: number;
  /** The plugin's debug lines of its first retried attempts, to see why. */
  retrySamples: string[];
  wallMs: number;
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
  /** CPU seconds spent in the phase by this process (engine and program), the plugin, and the emulator. */
  cpu: { engine: number; plugin: number; emulator: number };
}

function options() {
  const { values } = parseArgs({
    options: {
      preset: { type: "string", default: "default" },
      users: { type: "string" },
      groups: { type: "string" },
      attachments: { type: "string" },
      "latency-ms": { type: "string", default: "40" },
      parallelism: { type: "string", default: "16" },
      "rate-limit": { type: "string", default: "2000" },
      "rate-window-ms": { type: "string", default: "60000" },
      out: { type: "string", default: path.join(repoRoot, "results") },
    },
  });
  const preset = PRESETS[values.preset];
  if (!preset) throw new Error(`--preset must be one of ${Object.keys(PRESETS).join(", ")}`);
  const whole = (name: string, raw: string | undefined, fallback: number) => {
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number, got "${raw}"`);
    return n;
  };
  const size: OrgSize = {
    users: whole("users", values.users, preset.users),
    groups: Math.max(3, whole("groups", values.groups, preset.groups)),
    attachments: whole("attachments", values.attachments, preset.attachments),
  };
  const custom =
    values.users !== undefined || values.groups !== undefined || values.attachments !== undefined;
  return {
    name: custom ? `custom-${size.users}u-${size.groups}g-${size.attachments}a` : values.preset,
    size,
    latencyMs: whole("latency-ms", values["latency-ms"], 40),
    parallelism: Math.max(1, whole("parallelism", values.parallelism, 16)),
    limit: Math.max(1, whole("rate-limit", values["rate-limit"], 2000)),
    windowMs: Math.max(1, whole("rate-window-ms", values["rate-window-ms"], 60_000)),
    out: values.out,
  };
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

const pad = (text: string, width: number) => text.padStart(width);
const fixed = (n: number, digits = 2) => n.toFixed(digits);

async function main(): Promise<void> {
  assertFreshBuild();
  const settings = options();
  const { size, latencyMs, parallelism, limit, windowMs } = settings;
  const resources = size.users + size.groups + size.attachments;
  const tree = treeShape(size.groups);
  console.log(
    `bench ${settings.name}: ${size.users} users, ${size.groups} groups (1 root, ${tree.regions} regions, ` +
      `${tree.sites} configured sites), ${size.attachments} attachments = ${resources} resources; ` +
      `${limit} requests / ${windowMs / 1000} s, ${latencyMs} ms latency, parallelism ${parallelism}, ` +
      `${os.cpus().length} CPUs`,
  );

  const emulator = await startEmulatorProcess({ rateLimit: { limit, windowMs }, latencyMs });
  const engine = await createEngine({
    cwd: repoRoot,
    project: "devicemgmt-bench",
    config: { "devicemgmt:baseUrl": emulator.baseUrl },
    secretConfig: { "devicemgmt:apiToken": emulator.tokens.admin },
    parallelism,
    env: { DEVICEMGMT_LOG: "debug" },
  });
  const phases: PhaseResult[] = [];
  let memory: { pid: number; atStartMiB: number; peakMiB: number; resetWorked: boolean } | undefined;
  const stackSize = () => engine.resources().filter((r) => r.custom).length;
  // The plugin starts with the first run; before that it has used no CPU.
  const cpuNow = () => {
    const plugin = pluginPid();
    const own = process.cpuUsage();
    return {
      engine: (own.user + own.system) / 1e6,
      plugin: plugin === undefined ? 0 : cpuSeconds(plugin),
      emulator: cpuSeconds(emulator.pid),
    };
  };

  async function phase(name: string, naive: number, run: () => Promise<RunResult>): Promise<RunResult> {
    const windowAtStart = await emulator.window();
    const before = await emulator.stats();
    const retriedBefore = retriedLines(engine.stderr()).length;
    const lookupRetriesBefore = lookupRetriesSoFar();
    const cpuBefore = cpuNow();
    const started = performance.now();
    const result = await run();
    const wallMs = performance.now() - started;
    const cpuAfter = cpuNow();
    failIfErrors(name, result);
    const after = await emulator.stats();
    const requests = after.requests - before.requests;
    const floor = floorMs({ requests, parallelism, latencyMs, limit, windowMs, ...windowAtStart });
    const engineCpuMs = (cpuAfter.engine - cpuBefore.engine) * 1000;
    const row: PhaseResult = {
      phase: name,
      requests,
      naive,
      writes: after.writes - before.writes,
      rateLimited: (after.byStatus["429"] ?? 0) - (before.byStatus["429"] ?? 0),
      retries:
        retriedLines(engine.stderr()).length - retriedBefore + lookupRetriesSoFar() - lookupRetriesBefore,
      lookupRetries: lookupRetriesSoFar() - lookupRetriesBefore,
      retrySamples: retriedLines(engine.stderr()).slice(retriedBefore, retriedBefore + 10),
      wallMs,
      floorMs: floor,
      windowAtStart,
      wallOverFloor: floor > 0 ? wallMs / floor : Number.POSITIVE_INFINITY,
      wallOverBound: wallMs / Math.max(floor, engineCpuMs, 1),
      requestsOverNaive: requests / naive,
      routes: Object.fromEntries(
        Object.entries(after.byRoute)
          .map(([route, n]) => [route, n - (before.byRoute[route] ?? 0)] as const)
          .filter(([, n]) => n > 0),
      ),
      cpu: {
        engine: cpuAfter.engine - cpuBefore.engine,
        plugin: cpuAfter.plugin - cpuBefore.plugin,
        emulator: cpuAfter.emulator - cpuBefore.emulator,
      },
    };
    phases.push(row);
    console.log(
      `  ${name.padEnd(9)} ${fixed(wallMs / 1000)} s (floor ${fixed(floor / 1000)} s), ${requests} requests ` +
        `(naive ${naive}), ${row.rateLimited} 429s, ${row.retries} retries (${row.lookupRetries} of lookups); CPU s: engine ${fixed(row.cpu.engine, 1)}, ` +
        `plugin ${fixed(row.cpu.plugin, 1)}, emulator ${fixed(row.cpu.emulator, 1)}`,
    );
    return result;
  }

  try {
    await phase("create", resources, () => engine.up(() => declareBenchOrg(size)));
    await phase("up again", stackSize(), () => engine.up(() => declareBenchOrg(size)));

    const pid = pluginPid();
    const resetWorked = pid !== undefined && resetPeakMemory(pid);
    const atStart = pid !== undefined ? memoryMiB(pid).current : NaN;
    const refreshed = await phase("refresh", stackSize(), () => engine.refresh());
    if (refreshed.steps.update.length > 0 || refreshed.steps.delete.length > 0) {
      throw new Error("refresh found changes that nobody made: the reads disagree with the state");
    }
    if (pid !== undefined) memory = { pid, atStartMiB: atStart, peakMiB: memoryMiB(pid).peak, resetWorked };

    await phase("update", stackSize(), () => engine.up(() => declareBenchOrg(size, 1)));
    await phase("destroy", stackSize(), () => engine.destroy());
  } finally {
    await engine.close();
    await emulator.close();
    await closeDispatchers();
  }

  const header = [
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
  ];
  const widths = [9, 9, 7, 10, 5, 8, 8, 8, 11, 13, 11];
  console.log("\n" + header.map((h, i) => (i === 0 ? h.padEnd(widths[i]) : pad(h, widths[i]))).join(" "));
  for (const p of phases) {
    const cells = [
      p.phase.padEnd(widths[0]),
      pad(String(p.requests), widths[1]),
      pad(String(p.naive), widths[2]),
      pad(fixed(p.requestsOverNaive, 3), widths[3]),
      pad(String(p.rateLimited), widths[4]),
      pad(String(p.retries), widths[5]),
      pad(fixed(p.wallMs / 1000), widths[6]),
      pad(fixed(p.floorMs / 1000), widths[7]),
      pad(fixed(p.wallOverFloor), widths[8]),
      pad(fixed(p.cpu.engine, 1), widths[9]),
      pad(fixed(p.wallOverBound), widths[10]),
    ];
    console.log(cells.join(" "));
  }
  if (memory) {
    console.log(
      `\nplugin peak RSS during refresh: ${fixed(memory.peakMiB, 1)} MiB (pid ${memory.pid}, ` +
        `${fixed(memory.atStartMiB, 1)} MiB when it began${memory.resetWorked ? "" : "; peak since the plugin started"})`,
    );
  }

  fs.mkdirSync(settings.out, { recursive: true });
  const base = path.join(settings.out, `bench-${settings.name}`);
  const record = {
    command: `npm run bench -- ${process.argv.slice(2).join(" ")}`.trim(),
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, node: process.version },
    size,
    settings: { latencyMs, parallelism, limit, windowMs },
    phases,
    pluginMemory: memory,
  };
  fs.writeFileSync(`${base}.json`, JSON.stringify(record, null, 2) + "\n");
  fs.writeFileSync(
    `${base}.svg`,
    chartSvg(
      `bench ${settings.name}: ${resources} resources, ${latencyMs} ms latency, parallelism ${parallelism}`,
      phases,
    ),
  );
  console.log(`wrote ${path.relative(process.cwd(), base)}.json and .svg`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
