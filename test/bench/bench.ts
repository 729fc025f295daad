/**
 * `npm run bench [-- --preset small|default|large] [--users N --groups N --attachments N] [--latency-ms 40]
 * [--parallelism N] [--noop-latency-ms N | --noop-http | --no-noop] [--checkpoint-variants | --variants a,b]
 * [--phases create,up-again,refresh,update,destroy]`
 *
 * Runs a generated organization through the real Pulumi CLI (test/engine, the Automation API, file backend) and
 * the real plugin against the emulator (in its own process, 2000 requests per minute, added latency) — create,
 * up again, refresh, update a tenth, destroy — and prints per phase the requests sent, 429s, retries, wall time,
 * wall time over the floor (./floor.ts), requests over the naive count (one request per resource), and the CPU
 * time and peak resident set of the CLI process and of the plugin process it starts, read from /proc while they
 * run (./proc.ts). Each phase is followed by the same phase of a do-nothing provider of the same shape
 * (./noopProvider.ts) through the same CLI and plugin binary, and the plugin's CPU per resource is printed for
 * both, with their ratio; `--noop-latency-ms` makes the do-nothing provider's create and delete wait that long
 * before answering, as the real ones wait for the API; `--noop-http` makes them send one request each to a bare
 * HTTP server (./bareServer.ts) instead, through the client's undici modules, so that the real plugin's CPU above
 * it is what the provider does besides sending requests.
 *
 * `--checkpoint-variants` also runs every phase of the real provider with PULUMI_SKIP_CHECKPOINTS=true and with
 * PULUMI_DIY_BACKEND_DISABLE_CHECKPOINT_BACKUPS=true, each against its own emulator (its own organization and
 * rate-limit window), right after the default's, and prints the wall time of each side by side: what the file
 * backend's checkpoint writes and backups cost in each phase; `--variants skip-checkpoints` runs only that one
 * beside the default. `--no-noop` leaves out the do-nothing provider (and the plugin comparison). Parallelism is the CLI's default (4 × CPUs, as
 * `pulumi up` without `--parallel`). Writes results/bench-<preset>.{json,svg}; the JSON also after every phase
 * and every checkpoint setting's part of it (`"complete": false`), so a run stopped early keeps what it measured.
 *
 * `--phases destroy` (some of the phases, ./phasePlan.ts) measures only those; without the create, every stack is
 * first made by a create with PULUMI_SKIP_CHECKPOINTS=true that is not measured, and the measured phases then
 * run with each stack's own setting: the large preset's destroy without the hour its create takes with the
 * default checkpoints. Writes results/bench-<preset>-<phases>….json.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { findRepoRoot } from "./repoRoot";
import { parseArgs } from "node:util";
import { closeDispatchers } from "../../provider/client";
import { readyPulumiCli } from "../../tools/pulumi-cli";
import { createEngine, type Engine, type RunResult } from "../engine";
import { declareBenchOrg, treeShape, type OrgSize } from "./benchOrg";
import { chartSvg } from "./chart";
import { startEmulatorProcess, type EmulatorProcess } from "./emulatorProcess";
import { startBareServer, type BareServer } from "./bareServer";
import { assertFreshBuild } from "./freshBuild";
import { declareNoopOrg } from "./noopProvider";
import { phasePlan, type PhaseId } from "./phasePlan";
import { checkpointBytes, measureCpu, realPhase, type CpuMeasure, type PhaseResult } from "./phases";
import { cliMeter, type CliMeter } from "./proc";
import { stateSizePerResource, type StateSize } from "./stateSize";
import {
  checkpointTable,
  perRequestAboveNoopMs,
  phaseLine,
  pluginTable,
  requestsTable,
  stateSizeTable,
  type VariantPhases,
} from "./report";

const repoRoot = findRepoRoot(__dirname);

/** The CLI's default `--parallel`: 4 × the CPUs it may use (PULUMI_PARALLEL overrides it). */
const DEFAULT_PARALLELISM = 4 * os.availableParallelism();

