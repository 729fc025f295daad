/**
 * `npm run bench:split [-- --preset tiny|small|default|large] [--concurrency 2] [--latency-ms 40]`: one organization as
 * one stack against the same organization split into regions (`devicemgmt-export --split`), both with the CLI's
 * default checkpoints, in one run.
 *
 * The bench organization (./benchOrg.ts: a root folder, region folders, sites, users with a role on a site,
 * release channels on sites) is built once in an emulator that keeps a state file (without checkpoints and
 * without a rate limit, to be quick), and exported twice from it — whole, and `--split --split-depth 2` (the
 * root's children are the regions) — with `--only groups,users,attachments`, what the bench declares. Then each
 * export's first `up` (which adopts every object: a step per resource, as a create) runs through the real CLI
 * against its own copy of that organization in an emulator of its own (2000 requests a minute, `--latency-ms`
 * added), each stack in a process of its own (./splitStack.ts): the single program alone; the split one as its
 * README says, the shared program first, then the regions `--concurrency` at a time, then cross-region users.
 * Every stack is made (`pulumi stack init`, its config) before the clock starts; what is timed is the `up`s.
 * Prints each stack's wall time and `pulumi` CPU, and the split organization's first `up` (all stacks, from
 * the shared program's start to the last one's end) against the single stack's. Measured numbers only.
 */
import { fork } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { closeDispatchers } from "../../provider/client";
import { createEngine } from "../engine";
import { runExport } from "../export/support";
import { declareBenchOrg, type OrgSize } from "./benchOrg";
import { startEmulatorProcess } from "./emulatorProcess";
import { assertFreshBuild } from "./freshBuild";
import { findRepoRoot } from "./repoRoot";
import type { SplitStackJob, SplitStackResult } from "./splitStack";

const repoRoot = findRepoRoot(__dirname);
const PROJECT = "bench-org";

const PRESETS: Record<string, OrgSize> = {
  tiny: { users: 20, groups: 10, attachments: 6 },
  small: { users: 200, groups: 40, attachments: 20 },
  default: { users: 1000, groups: 200, attachments: 100 },
  large: { users: 3000, groups: 200, attachments: 100 },
};

/** Builds the organization into `statePath` and writes both exports under `workDir`. */
async function buildAndExport(size: OrgSize, statePath: string, workDir: string): Promise<void> {
  const emulator = await startEmulatorProcess({
    rateLimit: { limit: 1_000_000, windowMs: 60_000 },
    latencyMs: 0,
    statePath,
  });
  try {
    const engine = await createEngine({
      cwd: repoRoot,
      project: "devicemgmt-split-build",
      stack: "build",
      config: { "devicemgmt:baseUrl": emulator.baseUrl },
      secretConfig: { "devicemgmt:apiToken": emulator.tokens.admin },
      env: { PULUMI_SKIP_CHECKPOINTS: "true" },
    });
    try {
      const built = await engine.up(() => declareBenchOrg(size));
      if (!built.ok) throw new Error(`building the organization failed: ${built.output.slice(-2000)}`);
    } finally {
      await engine.close();
    }
    const env = { DEVICEMGMT_BASE_URL: emulator.baseUrl, DEVICEMGMT_API_TOKEN: emulator.tokens.admin };
    const only = ["--only", "groups,users,attachments"];
    for (const [folder, args] of [
      ["single", only],
      ["split", [...only, "--split", "--split-depth", "2"]],
    ] as const) {
      const exported = await runExport([...args], path.join(workDir, folder), PROJECT, env);
      if (exported.code !== 0) throw new Error(`export ${folder} failed: ${exported.stderr}`);
      console.log(`export ${folder}: ${exported.stdout.split("\n")[0]}`);
    }
  } finally {
    await emulator.close();
    await closeDispatchers();
  }
}

/** A stack made ready in a process of its own (./splitStack.ts); `run()` starts its first `up`. */
interface ReadyStack {
  project: string;
  run(): Promise<SplitStackResult>;
}

async function prepareStack(job: SplitStackJob): Promise<ReadyStack> {
  // The plugin resolves `pulumi-devicemgmt/runtime` from the program's folder.
  const modules = path.join(job.dir, "node_modules");
  if (!fs.existsSync(modules)) fs.symlinkSync(path.join(repoRoot, "node_modules"), modules);
  const child = fork(path.join(__dirname, "splitStack.js"), [JSON.stringify(job)], { stdio: "inherit" });
  const outcome = new Promise<SplitStackResult>((resolve, reject) => {
    child.on("message", (message: { result?: SplitStackResult }) => {
      if (!message.result) return;
      const { result } = message;
      if (result.errors.length) reject(new Error(`${job.project}: ${result.errors.join("\n")}`));
      else resolve(result);
    });
    child.on("exit", (code) => reject(new Error(`${job.project}: exited with ${code} before its result`)));
  });
  outcome.catch(() => undefined); // awaited by run(); a stack never run must not be an unhandled rejection
  await Promise.race([
    new Promise((resolve) => child.once("message", resolve)),
    outcome.then(() => Promise.reject(new Error(`${job.project}: ended before it was ready`))),
  ]);
  return {
    project: job.project,
    run: () => {
      child.send("go");
      return outcome;
    },
  };
}

