/**
 * One stack of ./split.ts, in a process of its own (forked, with an IPC channel): the Pulumi SDK keeps the
 * running program's settings in module state, so two inline programs cannot run side by side in one process.
 * It makes the stack (`pulumi stack init`, its config), says `ready`, and on `go` runs the first `up` of one
 * exported program (the generated index.ts, as test/export runs it) through the real CLI with its default
 * checkpoints, and sends back wall time, the `pulumi` process's CPU and the steps: the stack's set-up is not in
 * the time, as it is not in a CI job's `pulumi up`.
 *
 * `fork("splitStack.js", ['{"dir":…,"project":…,"baseUrl":…,"token":…}'])`
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import { closeDispatchers } from "../../provider/client";
import { createEngine, type Engine } from "../engine";
import { generatedProgram } from "../export/support";
import { cliMeter, phaseUsage } from "./proc";

export interface SplitStackJob {
  dir: string;
  project: string;
  baseUrl: string;
  token: string;
}

export interface SplitStackResult {
  project: string;
  wallMs: number;
  cliCpu: number;
  pluginCpu: number;
  created: number;
  changed: number;
  errors: string[];
}

const STACK = "production";

type StackFile = { config?: Record<string, unknown> } & Record<string, unknown>;

/**
 * Puts the exported program's config (its adoption ids among it) into the stack's config file, as a user who
 * copies the exported Pulumi.production.yaml does. Not through `pulumi config set`: at the large preset the
 * single program's adoption ids are one value of more than 128 KiB, more than Linux takes as one argument
 * (E2BIG). The base URL and the token, set through the CLI, stay as they are.
 */
function addExportedConfig(engine: Engine, exportDir: string): void {
  const exported = parseYaml(
    fs.readFileSync(path.join(exportDir, `Pulumi.${STACK}.yaml`), "utf8"),
  ) as StackFile;
  const file = path.join(engine.folder, `Pulumi.${STACK}.yaml`);
  const stack = parseYaml(fs.readFileSync(file, "utf8")) as StackFile;
  const config = { ...(stack.config ?? {}) };
  for (const [key, value] of Object.entries(exported.config ?? {})) {
    if (key === "devicemgmt:baseUrl") continue;
    if (value && typeof value === "object" && "secure" in value) {
      throw new Error(`${exportDir}: ${key} is a secret encrypted for another stack; the bench exports none`);
    }
    config[key] = value;
  }
  fs.writeFileSync(file, stringifyYaml({ ...stack, config }));
}

async function run(job: SplitStackJob): Promise<SplitStackResult> {
  const engine = await createEngine({
    cwd: job.dir,
    project: job.project,
    stack: STACK,
    // The export was read from the organization where it was built; the stacks run against copies of it.
    config: { "devicemgmt:baseUrl": job.baseUrl },
    secretConfig: { "devicemgmt:apiToken": job.token },
  });
  addExportedConfig(engine, job.dir);
  const meter = cliMeter(engine.cli);
  try {
    const go = new Promise((resolve) => process.once("message", resolve));
    process.send!({ ready: true });
    await go;
    const started = performance.now();
    const result = await engine.up(generatedProgram(job.dir));
    const wallMs = performance.now() - started;
    const usage = phaseUsage(meter.take());
    return {
      project: job.project,
      wallMs,
      cliCpu: usage.operation.cpu,
      pluginCpu: usage.plugin.cpu,
      created: result.steps.create.length,
      changed: result.steps.update.length + result.steps.replace.length + result.steps.delete.length,
      errors: result.errors.map((e) => `${e.urn ?? ""}: ${e.message}`),
    };
  } finally {
    meter.close();
    await engine.close();
    await closeDispatchers();
  }
}

if (require.main === module) {
  run(JSON.parse(process.argv[2]) as SplitStackJob)
    .then((result) => process.send!({ result }, () => process.disconnect()))
    .catch((error: unknown) => {
      console.error(error instanceof Error ? (error.stack ?? error.message) : error);
      process.exit(1);
    });
}
