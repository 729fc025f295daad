/**
 * Pulumi programs run by the real Pulumi CLI (tools/pulumi-cli), through the Automation API: each Engine is one
 * stack in a throwaway folder (file backend, passphrase secrets, its own PULUMI_HOME, nothing fetched), the
 * program an inline program of this process, and every operation a real `pulumi up / preview / refresh /
 * destroy` whose engine events become a RunResult. The CLI-only commands (`state taint`, `stack export` and
 * `import`, `cancel`) run the same binary.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { LocalWorkspace, type ConfigMap, type EngineEvent, type Stack } from "@pulumi/pulumi/automation";
import { offlineEnvironment } from "../../tools/pulumi-cli";
import { trackedCommand, type TrackedCommand } from "./command";
import { foldEvents, isEngineResource, plainOutputs, runResult } from "./events";
import { checkpointFile, pendingOperations, readCheckpoint, resourceViews } from "./state";
import { ownSubchannelPoolPerClient } from "./subchannels";
import { callingTest, track, untrack } from "./fence";
import { hostProgramErrors, ignoreDeadEngineErrors } from "./hostEvents";
import type { EngineOptions, PendingOperation, Program, ResourceView, RunOptions, RunResult } from "./types";

export * from "./types";
export { nameOf } from "./events";

const PASSPHRASE = "devicemgmt-tests";

ownSubchannelPoolPerClient();
const MUTATING_OPS = new Set(["create", "update", "delete", "create-replacement", "delete-replaced"]);

function configMap(config: Record<string, string> = {}, secret: Record<string, string> = {}): ConfigMap {
  return {
    ...Object.fromEntries(Object.entries(config).map(([key, value]) => [key, { value }])),
    ...Object.fromEntries(Object.entries(secret).map(([key, value]) => [key, { value, secret: true }])),
  };
}

export class Engine {
  private output = "";
  private busy = false;
  private launchers = 0;
  /** The operation running now: a test that timed out may leave one (fence.ts). */
  private running: Promise<unknown> | undefined;

  private constructor(
    readonly stack: Stack,
    readonly folder: string,
    private readonly env: Record<string, string>,
    readonly cli: TrackedCommand,
    private readonly options: EngineOptions,
    private readonly project: string,
    private readonly stackName: string,
  ) {}

  static async create(options: EngineOptions): Promise<Engine> {
    const project = options.project ?? "devicemgmt-test";
    const stackName = options.stack ?? "test";
    const folder = mkdtempSync(join(tmpdir(), "devicemgmt-stack-"));
    const env = { ...offlineEnvironment(folder, PASSPHRASE), ...options.env };
    const cli = await trackedCommand();
    const stack = await LocalWorkspace.createOrSelectStack(
      { projectName: project, stackName, program: async () => undefined },
      {
        pulumiCommand: cli.command,
        envVars: env,
        workDir: folder,
        // `main` is the plugin's working directory: require("pulumi-devicemgmt/runtime") resolves from there.
        projectSettings: { name: project, runtime: "nodejs", main: options.cwd },
      },
    );
    const config = configMap(options.config, options.secretConfig);
    if (Object.keys(config).length) await stack.setAllConfig(config);
    // After each up, refresh and destroy the Automation API asks for the outputs (`stack output`, twice) and the
    // summary (`stack history`): three more CLI processes per operation. The outputs come from the run's own
    // events here and the summary is not used, so neither is asked for.
    Object.assign(stack, { outputs: async () => ({}), info: async () => undefined });
    const engine = new Engine(stack, folder, env, cli, options, project, stackName);
    track(engine);
    return engine;
  }

  /** Everything the CLI printed and every diagnostic it reported (the plugins' stderr included), so far. */
  stderr(): string {
    return this.output;
  }

  private get backend(): string {
    return this.env.PULUMI_BACKEND_URL.replace(/^file:\/\//, "");
  }

  /** The file the file backend keeps the stack's checkpoint in (`<backend>/.pulumi/stacks/<project>/<stack>.json`). */
  checkpointFile(): string {
    return checkpointFile(this.backend, this.project, this.stackName);
  }

  /** The checkpoint as `pulumi stack export` shows it (secrets encrypted), read from the file backend. */
  checkpoint(): { version: number; deployment: ReturnType<typeof readCheckpoint>["deployment"] } {
    return readCheckpoint(this.checkpointFile());
  }

  resources(): ResourceView[] {
    return resourceViews(this.checkpoint().deployment);
  }

  /** The resource of that name (or URN); throws when the state has none. */
  resource(nameOrUrn: string): ResourceView {
    const found = this.resources().filter((r) => r.urn === nameOrUrn || r.name === nameOrUrn);
    const live = found.find((r) => !r.pendingDelete) ?? found[0];
    if (!live) throw new Error(`no resource "${nameOrUrn}" in the stack's state`);
    return live;
  }

  pending(): PendingOperation[] {
    return pendingOperations(this.checkpoint().deployment);
  }

  private urnOf(nameOrUrn: string): string {
    if (nameOrUrn.startsWith("urn:")) return nameOrUrn;
    return this.resource(nameOrUrn).urn;
  }

  /** Runs a CLI command of this stack (`pulumi <args> --stack <stack>`) and returns its stdout. */
  async cliCommand(args: string[]): Promise<string> {
    const result = await this.cli.run([...args, "--stack", this.stackName], this.folder, this.env);
    // Only what the CLI says on stderr is kept: stdout may be an export with `--show-secrets`.
    this.output += result.stderr;
    return result.stdout;
  }

  /** `pulumi state taint`: the next `up` replaces these. */
  async taint(...namesOrUrns: string[]): Promise<void> {
    await this.cliCommand(["state", "taint", ...namesOrUrns.map((n) => this.urnOf(n)), "--yes"]);
  }

  /** `pulumi state untaint` (or `--all`). */
  async untaint(namesOrUrns: string[] | "all"): Promise<void> {
    const targets = namesOrUrns === "all" ? ["--all"] : namesOrUrns.map((n) => this.urnOf(n));
    await this.cliCommand(["state", "untaint", ...targets, "--yes"]);
  }

  /** `pulumi stack export --file` (with `--show-secrets`: the secrets in plain text, for tools that need them). */
  async saveState(file: string, options: { showSecrets?: boolean } = {}): Promise<void> {
    await this.cliCommand([
      "stack",
      "export",
      "--file",
      file,
      ...(options.showSecrets ? ["--show-secrets"] : []),
    ]);
  }

  /** `pulumi stack import --file`: a deployment whose secrets are plain text is encrypted by this stack. */
  async loadState(file: string): Promise<void> {
    await this.cliCommand(["stack", "import", "--file", file]);
  }

  /** Writes a deployment object to a file in the stack's folder and imports it. */
  async importDeployment(deployment: unknown): Promise<void> {
    const file = join(this.folder, "import.json");
    writeFileSync(file, JSON.stringify(deployment));
    await this.loadState(file);
  }

  /** `pulumi cancel`: clears the lock a killed CLI left in the file backend. */
  async cancel(): Promise<void> {
    await this.cliCommand(["cancel", "--yes"]);
  }

  up(program: Program, options: RunOptions = {}): Promise<RunResult> {
    return this.run("up", program, options);
  }

  preview(program: Program, options: RunOptions = {}): Promise<RunResult> {
    return this.run("preview", program, options);
  }

  refresh(options: RunOptions = {}): Promise<RunResult> {
    return this.run("refresh", undefined, options);
  }

  destroy(options: RunOptions = {}): Promise<RunResult> {
    return this.run("destroy", undefined, options);
  }

  private async run(
    kind: "up" | "preview" | "refresh" | "destroy",
    program: Program | undefined,
    options: RunOptions,
  ): Promise<RunResult> {
    const caller = callingTest();
    if (caller?.ended) {
      throw new Error(`"${caller.name}" has ended (timed out?): its later operations are not run`);
    }
    if (this.busy) throw new Error("one operation at a time: the previous one has not finished");
    this.busy = true;
    const operation = this.runOnce(kind, program, options);
    this.running = operation;
    try {
      return await operation;
    } finally {
      this.busy = false;
      this.running = undefined;
    }
  }

  /**
   * After a test (fence.ts): waits up to `waitMs` for an operation still running, then kills it (and clears the
   * lock it leaves), so that the next test finds the engine idle. Nothing to do after a test that finished.
   */
  async settle(waitMs: number): Promise<void> {
    const operation = this.running;
    if (!operation) return;
    let timer: NodeJS.Timeout | undefined;
    const done = await Promise.race([
      operation.then(
        () => true,
        () => true,
      ),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), waitMs))),
    ]);
    clearTimeout(timer);
    if (done) return;
    this.kill();
    await operation.catch(() => undefined);
    await this.cancel().catch(() => undefined);
  }

  private async runOnce(
    kind: "up" | "preview" | "refresh" | "destroy",
    program: Program | undefined,
    options: RunOptions,
  ): Promise<RunResult> {
    const config = configMap(options.config, options.secretConfig);
    if (Object.keys(config).length) await this.stack.setAllConfig(config);
    const workspace = this.stack.workspace as LocalWorkspace;
    if (program) workspace.program = async () => (await program()) as Record<string, unknown> | void;
    const runEnv = { ...this.env, ...options.env };
    Object.assign(workspace.envVars, runEnv);

    const events: EngineEvent[] = [];
    let output = "";
    let started = 0;
    let interrupted = false;
    const onEvent = (event: EngineEvent) => {
      events.push(event);
      const pre = event.resourcePreEvent;
      if (options.interruptAfter === undefined || interrupted || !pre || pre.planning) return;
      if (isEngineResource(pre.metadata.type) || !MUTATING_OPS.has(pre.metadata.op)) return;
      if (++started < options.interruptAfter) return;
      interrupted = true;
      const when = options.interruptWhen ?? (() => new Promise((resolve) => setTimeout(resolve, 50)));
      void when().then(() => this.kill());
    };
    const common = {
      onEvent,
      onOutput: (data: string) => (output += data),
      onError: (data: string) => (output += data),
      ...((options.parallelism ?? this.options.parallelism)
        ? { parallel: options.parallelism ?? this.options.parallelism }
        : {}),
      ...(options.target ? { target: options.target.map((t) => this.targetOf(t)) } : {}),
      ...(options.targetDependents ? { targetDependents: true } : {}),
      ...(options.exclude ? { exclude: options.exclude.map((t) => this.targetOf(t)) } : {}),
      ...(options.excludeDependents ? { excludeDependents: true } : {}),
      ...(options.continueOnError ? { continueOnError: true } : {}),
      ...(options.expectNoChanges ? { expectNoChanges: true } : {}),
    };
    // The CLI runs in the stack's folder: the packs and their config files are given from the program's folder.
    const policies = {
      ...(options.policyPacks
        ? { policyPacks: options.policyPacks.map((p) => this.policyPackLauncher(p)) }
        : {}),
      ...(options.policyPackConfigs
        ? { policyPackConfigs: options.policyPackConfigs.map((p) => resolve(this.options.cwd, p)) }
        : {}),
    };
    let ok = true;
    let failure: string | undefined;
    const restoreHostErrors = hostProgramErrors();
    try {
      if (kind === "up" || kind === "preview") {
        const withProgram = {
          ...common,
          ...policies,
          ...(options.replace ? { replace: options.replace.map((r) => this.urnOf(r)) } : {}),
          ...(options.refresh ? { refresh: true } : {}),
        };
        await (kind === "up" ? this.stack.up(withProgram) : this.stack.preview(withProgram));
      } else if (kind === "refresh") {
        await this.stack.refresh({
          ...common,
          ...(options.clearPendingCreates ? { clearPendingCreates: true } : {}),
        });
      } else {
        await this.stack.destroy(common);
      }
    } catch (error) {
      ok = false;
      failure = (error as Error).message;
    } finally {
      restoreHostErrors();
      for (const key of Object.keys(options.env ?? {})) {
        if (key in this.env) workspace.envVars[key] = this.env[key];
        else delete workspace.envVars[key];
      }
    }
    if (interrupted) {
      // A killed CLI leaves its lock in the file backend: a person runs `pulumi cancel` before the next command.
      await this.cancel().catch(() => undefined);
    }
    const folded = foldEvents(
      events,
      kind === "refresh" ? "refresh" : options.refresh ? "before-program" : "none",
    );
    this.output += output + folded.diagnostics;
    return runResult(
      folded,
      { ok, output, interrupted, failure },
      plainOutputs(folded.stackOutputs ?? {}),
      Boolean(options.refresh),
    );
  }

  /** What `--policy-pack` gets for `pack` (see policyPackLauncher), in this engine's folder. */
  private policyPackLauncher(pack: string): string {
    return policyPackLauncher(
      resolve(this.options.cwd, pack),
      join(this.folder, "policy-packs", String(this.launchers++)),
    );
  }

  /**
   * The CLI takes URNs (and URN globs) only. A name given to a test becomes its URN from the state; a name the
   * state does not hold yet (a resource the program is about to create) becomes the glob of that name under
   * this stack, since its type is not known before the program runs: like every glob, it is no error when it
   * matches nothing.
   */
  private targetOf(target: string): string {
    if (target.startsWith("urn:") || target.includes("*")) return target;
    const known = this.resources().find((r) => r.name === target);
    return known ? known.urn : `urn:pulumi:${this.stackName}::${this.project}::**::${target}`;
  }

  /** Kills the CLI: the program it ran may still be waiting on it, and fails later (hostEvents.ts). */
  private kill(): void {
    if (this.running) ignoreDeadEngineErrors();
    this.cli.killAll();
  }

  async close(): Promise<void> {
    untrack(this);
    this.kill();
    // The killed operation ends before its folder goes, so that it does not fail on a folder half removed.
    await this.running?.catch(() => undefined);
    rmSync(this.folder, { recursive: true, force: true });
  }
}