const PRESETS: Record<string, OrgSize> = {
  tiny: { users: 20, groups: 10, attachments: 6 },
  small: { users: 200, groups: 40, attachments: 20 },
  default: { users: 1000, groups: 200, attachments: 100 },
  // Crosses the 2000-per-minute limit on create and destroy, so pacing is exercised.
  large: { users: 3000, groups: 200, attachments: 100 },
};

/** The file backend's checkpoint settings compared by `--checkpoint-variants`; the first is the CLI's default. */
const CHECKPOINT_VARIANTS: Array<{ name: string; env: Record<string, string> }> = [
  { name: "default", env: {} },
  // No checkpoint while the operation runs, only the final state: loses what a crash would have kept.
  { name: "skip-checkpoints", env: { PULUMI_SKIP_CHECKPOINTS: "true" } },
  // No copy of the checkpoint into the backups folder at the end of each operation.
  { name: "no-backups", env: { PULUMI_DIY_BACKEND_DISABLE_CHECKPOINT_BACKUPS: "true" } },
];

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
      "checkpoint-variants": { type: "boolean", default: false },
      // Some of them only: `--variants skip-checkpoints` (comma-separated; the default is always run first).
      variants: { type: "string" },
      // Some phases only: `--phases destroy` (./phasePlan.ts); without the create, an unmeasured one makes the stacks.
      phases: { type: "string" },
      // Without the do-nothing provider's phases (halves the run; no plugin comparison).
      "no-noop": { type: "boolean", default: false },
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
  let variants = values["checkpoint-variants"] ? CHECKPOINT_VARIANTS : CHECKPOINT_VARIANTS.slice(0, 1);
  if (values.variants !== undefined) {
    const names = values.variants.split(",").filter(Boolean);
    const unknown = names.filter((n) => !CHECKPOINT_VARIANTS.some((v) => v.name === n));
    if (unknown.length) {
      throw new Error(
        `--variants: unknown ${unknown.join(", ")}; one of ${CHECKPOINT_VARIANTS.map((v) => v.name).join(", ")}`,
      );
    }
    variants = CHECKPOINT_VARIANTS.filter((v, i) => i === 0 || names.includes(v.name));
  }
  const noop = !values["no-noop"];
  const plan = phasePlan(values.phases);
  if (!noop && (noopHttp || noopLatencyMs > 0))
    throw new Error("--no-noop leaves out the do-nothing provider");
  return {
    name:
      (custom ? `custom-${size.users}u-${size.groups}g-${size.attachments}a` : values.preset) +
      plan.nameSuffix +
      (values.experiences ? "-experiences" : "") +
      (noopLatencyMs > 0 ? `-noop-latency-${noopLatencyMs}` : "") +
      (noopHttp ? "-noop-http" : "") +
      (variants.length > 1
        ? `-vs-${variants
            .slice(1)
            .map((v) => v.name)
            .join("-")}`
        : "") +
      (noop ? "" : "-no-noop"),
    size,
    plan,
    latencyMs: whole("latency-ms", values["latency-ms"], 40),
    noopLatencyMs,
    noopHttp,
    variants,
    noop,
    parallelism: Math.max(1, whole("parallelism", values.parallelism, DEFAULT_PARALLELISM)),
    limit: Math.max(1, whole("rate-limit", values["rate-limit"], 2000)),
    windowMs: Math.max(1, whole("rate-window-ms", values["rate-window-ms"], 60_000)),
    out: values.out,
  };
}

/** The checkpoint's bytes per resource, split by part (./stateSize.ts). */
const stateSizeOf = (engine: Engine): StateSize =>
  stateSizePerResource(engine.checkpoint().deployment.resources ?? []);

const SKIP_CHECKPOINTS = { PULUMI_SKIP_CHECKPOINTS: "true" };

/**
 * `--phases` without the create: makes every stack's resources by a create with PULUMI_SKIP_CHECKPOINTS=true, not
 * measured (the later phases' cost depends on the state, not on how it was written), and says how long each
 * took and how large its checkpoint is.
 */
