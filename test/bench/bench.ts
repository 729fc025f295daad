/**
 * `npm run bench [-- --preset small|default|large] [--users N --groups N --attachments N] [--latency-ms 40]
 * [--parallelism N] [--noop-latency-ms N | --noop-http]`
 *
 * Runs a generated organization through the engine stand-in and the real plugin against the emulator (in its
 * own process, 2000 requests per minute, added latency) — create, up again, refresh, update a tenth, destroy —
 * and prints per phase the requests sent, 429s, retries, wall time, wall time over the floor (./floor.ts) and
 * requests over the naive count (one request per resource). Each phase is followed by the same phase of a
 * do-nothing provider of the same shape (./noopProvider.ts) through the same engine and plugin binary, and the
 * plugin's CPU per resource is printed for both, with their ratio; `--noop-latency-ms` makes the do-nothing
 * provider's create and delete wait that long before answering, as the real ones wait for the API; `--noop-http`
 * makes them send one request each to a bare HTTP server (./bareServer.ts) instead, through the client's undici
 * modules, so that the real plugin's CPU above it is what the provider does besides sending requests. Parallelism is
 * the engine's default (4 × CPUs, as `pulumi up`). Writes results/bench-<preset>.{json,svg}.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { findRepoRoot } from "./repoRoot";
import { parseArgs } from "node:util";
import { closeDispatchers } from "../../provider/client";
import { createEngine, DEFAULT_PARALLELISM, type Engine, type RunResult } from "../../engine-stand-in";
import { declareBenchOrg, treeShape, type OrgSize } from "./benchOrg";
import { chartSvg } from "./chart";
import { startEmulatorProcess } from "./emulatorProcess";
import { startBareServer, type BareServer } from "./bareServer";
import { assertFreshBuild } from "./freshBuild";
import { declareNoopOrg } from "./noopProvider";
import { measureCpu, realPhase, type CpuMeasure, type PhaseResult } from "./phases";
import { pluginMeter } from "./proc";
import { perRequestAboveNoopMs, phaseLine, pluginTable, requestsTable } from "./report";

const repoRoot = findRepoRoot(__dirname);

const PRESETS: Record<string, OrgSize> = {
  tiny: { users: 20, groups: 10, attachments: 6 },
  small: { users: 200, groups: 40, attachments: 20 },
  default: { users: 1000, groups: 200, attachments: 100 },
  // Crosses the 2000-per-minute limit on create and destroy, so pacing is exercised.
  large: { users: 3000, groups: 200, attachments: 100 },
};

function options() {
  const { values } = parseArgs({
    options: {
      preset: { type: "string", default: "default" },
      users: { type: "string" },
      groups: { type: "string" },
      attachments: { type: "string" },
      // A headset experience on every site (issue 19): `npm run bench -- --preset small --experiences`.
      experiences: { type: "boolean", default: false },
      "latency-ms": { type: "string", default: "40" },
      parallelism: { type: "string" },
      "noop-latency-ms": { type: "string", default: "0" },
      "noop-http": { type: "boolean", default: false },
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
    ...(values.experiences ? { experiences: true } : {}),
  };
  const custom =
    values.users !== undefined || values.groups !== undefined || values.attachments !== undefined;
  const noopLatencyMs = whole("noop-latency-ms", values["noop-latency-ms"], 0);
  const noopHttp = values["noop-http"];
  if (noopHttp && noopLatencyMs > 0) {
    throw new Error(
      "--noop-http and --noop-latency-ms: give one (the bare server already answers after --latency-ms)",
    );
  }
  return {
    name:
      (custom ? `custom-${size.users}u-${size.groups}g-${size.attachments}a` : values.preset) +
      (values.experiences ? "-experiences" : "") +
      (noopLatencyMs > 0 ? `-noop-latency-${noopLatencyMs}` : "") +
      (noopHttp ? "-noop-http" : ""),
    size,
    latencyMs: whole("latency-ms", values["latency-ms"], 40),
    noopLatencyMs,
    noopHttp,
    parallelism: Math.max(1, whole("parallelism", values.parallelism, DEFAULT_PARALLELISM)),
    limit: Math.max(1, whole("rate-limit", values["rate-limit"], 2000)),
    windowMs: Math.max(1, whole("rate-window-ms", values["rate-window-ms"], 60_000)),
    out: values.out,
  };
}

/** Average size of a resource's inputs and outputs in the state, in bytes of JSON. */
function stateBytesPerResource(engine: Engine): number {
  const custom = engine.resources().filter((r) => r.custom);
  const bytes = custom.reduce((sum, r) => sum + JSON.stringify([r.inputs, r.outputs]).length, 0);
  return custom.length > 0 ? Math.round(bytes / custom.length) : 0;
}