/**
 * What `--policy-pack` gets for a Node.js pack folder. The CLI (3.274) starts a folder's pack only through the
 * nodejs language host's RunPlugin (resource/plugin/plugin.go, execPlugin: "loading runtime"); it no longer
 * falls back to a `pulumi-analyzer-policy-nodejs` shim, and this build has no language host, so a folder fails
 * with "no language plugin 'pulumi-language-nodejs' found". A file it starts as a binary analyzer, with the
 * engine's address as its one argument (analyzer_plugin.go, NewPolicyAnalyzer). So the pack gets a launcher in
 * `launchers` (a new folder) that does what the language host does: `node @pulumi/pulumi/cmd/run-policy-pack
 * <engine> .` in the pack's folder, the SDK resolved from there. The pack's policies, its config file and the
 * engine's verdicts are the CLI's own; only the stack config (PULUMI_CONFIG) is not in the pack's environment.
 * A folder that is not a Node.js pack is returned as it is.
 */
export function policyPackLauncher(folder: string, launchers: string): string {
  const manifest = join(folder, "PulumiPolicy.yaml");
  if (!existsSync(manifest) || !/^runtime:\s*nodejs\s*$/m.test(readFileSync(manifest, "utf8"))) return folder;
  mkdirSync(launchers, { recursive: true });
  const launcher = join(launchers, basename(folder));
  const quoted = `'${folder.replace(/'/g, `'\\''`)}'`;
  writeFileSync(
    launcher,
    `#!/bin/sh\ncd ${quoted} || exit 1\n` +
      `run=$(node -p 'require.resolve("@pulumi/pulumi/cmd/run-policy-pack")') && exec node "$run" "$1" .\n`,
    { mode: 0o755 },
  );
  return launcher;
}

export function createEngine(options: EngineOptions): Promise<Engine> {
  return Engine.create(options);
}