async function setUpWithoutCheckpoints(
  stacks: RealStack[],
  noop: { engine: Engine } | undefined,
  size: OrgSize,
): Promise<{ how: string; wallMs: Record<string, number>; checkpointBytes: Record<string, number> }> {
  const how = "a create with PULUMI_SKIP_CHECKPOINTS=true in every stack, not measured";
  const wallMs: Record<string, number> = {};
  const bytes: Record<string, number> = {};
  const made = [
    ...stacks.map((s) => ({ name: s.name, engine: s.engine, program: () => declareBenchOrg(size) })),
    ...(noop ? [{ name: "noop", engine: noop.engine, program: () => declareNoopOrg(size) }] : []),
  ];
  for (const { name, engine, program } of made) {
    const started = performance.now();
    const result = await engine.up(program, { env: SKIP_CHECKPOINTS });
    if (!result.ok) throw new Error(`set-up create (${name}) failed: ${result.output.slice(-2000)}`);
    wallMs[name] = performance.now() - started;
    bytes[name] = checkpointBytes(engine);
    console.log(
      `set up ${name}: ${result.steps.create.length} resources created without checkpoints in ` +
        `${(wallMs[name] / 1000).toFixed(1)} s (not measured); checkpoint ${(bytes[name] / 2 ** 20).toFixed(2)} MiB`,
    );
  }
  return { how, wallMs, checkpointBytes: bytes };
}

/** The real provider's stack of one checkpoint variant, in an emulator of its own. */
interface RealStack {
  name: string;
  emulator: EmulatorProcess;
  engine: Engine;
  meter: CliMeter;
  phases: PhaseResult[];
}

