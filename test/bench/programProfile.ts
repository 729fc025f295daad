/**
 * `node .bench-build/test/bench/programProfile.js [--preset default|small] [--runs 3] [--compare DIR]
 * [--profile-out FILE]`, after compiling the repository into .bench-build as `npm run bench` does (`tsc -p
 * tsconfig.json --outDir .bench-build --rootDir . --noEmit false --declaration false --sourceMap false`) and
 * `npm run build` (the plugin runs dist/).
 *
 * What the program itself costs in an `up` that changes nothing: the bench organization (./benchOrg.ts) is
 * created once (without checkpoints, to be quick) and then `up` runs again `--runs` times, the program inline in
 * this process as `npm run bench` runs it; each time this process's CPU seconds are printed (the program with the
 * SDK, and the Automation API reading the CLI's events). Then one more `up`, under V8's profiler
 * (`inspector`), is folded into time per module (./cpuProfile.ts): this package, `@pulumi/pulumi`, gRPC and
 * protobuf, the Automation API, node itself.
 *
 * `--compare DIR` measures another build of the package side by side: DIR holds its compiled `provider/` (e.g.
 * main's: `git archive main provider` extracted into a folder of the checkout, compiled by `tsc` with this
 * tsconfig into DIR, so that it loads the same `@pulumi/pulumi`); it gets a stack and an emulator of its own, and the runs alternate between
 * the two, so the machine's load falls on both alike. Both use the plugin of this checkout's `dist/`.
 */
import * as fs from "node:fs";
import * as inspector from "node:inspector/promises";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import * as dm from "../../provider";
import { closeDispatchers } from "../../provider/client";
import { createEngine, type Engine } from "../engine";
import { declareBenchOrg, type OrgSize } from "./benchOrg";
import { foldProfile, type CpuProfile, type ProfileFold } from "./cpuProfile";
import { startEmulatorProcess, type EmulatorProcess } from "./emulatorProcess";
import { assertFreshBuild } from "./freshBuild";
import { findRepoRoot } from "./repoRoot";

const repoRoot = findRepoRoot(__dirname);

const PRESETS: Record<string, OrgSize> = {
  small: { users: 200, groups: 40, attachments: 20 },
  default: { users: 1000, groups: 200, attachments: 100 },
};

interface Build {
  name: string;
  devicemgmt: typeof dm;
  emulator?: EmulatorProcess;
  engine?: Engine;
  cpu: number[];
  fold?: ProfileFold;
}

const ownCpu = () => {
  const own = process.cpuUsage();
  return (own.user + own.system) / 1e6;
};

async function noopUp(build: Build, size: OrgSize): Promise<number> {
  const before = ownCpu();
  const result = await build.engine!.up(() => declareBenchOrg(size, 0, build.devicemgmt));
  const cpu = ownCpu() - before;
  if (!result.ok) throw new Error(`${build.name}: up failed: ${result.output.slice(-2000)}`);
  const changed = result.steps.create.length + result.steps.update.length + result.steps.delete.length;
  if (changed > 0) throw new Error(`${build.name}: the up again changed ${changed} resources`);
  return cpu;
}

async function profiledUp(build: Build, size: OrgSize, profileOut?: string): Promise<ProfileFold> {
  const session = new inspector.Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 500 });
  await session.post("Profiler.start");
  try {
    await noopUp(build, size);
  } finally {
    const { profile } = await session.post("Profiler.stop");
    session.disconnect();
    if (profileOut)
      fs.writeFileSync(
        profileOut.replace(/(\.cpuprofile)?$/, `-${build.name}.cpuprofile`),
        JSON.stringify(profile),
      );
    build.fold = foldProfile(profile as CpuProfile, 25);
  }
  return build.fold;
}

function printFold(build: Build): void {
  const fold = build.fold!;
  console.log(`\n${build.name}: profiled up again, ${(fold.sampledMs / 1000).toFixed(2)} s sampled`);
  console.log("| module | self s | self % | total s | total % |\n| --- | ---: | ---: | ---: | ---: |");
  const pct = (ms: number) => ((100 * ms) / fold.sampledMs).toFixed(1);
  for (const m of fold.modules.filter((m) => m.totalMs >= fold.sampledMs / 200)) {
    console.log(
      `| ${m.module} | ${(m.selfMs / 1000).toFixed(2)} | ${pct(m.selfMs)} | ${(m.totalMs / 1000).toFixed(2)} | ${pct(m.totalMs)} |`,
    );
  }
  console.log("\n| frame | module | self ms |\n| --- | --- | ---: |");
  for (const f of fold.functions) console.log(`| ${f.frame} | ${f.module} | ${f.selfMs.toFixed(0)} |`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      preset: { type: "string", default: "default" },
      runs: { type: "string", default: "3" },
      compare: { type: "string" },
      "profile-out": { type: "string" },
      "latency-ms": { type: "string", default: "0" },
    },
  });
  const size = PRESETS[values.preset];
  if (!size) throw new Error(`--preset must be one of ${Object.keys(PRESETS).join(", ")}`);
  const runs = Number(values.runs);
  assertFreshBuild();
  const builds: Build[] = [];
  if (values.compare) {
    const dir = path.resolve(values.compare);
    builds.push({
      name: path.basename(dir),
      devicemgmt: require(path.join(dir, "provider")) as typeof dm,
      cpu: [],
    });
  }
  builds.push({ name: "this", devicemgmt: dm, cpu: [] });
  console.log(`${new Date().toISOString()} load ${os.loadavg()[0].toFixed(1)}, preset ${values.preset}`);
  try {
    for (const build of builds) {
      build.emulator = await startEmulatorProcess({
        rateLimit: { limit: 1_000_000, windowMs: 60_000 },
        latencyMs: Number(values["latency-ms"]),
      });
      build.engine = await createEngine({
        cwd: repoRoot,
        project: "devicemgmt-program-profile",
        stack: build.name,
        config: { "devicemgmt:baseUrl": build.emulator.baseUrl },
        secretConfig: { "devicemgmt:apiToken": build.emulator.tokens.admin },
        env: { PULUMI_SKIP_CHECKPOINTS: "true" },
      });
      const created = await build.engine.up(() => declareBenchOrg(size, 0, build.devicemgmt));
      if (!created.ok) throw new Error(`${build.name}: create failed: ${created.output.slice(-2000)}`);
      console.log(`${build.name}: created ${created.steps.create.length} resources`);
    }
    for (let run = 0; run < runs; run++) {
      for (const build of builds) {
        const cpu = await noopUp(build, size);
        build.cpu.push(cpu);
        console.log(`run ${run + 1} ${build.name}: program process CPU ${cpu.toFixed(2)} s`);
      }
    }
    for (const build of builds) await profiledUp(build, size, values["profile-out"]);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    for (const build of builds) {
      console.log(
        `${build.name}: CPU s ${build.cpu.map((c) => c.toFixed(2)).join(", ")}; median ${median(build.cpu).toFixed(2)}`,
      );
      printFold(build);
    }
    if (builds.length === 2 && runs > 0) {
      const ratios = builds[1].cpu.map((c, i) => c / builds[0].cpu[i]);
      console.log(
        `\n${builds[1].name} / ${builds[0].name} CPU per run: ${ratios.map((r) => r.toFixed(2)).join(", ")}`,
      );
    }
    console.log(`${new Date().toISOString()} load ${os.loadavg()[0].toFixed(1)}`);
  } finally {
    for (const build of builds) {
      await build.engine?.close();
      await build.emulator?.close();
    }
    await closeDispatchers();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