async function main(): Promise<void> {
  assertFreshBuild();
  const settings = options();
  const { size, latencyMs, noopLatencyMs, noopHttp, parallelism, limit, windowMs } = settings;
  const tree = treeShape(size.groups);
  const experiences = size.experiences ? tree.sites : 0;
  const resources = size.users + size.groups + size.attachments + experiences;
  const parallelismSource =
    parallelism === DEFAULT_PARALLELISM
      ? ` (the engine's default, 4 × ${os.availableParallelism()} CPUs)`
      : "";
  console.log(
    `bench ${settings.name}: ${size.users} users, ${size.groups} groups (1 root, ${tree.regions} regions, ` +
      `${tree.sites} configured sites), ${size.attachments} attachments` +
      `${experiences ? `, ${experiences} headset experiences` : ""} = ${resources} resources; ` +
      `${limit} requests / ${windowMs / 1000} s, ${latencyMs} ms latency, parallelism ${parallelism}` +
      `${parallelismSource}` +
      `${noopLatencyMs > 0 ? `, the do-nothing provider's create and delete wait ${noopLatencyMs} ms` : ""}` +
      `${noopHttp ? ", the do-nothing provider's create and delete each send a request to a bare HTTP server" : ""}; ` +
      `${os.cpus().length} CPUs, Node ${process.version}`,
  );
  // The machine may be shared: wall times wait for CPUs that others use, so say how busy it was.
  const loadAtStart = os.loadavg()[0];

  const emulator = await startEmulatorProcess({ rateLimit: { limit, windowMs }, latencyMs });
  const bareServer: BareServer | undefined = noopHttp ? await startBareServer(latencyMs) : undefined;
  const meter = pluginMeter();
  const engine = await createEngine({
    cwd: repoRoot,
    project: "devicemgmt-bench",
    config: { "devicemgmt:baseUrl": emulator.baseUrl },
    secretConfig: { "devicemgmt:apiToken": emulator.tokens.admin },
    parallelism,
    // The lines of retried requests only, to count retries: a line per request would cost the plugin CPU per
    // request that users without a debug log never pay.
    env: { DEVICEMGMT_LOG: "retries" },
  });
  // The do-nothing provider's stack: same engine stand-in, same plugin binary, same parallelism.
  const noopEngine = await createEngine({
    cwd: repoRoot,
    project: "devicemgmt-bench-noop",
    parallelism,
    env: {
      ...(noopLatencyMs > 0 ? { BENCH_NOOP_LATENCY_MS: String(noopLatencyMs) } : {}),
      ...(bareServer ? { BENCH_NOOP_HTTP_ORIGIN: bareServer.origin } : {}),
    },
  });
  const context = { engine, emulator, takePlugin: meter.take, parallelism, latencyMs, limit, windowMs };
  const phases: PhaseResult[] = [];
  const floors: CpuMeasure[] = [];
  const stateBytes = { real: 0, noop: 0 };
  const stackSize = (e: Engine) => e.resources().filter((r) => r.custom).length;

  /** The real phase, then the same phase of the do-nothing provider, back to back (the machine is shared). */
  async function phase(
    name: string,
    real: () => Promise<RunResult>,
    noop: () => Promise<RunResult>,
    naive = stackSize(engine),
  ): Promise<[RunResult, RunResult]> {
    const noopResources = name === "create" ? naive : stackSize(noopEngine);
    const { result, row } = await realPhase(context, name, naive, real);
    phases.push(row);
    const floor = await measureCpu(name, noopResources, meter.take, noop);
    floors.push(floor.measure);
    console.log(phaseLine(row, floor.measure));
    return [result, floor.result];
  }

  try {
    await phase(
      "create",
      () => engine.up(() => declareBenchOrg(size)),
      () => noopEngine.up(() => declareNoopOrg(size)),
      resources,
    );
    stateBytes.real = stateBytesPerResource(engine);
    stateBytes.noop = stateBytesPerResource(noopEngine);
    await phase(
      "up again",
      () => engine.up(() => declareBenchOrg(size)),
      () => noopEngine.up(() => declareNoopOrg(size)),
    );
    const refreshed = await phase(
      "refresh",
      () => engine.refresh(),
      () => noopEngine.refresh(),
    );
    if (refreshed.some((r) => r.steps.update.length > 0 || r.steps.delete.length > 0)) {
      throw new Error("refresh found changes that nobody made: the reads disagree with the state");
    }
    await phase(
      "update",
      () => engine.up(() => declareBenchOrg(size, 1)),
      () => noopEngine.up(() => declareNoopOrg(size, 1)),
    );
    await phase(
      "destroy",
      () => engine.destroy(),
      () => noopEngine.destroy(),
    );
  } finally {
    await engine.close();
    await noopEngine.close();
    meter.close();
    await emulator.close();
    if (bareServer) console.log(`the bare HTTP server answered ${await bareServer.close()} requests`);
    await closeDispatchers();
  }

  const loadAtEnd = os.loadavg()[0];
  console.log(
    `\nload average (1 min) ${loadAtStart.toFixed(1)} at the start, ${loadAtEnd.toFixed(1)} at the end ` +
      `(${os.cpus().length} CPUs)`,
  );
  console.log(requestsTable(phases));
  console.log(
    `\nplugin CPU per resource, the real provider against a do-nothing provider of the same shape (noop), and ` +
      `the real plugin's CPU above noop per API request; ` +
      `same engine, plugin and parallelism, same run; a new plugin process per phase, read just before it stops; ` +
      `state ${stateBytes.real} bytes/resource real, ${stateBytes.noop} noop:\n` +
      pluginTable(phases, floors),
  );

  fs.mkdirSync(settings.out, { recursive: true });
  const base = path.join(settings.out, `bench-${settings.name}`);
  const record = {
    command: `npm run bench -- ${process.argv.slice(2).join(" ")}`.trim(),
    date: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      node: process.version,
      loadAverage1m: { start: loadAtStart, end: loadAtEnd },
    },
    size,
    settings: { latencyMs, noopLatencyMs, noopHttp, parallelism, limit, windowMs },
    phases: phases.map((row, i) => ({
      ...row,
      pluginMsPerRequestAboveNoop: perRequestAboveNoopMs(row, floors[i]),
    })),
    noopPhases: floors,
    stateBytesPerResource: stateBytes,
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