async function main(): Promise<void> {
  assertFreshBuild();
  const settings = options();
  const { size, latencyMs, noopLatencyMs, noopHttp, parallelism, limit, windowMs } = settings;
  const tree = treeShape(size.groups);
  const experiences = size.experiences ? tree.sites : 0;
  const resources = size.users + size.groups + size.attachments + experiences;
  const cli = readyPulumiCli();
  const parallelismSource =
    parallelism === DEFAULT_PARALLELISM ? ` (the CLI's default, 4 × ${os.availableParallelism()} CPUs)` : "";
  console.log(
    `bench ${settings.name}: ${size.users} users, ${size.groups} groups (1 root, ${tree.regions} regions, ` +
      `${tree.sites} configured sites), ${size.attachments} attachments` +
      `${experiences ? `, ${experiences} headset experiences` : ""} = ${resources} resources; ` +
      `${limit} requests / ${windowMs / 1000} s, ${latencyMs} ms latency, parallelism ${parallelism}` +
      `${parallelismSource}` +
      `${noopLatencyMs > 0 ? `, the do-nothing provider's create and delete wait ${noopLatencyMs} ms` : ""}` +
      `${noopHttp ? ", the do-nothing provider's create and delete each send a request to a bare HTTP server" : ""}` +
      `${settings.variants.length > 1 ? `; checkpoint variants ${settings.variants.map((v) => v.name).join(", ")}` : ""}` +
      `${settings.noop ? "" : "; no do-nothing provider"}` +
      `${settings.plan.setupCreate ? `; measured: ${settings.plan.measured.join(", ")}, after a create without checkpoints` : ""}; ` +
      `pulumi ${cli.version}, file backend; ${os.cpus().length} CPUs, Node ${process.version}`,
  );
  // The machine may be shared: wall times wait for CPUs that others use, so say how busy it was.
  const loadAtStart = os.loadavg()[0];

  const variants = settings.variants;
  const stacks: RealStack[] = [];
  const bareServer: BareServer | undefined = noopHttp ? await startBareServer(latencyMs) : undefined;
  let noopEngine: Engine | undefined;
  let noopMeter: CliMeter | undefined;
  const floors: CpuMeasure[] = [];
  const stateSizes: { real?: StateSize; noop?: StateSize } = {};
  /** How the stacks were made when the create is not measured: what the record and the output say. */
  let setup:
    { how: string; wallMs: Record<string, number>; checkpointBytes: Record<string, number> } | undefined;

  /**
   * Writes results/bench-<name>.json with the phases measured so far: after every phase (`complete: false`), so
   * that a run stopped early (a large preset on a busy machine) keeps what it measured, and at the end.
   */
  const writeRecord = (complete: boolean): string => {
    fs.mkdirSync(settings.out, { recursive: true });
    const base = path.join(settings.out, `bench-${settings.name}`);
    const phases = stacks[0]?.phases ?? [];
    const record = {
      command: `npm run bench -- ${process.argv.slice(2).join(" ")}`.trim(),
      date: new Date().toISOString(),
      complete,
      machine: {
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model,
        node: process.version,
        pulumi: cli.version,
        loadAverage1m: { start: loadAtStart, end: os.loadavg()[0] },
      },
      size,
      resources,
      measuredPhases: settings.plan.measured,
      ...(setup ? { setup } : {}),
      settings: { latencyMs, noopLatencyMs, noopHttp, parallelism, limit, windowMs },
      phases: phases.map((row, i) => ({
        ...row,
        ...(floors[i] ? { pluginMsPerRequestAboveNoop: perRequestAboveNoopMs(row, floors[i]) } : {}),
      })),
      noopPhases: floors,
      checkpointVariants: stacks.slice(1).map((s) => ({ name: s.name, phases: s.phases })),
      stateBytesPerResource: stateSizes,
    };
    fs.writeFileSync(`${base}.json`, JSON.stringify(record, null, 2) + "\n");
    return base;
  };

  try {
    for (const variant of variants) {
      const emulator = await startEmulatorProcess({ rateLimit: { limit, windowMs }, latencyMs });
      const engine = await createEngine({
        cwd: repoRoot,
        project: "devicemgmt-bench",
        stack: "bench",
        config: { "devicemgmt:baseUrl": emulator.baseUrl },
        secretConfig: { "devicemgmt:apiToken": emulator.tokens.admin },
        parallelism,
        // The lines of retried requests only, to count retries: a line per request would cost the plugin CPU per
        // request that users without a debug log never pay.
        env: { DEVICEMGMT_LOG: "retries", ...variant.env },
      }).catch(async (error: unknown) => {
        await emulator.close();
        throw error;
      });
      stacks.push({ name: variant.name, emulator, engine, meter: cliMeter(engine.cli), phases: [] });
    }
    // The do-nothing provider's stack: same CLI, same plugin binary, same parallelism, default checkpoints.
    if (settings.noop) {
      noopEngine = await createEngine({
        cwd: repoRoot,
        project: "devicemgmt-bench-noop",
        stack: "bench",
        parallelism,
        env: {
          ...(noopLatencyMs > 0 ? { BENCH_NOOP_LATENCY_MS: String(noopLatencyMs) } : {}),
          ...(bareServer ? { BENCH_NOOP_HTTP_ORIGIN: bareServer.origin } : {}),
        },
      });
      noopMeter = cliMeter(noopEngine.cli);
    }
    const noop = noopEngine && noopMeter ? { engine: noopEngine, meter: noopMeter } : undefined;
    const stackSize = (e: Engine) => e.resources().filter((r) => r.custom).length;

    /**
     * The real phase in each checkpoint variant, then the same phase of the do-nothing provider, back to back
     * (the machine is shared).
     */
    const phase = async (
      name: string,
      real: (engine: Engine) => Promise<RunResult>,
      floor: (engine: Engine) => Promise<RunResult>,
      isCreate = false,
    ): Promise<RunResult[]> => {
      const results: RunResult[] = [];
      for (const stack of stacks) {
        const naive = isCreate ? resources : stackSize(stack.engine);
        const context = { ...stack, parallelism, latencyMs, limit, windowMs };
        const { result, row } = await realPhase(context, name, naive, () => real(stack.engine));
        stack.phases.push(row);
        results.push(result);
        // Kept at once: the do-nothing provider's phase after it may take as long again (a large destroy).
        writeRecord(false);
        if (stack !== stacks[0]) console.log(phaseLine(row, undefined, ` (${stack.name})`));
      }
      if (!noop) {
        console.log(phaseLine(stacks[0].phases.at(-1)!));
        writeRecord(false);
        return results;
      }
      const noopResources = isCreate ? resources : stackSize(noop.engine);
      const measured = await measureCpu(name, noopResources, noop.engine, noop.meter, () =>
        floor(noop.engine),
      );
      floors.push(measured.measure);
      results.push(measured.result);
      console.log(phaseLine(stacks[0].phases.at(-1)!, measured.measure));
      writeRecord(false);
      return results;
    };

    const measures = (id: PhaseId) => settings.plan.measured.includes(id);
    if (settings.plan.setupCreate) setup = await setUpWithoutCheckpoints(stacks, noop, size);
    if (measures("create")) {
      await phase(
        "create",
        (e) => e.up(() => declareBenchOrg(size)),
        (e) => e.up(() => declareNoopOrg(size)),
        true,
      );
    }
    stateSizes.real = stateSizeOf(stacks[0].engine);
    if (noopEngine) stateSizes.noop = stateSizeOf(noopEngine);
    if (measures("up-again")) {
      await phase(
        "up again",
        (e) => e.up(() => declareBenchOrg(size)),
        (e) => e.up(() => declareNoopOrg(size)),
      );
    }
    if (measures("refresh")) {
      const refreshed = await phase(
        "refresh",
        (e) => e.refresh(),
        (e) => e.refresh(),
      );
      if (refreshed.some((r) => r.steps.update.length > 0 || r.steps.delete.length > 0)) {
        throw new Error("refresh found changes that nobody made: the reads disagree with the state");
      }
    }
    if (measures("update")) {
      await phase(
        "update",
        (e) => e.up(() => declareBenchOrg(size, 1)),
        (e) => e.up(() => declareNoopOrg(size, 1)),
      );
    }
    if (measures("destroy")) {
      await phase(
        "destroy",
        (e) => e.destroy(),
        (e) => e.destroy(),
      );
    }
  } finally {
    for (const stack of stacks) {
      stack.meter.close();
      await stack.engine.close();
      await stack.emulator.close();
    }
    noopMeter?.close();
    await noopEngine?.close();
    if (bareServer) console.log(`the bare HTTP server answered ${await bareServer.close()} requests`);
    await closeDispatchers();
  }

  const phases = stacks[0].phases;
  const loadAtEnd = os.loadavg()[0];
  console.log(
    `\nload average (1 min) ${loadAtStart.toFixed(1)} at the start, ${loadAtEnd.toFixed(1)} at the end ` +
      `(${os.cpus().length} CPUs)`,
  );
  console.log(
    `\nthe real provider, default checkpoints: wall s is the Engine's call (the \`pulumi\` command and the ` +
      `Automation API's commands around it), pulumi cmd s the operation's CLI process alone; CPU and peak ` +
      `resident set of that CLI process and of its plugin, read from /proc while they ran:\n` +
      requestsTable(phases),
  );
  if (floors.length > 0) {
    console.log(
      `\nplugin CPU per resource, the real provider against a do-nothing provider of the same shape (noop), and ` +
        `the real plugin's CPU above noop per API request; same CLI, plugin and parallelism, same run; a new ` +
        `plugin process per phase:\n` +
        pluginTable(phases, floors),
    );
  }
  console.log(
    `\nthe checkpoint after the create, bytes per resource (compact JSON): the serialized provider ` +
      `(__provider, inputs and outputs), the registration's stack trace, the inputs and outputs without ` +
      `__provider, and the engine's other fields:\n` +
      stateSizeTable(stateSizes),
  );
  const variantPhases: VariantPhases[] = stacks.map((s) => ({ name: s.name, phases: s.phases }));
  if (stacks.length > 1) {
    console.log(
      `\nthe file backend's checkpoints: the real provider's phases with each setting, one after the other, each ` +
        `in an emulator of its own; state MiB is the default's checkpoint file, the larger of before and after:\n` +
        checkpointTable(variantPhases),
    );
  }

  const base = writeRecord(true);
  fs.writeFileSync(
    `${base}.svg`,
    chartSvg(
      `bench ${settings.name}: ${resources} resources, ${latencyMs} ms latency, parallelism ${parallelism}`,
      phases.map((p) => ({ ...p, cliCpu: p.usage.operation.cpu })),
    ),
  );
  console.log(`wrote ${path.relative(process.cwd(), base)}.json and .svg`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