/** Runs `jobs` at most `concurrency` at a time, each as soon as one ends. */
async function pool<T, R>(jobs: T[], concurrency: number, run: (job: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await run(jobs[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, worker));
  return results;
}

/** The split programs' folders in the order their README gives: shared, the regions, cross-region. */
function splitFolders(dir: string): { shared: string[]; regions: string[]; after: string[] } {
  const folders = fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((f) => f.isDirectory() && fs.existsSync(path.join(dir, f.name, "index.ts")))
    .map((f) => f.name);
  return {
    shared: folders.filter((f) => f === "shared"),
    regions: folders.filter((f) => f !== "shared" && f !== "cross-region"),
    after: folders.filter((f) => f === "cross-region"),
  };
}

const seconds = (ms: number) => (ms / 1000).toFixed(2);

async function main(): Promise<void> {
  assertFreshBuild();
  const { values } = parseArgs({
    options: {
      preset: { type: "string", default: "default" },
      concurrency: { type: "string", default: "2" },
      "latency-ms": { type: "string", default: "40" },
    },
  });
  const size = PRESETS[values.preset];
  if (!size) throw new Error(`--preset must be one of ${Object.keys(PRESETS).join(", ")}`);
  const concurrency = Number(values.concurrency);
  const latencyMs = Number(values["latency-ms"]);
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "devicemgmt-split-bench-"));
  const load = () => os.loadavg()[0].toFixed(1);
  console.log(
    `split bench ${values.preset}: ${size.users} users, ${size.groups} groups, ${size.attachments} attachments; ` +
      `regions ${concurrency} at a time; ${new Date().toISOString()}, load average ${load()}`,
  );
  try {
    const statePath = path.join(workDir, "organization.json");
    await buildAndExport(size, statePath, workDir);
    /** Makes every stack ready (`prepare`) against a fresh copy of the organization, then times `stages`. */
    const measure = async (
      name: string,
      prepare: (ctx: StageContext) => Promise<Record<string, ReadyStack>>,
      stages: (ready: Record<string, ReadyStack>) => Promise<SplitStackResult[]>,
    ) => {
      const copy = path.join(workDir, `organization-${name}.json`);
      fs.copyFileSync(statePath, copy);
      const emulator = await startEmulatorProcess({
        rateLimit: { limit: 2000, windowMs: 60_000 },
        latencyMs,
        statePath: copy,
      });
      try {
        const ready = await prepare({ baseUrl: emulator.baseUrl, token: emulator.tokens.admin });
        const before = await emulator.stats();
        const started = performance.now();
        const results = await stages(ready);
        const wallMs = performance.now() - started;
        const after = await emulator.stats();
        return { wallMs, results, requests: after.requests - before.requests };
      } finally {
        await emulator.close();
      }
    };
    const job = (ctx: StageContext, dir: string, project: string): SplitStackJob => ({
      dir,
      project,
      ...ctx,
    });

    const single = await measure(
      "single",
      async (ctx) => ({ single: await prepareStack(job(ctx, path.join(workDir, "single"), PROJECT)) }),
      async (ready) => [await ready.single.run()],
    );
    console.log(
      `single stack: ${single.results[0].created} resources, ${seconds(single.wallMs)} s, ` +
        `pulumi CPU ${single.results[0].cliCpu.toFixed(2)} s, ${single.requests} requests; load average ${load()}`,
    );

    const splitDir = path.join(workDir, "split");
    const folders = splitFolders(splitDir);
    const all = [...folders.shared, ...folders.regions, ...folders.after];
    const split = await measure(
      "split",
      // One at a time: making a stack runs the CLI a few times, and nothing is timed yet.
      async (ctx) => {
        const ready: Record<string, ReadyStack> = {};
        for (const folder of all) {
          ready[folder] = await prepareStack(job(ctx, path.join(splitDir, folder), `${PROJECT}-${folder}`));
        }
        return ready;
      },
      async (ready) => {
        const stack = (folder: string) => ready[folder].run();
        const shared = await pool(folders.shared, 1, stack);
        const regions = await pool(folders.regions, concurrency, stack);
        const after = await pool(folders.after, 1, stack);
        return [...shared, ...regions, ...after];
      },
    );
    console.log(
      `\n| stack | resources | wall s | pulumi CPU s | plugin CPU s |\n| --- | ---: | ---: | ---: | ---: |`,
    );
    for (const r of [...single.results, ...split.results]) {
      console.log(
        `| ${r.project} | ${r.created} | ${seconds(r.wallMs)} | ${r.cliCpu.toFixed(2)} | ${r.pluginCpu.toFixed(2)} |`,
      );
    }
    const sum = (rs: SplitStackResult[], f: (r: SplitStackResult) => number) =>
      rs.reduce((s, r) => s + f(r), 0);
    const splitCreated = sum(split.results, (r) => r.created);
    const splitCpu = sum(split.results, (r) => r.cliCpu);
    console.log(
      `\nfirst up, all stacks: single ${seconds(single.wallMs)} s (${single.results[0].created} resources, ` +
        `pulumi CPU ${single.results[0].cliCpu.toFixed(2)} s, ${single.requests} requests); split into ` +
        `${split.results.length} stacks, regions ${concurrency} at a time, ${seconds(split.wallMs)} s ` +
        `(${splitCreated} resources, pulumi CPU ${splitCpu.toFixed(2)} s in all, ${split.requests} requests); ` +
        `split / single wall ${(split.wallMs / single.wallMs).toFixed(3)}, pulumi CPU ` +
        `${(splitCpu / single.results[0].cliCpu).toFixed(3)}; ${new Date().toISOString()}, load average ${load()}`,
    );
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

interface StageContext {
  baseUrl: string;
  token: string;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
