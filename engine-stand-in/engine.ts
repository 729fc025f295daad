/**
 * An engine stand-in: runs a real Pulumi program (a function using the real SDK) in this process and drives
 * every dynamic resource through the real dynamic-provider plugin (plugin.ts) the way `pulumi up`, `preview`,
 * `refresh` and `destroy` do. See README.md for what it mirrors of the real engine and what not.
 *
 * Each run gets a fresh SDK runtime (the SDK's per-run local storage, as the Automation API uses for inline
 * programs) whose resource monitor is this engine; state is kept in memory between runs.
 */
import * as fs from "fs";
import * as runtimeConfig from "@pulumi/pulumi/runtime/config";
import * as stackRuntime from "@pulumi/pulumi/runtime/stack";
import { checkpointOf, restoreCheckpoint, SecretsCipher } from "./checkpoint";
import { Deployment, newResult, type Mode } from "./deployment";
import { trackProgramHandles } from "./eventLoop";
import { EngineMonitor, reportUnhandledRejectionsTo, runGuarded } from "./monitor";
import { UNKNOWN, startProviderPlugin, type ProviderPlugin } from "./plugin";
import { pendingOperationsWarning, pluginConfigEnv, type ProviderConfig } from "./providerConfig";
import { refreshBeforeProgram, refreshState } from "./refresh";
import { refuseTargetAndExclude } from "./targets";
import { taintResources, untaintResources } from "./stateEdits";
import { defaultParallelism, Limiter, OS_DEFAULT_PARALLELISM } from "./schedule";
import type {
  EngineOptions,
  PendingOperation,
  Program,
  ResourceView,
  RunOptions,
  RunResult,
  StateEntry,
} from "./types";
import { ROOT_STACK_TYPE, configArgs, reveal, secretKeysOf, viewOf } from "./values";

export { UNKNOWN };
export type * from "./types";

// Internal SDK entry points (not in its typings) that the Automation API uses to run inline programs.
const sdkState: {
  withLocalStorage<T>(run: () => Promise<T>): Promise<T>;
  getStore(): Record<string, unknown>;
} = require("@pulumi/pulumi/runtime/state");
const sdkSettings: {
  setMockOptions(monitor: object, project: string, stack: string, preview: boolean): void;
  waitForRPCs(): Promise<void>;
} = require("@pulumi/pulumi/runtime/settings");

/** The CLI's default --parallel without PULUMI_PARALLEL: 4 × GOMAXPROCS (pkg/cmd/pulumi/operations/up.go). */
export const DEFAULT_PARALLELISM = OS_DEFAULT_PARALLELISM;

export class Engine {
  private state: StateEntry[] = [];
  /** The default provider's inputs at the last `up`: what refresh and destroy configure the plugin with. */
  private storedProviderConfig?: ProviderConfig;
  private pendingOperations: PendingOperation[] = [];
  private current?: { plugin: ProviderPlugin };
  private closedPluginsStderr = "";
  private busy = false;
  private cipher = new SecretsCipher();
  private readonly project: string;
  private readonly stack: string;

  constructor(private readonly options: EngineOptions) {
    this.project = options.project ?? "test-project";
    this.stack = options.stack ?? "test";
  }

  /** Runs the program and reconciles: check, then create, or diff and update/replace; then deletes. */
  up(program: Program, options: RunOptions = {}): Promise<RunResult> {
    return this.exclusive(options, () => this.runProgram("up", program, options));
  }

  /** Runs the program as a preview: check and diff only, no create/update/delete; state is unchanged. */
  preview(program: Program, options: RunOptions = {}): Promise<RunResult> {
    return this.exclusive(options, () => this.runProgram("preview", program, options));
  }

  /**
   * `pulumi refresh`: Read, then Diff, for every resource (or the `target` / `exclude` selection), with the config
   * stored at the last `up` (not the current stack config). Drift updates the state (steps "update"), vanished
   * resources leave it ("delete") and what pointed at them is repaired (refresh.ts).
   */
  refresh(options: RunOptions = {}): Promise<RunResult> {
    return this.exclusive(options, () => this.runRefresh(options));
  }

  /** `pulumi destroy`: deletes every resource, configured with the config stored at the last `up`. */
  destroy(options: RunOptions = {}): Promise<RunResult> {
    return this.exclusive(options, () => this.runDestroy(options));
  }

  private async exclusive(options: RunOptions, operation: () => Promise<RunResult>): Promise<RunResult> {
    refuseTargetAndExclude(options);
    if (this.busy) {
      throw new Error(
        "the engine runs one operation at a time: await the previous up/preview/refresh/destroy",
      );
    }
    this.busy = true;
    try {
      return await operation();
    } finally {
      this.busy = false;
    }
  }

  private async runRefresh(options: RunOptions): Promise<RunResult> {
    const { plugin, release } = await this.pluginFor(options, this.storedProviderConfig);
    const result = newResult();
    try {
      this.state = await refreshState(plugin, this.state, this.limiterFor(options), result, options);
    } finally {
      await release();
    }
    // No pending-operations warning on refresh (see pendingOperationsWarning). `--clear-pending-creates` drops
    // the pending creates from the state before the refresh (pkg/cmd/pulumi/operations/refresh.go).
    this.savePending([], options.clearPendingCreates ? [] : this.pendingOperations);
    return result;
  }

  private async runDestroy(options: RunOptions): Promise<RunResult> {
    const { plugin, release } = await this.pluginFor(options, this.storedProviderConfig);
    const deployment = this.newDeployment("destroy", plugin, options);
    if (this.pendingOperations.length > 0) {
      deployment.result.warnings.push(pendingOperationsWarning(this.pendingOperations));
    }
    try {
      await deployment.destroyAll();
    } finally {
      await release();
    }
    this.state = deployment.newState();
    this.savePending(deployment.inFlightOperations);
    return deployment.finalResult();
  }

  /** The resources in the state (the root stack left out), in state order. */
  resources(): ResourceView[] {
    return this.state.filter((e) => e.type !== ROOT_STACK_TYPE).map(viewOf);
  }

  /** The one resource with this name (or URN); throws when there is none or several. */
  resource(nameOrUrn: string): ResourceView {
    const matches = this.resources().filter((r) => r.name === nameOrUrn || r.urn === nameOrUrn);
    if (matches.length !== 1) {
      throw new Error(`expected one resource named ${nameOrUrn} in the state, found ${matches.length}`);
    }
    return matches[0];
  }

  /** `pulumi state taint`: the next `up` replaces these resources (URNs or names; see stateEdits.ts). */
  taint(...targets: string[]): void {
    this.state = taintResources(this.state, targets);
  }

  /** `pulumi state untaint` (URNs or names; `"all"` for `--all`): the next `up` no longer replaces them. */
  untaint(targets: string[] | "all"): void {
    this.state = untaintResources(this.state, targets);
  }

  /** Operations an interrupted run left under way (the checkpoint's pending_operations). */
  pending(): PendingOperation[] {
    return [...this.pendingOperations];
  }

  /** The config the plugin was configured with at the last `up` (the default provider's stored inputs). */
  storedConfig(): Record<string, string> | undefined {
    return this.storedProviderConfig ? { ...this.storedProviderConfig.config } : undefined;
  }

  /**
   * The pending operations a run leaves in the state (pkg/backend/snapshot.go, snap()): its own unfinished
   * operations, then only the pending creates of the previous state (those need the user to clear them).
   */
  private savePending(unfinished: Iterable<PendingOperation>, previous = this.pendingOperations): void {
    this.pendingOperations = [...unfinished, ...previous.filter((op) => op.type === "creating")];
  }

  /** The state as a checkpoint (the shape `pulumi stack export` gives), secrets encrypted. */
  checkpoint(): object {
    const stored = this.storedProviderConfig;
    const providerInputs = stored ? configArgs(stored.config, stored.secretKeys) : undefined;
    return checkpointOf(
      `urn:pulumi:${this.stack}::${this.project}`,
      this.state,
      providerInputs,
      this.pendingOperations,
      this.cipher,
    );
  }

  /** Writes `checkpoint()` as JSON to `file`. */
  async saveState(file: string): Promise<void> {
    await fs.promises.writeFile(file, JSON.stringify(this.checkpoint(), null, 2));
  }

  /**
   * Continues the stack from a checkpoint `saveState` wrote, by this stand-in or an older one (a state an older
   * release of the package wrote: test/fixtures/checkpoint-0.1.0), whose secrets were encrypted with
   * `secretsKey`; this engine's checkpoints are encrypted with that key from then on.
   */
  async loadState(file: string, secretsKey: Buffer): Promise<void> {
    this.cipher = new SecretsCipher(secretsKey);
    const restored = restoreCheckpoint(JSON.parse(await fs.promises.readFile(file, "utf8")), this.cipher);
    this.state = restored.state;
    this.pendingOperations = restored.pending;
    this.storedProviderConfig = restored.providerInputs && {
      config: reveal(restored.providerInputs) as Record<string, string>,
      secretKeys: secretKeysOf(restored.providerInputs),
    };
  }

  /** The value inside a checkpoint secret envelope, to check what was stored. */
  decryptSecret(ciphertext: string): unknown {
    return this.cipher.decrypt(ciphertext);
  }

  /** Everything the plugin processes of this engine wrote to stderr. */
  stderr(): string {
    return this.closedPluginsStderr + (this.current?.plugin.stderr() ?? "");
  }

  /** Sets plugin environment for the following operations (each starts its own plugin process). */
  async restartPlugin(options: { env?: Record<string, string> } = {}): Promise<void> {
    if (options.env) this.options.env = { ...this.options.env, ...options.env };
    await this.closePlugin();
  }

  async close(): Promise<void> {
    await this.closePlugin();
  }

  private async closePlugin(plugin = this.current?.plugin): Promise<void> {
    if (!plugin) return;
    if (this.current?.plugin === plugin) this.current = undefined;
    await plugin.close();
    this.closedPluginsStderr += plugin.stderr();
  }

  private limiterFor(options: RunOptions): Limiter {
    // --parallel, else PULUMI_PARALLEL from the CLI's environment, else 4 × CPUs (schedule.ts, defaultParallelism).
    const cliEnv = { ...process.env, ...this.options.env, ...options.env };
    return new Limiter(options.parallelism ?? this.options.parallelism ?? defaultParallelism(cliEnv));
  }

  private configFor(options: RunOptions): ProviderConfig {
    const secrets = { ...this.options.secretConfig, ...options.secretConfig };
    return {
      config: { ...this.options.config, ...options.config, ...secrets },
      secretKeys: Object.keys(secrets),
    };
  }

  /**
   * The plugin for one operation, configured with `providerConfig` (the current stack config unless given).
   * Every CLI command (`pulumi up`, `refresh`, ...) starts the provider plugin afresh, so each operation here
   * gets its own process too: what a provider keeps in memory lasts one operation, as under the real CLI.
   */
  private async pluginFor(
    options: RunOptions,
    providerConfig: ProviderConfig = this.configFor(options),
  ): Promise<{ plugin: ProviderPlugin; release(): Promise<void> }> {
    const { config, secretKeys } = providerConfig;
    const plugin = await startProviderPlugin({
      cwd: this.options.cwd,
      project: this.project,
      stack: this.stack,
      env: { ...pluginConfigEnv(this.configFor(options).config), ...this.options.env, ...options.env },
    });
    this.current = { plugin };
    const release = () => this.closePlugin(plugin);
    try {
      await plugin.configure(config, secretKeys);
    } catch (err) {
      await release();
      throw err;
    }
    return { plugin, release };
  }

  private newDeployment(
    mode: Mode,
    plugin: ProviderPlugin,
    options: RunOptions,
    oldState = this.state,
  ): Deployment {
    return new Deployment({
      mode,
      plugin,
      oldState,
      steps: this.limiterFor(options),
      project: this.project,
      stack: this.stack,
      replace: options.replace,
      interruptAfter: options.interruptAfter,
      interruptWhen: options.interruptWhen,
      continueOnError: options.continueOnError,
      targets: options,
    });
  }

  private async runProgram(
    mode: "up" | "preview",
    program: Program,
    options: RunOptions,
  ): Promise<RunResult> {
    const providerConfig = this.configFor(options);
    const { plugin, release } = await this.pluginFor(options, providerConfig);
    let oldState = this.state;
    let refreshed: RunResult | undefined;
    if (options.refresh) {
      try {
        ({ state: oldState, result: refreshed } = await refreshBeforeProgram(
          {
            plugin,
            current: providerConfig,
            stored: this.storedProviderConfig,
            start: (config) => this.pluginFor(options, config),
          },
          this.state,
          this.limiterFor(options),
          options,
        ));
      } catch (err) {
        await release();
        throw err;
      }
      this.current = { plugin }; // a reader the refresh started is closed: the run's plugin goes on
      // The refresh steps are journaled as they complete: an `up` keeps them even if what follows fails; a
      // preview saves nothing (deployment_executor.go, refresh; DryRun).
      if (mode === "up") this.state = oldState;
      if (!refreshed.ok) {
        // A failed refresh ends the deployment before the program (refresh: BailErrorf).
        await release();
        return { ...refreshed, steps: newResult().steps, refreshSteps: refreshed.steps };
      }
    }
    const deployment = this.newDeployment(mode, plugin, options, oldState);
    // Execute warns about pending operations only when it does not refresh first (deployment_executor.go).
    if (mode === "up" && !options.refresh && this.pendingOperations.length > 0) {
      deployment.result.warnings.push(pendingOperationsWarning(this.pendingOperations));
    }
    const { config, secretKeys } = providerConfig;
    const restoreRejectionHandlers = reportUnhandledRejectionsTo(deployment);
    try {
      await sdkState.withLocalStorage(async () => {
        sdkSettings.setMockOptions(
          new EngineMonitor(deployment),
          this.project,
          this.stack,
          mode === "preview",
        );
        Object.assign(sdkState.getStore(), {
          supportsSecrets: true,
          supportsResourceReferences: true,
          supportsOutputValues: false,
          supportsDeletedWith: true,
          supportsAliasSpecs: true,
          supportsTransforms: false,
          supportsInvokeTransforms: false,
        });
        runtimeConfig.setAllConfig(config, secretKeys);
        const runStore = sdkState.getStore();
        const handles = trackProgramHandles(() => sdkState.getStore() === runStore);
        try {
          const programSettled = (async () => {
            await stackRuntime.runInPulumiStack(() => runGuarded(program, deployment));
            // The program ends at the event loop's beforeExit, not when its promise settles (eventLoop.ts).
            await handles.drained(() => sdkSettings.waitForRPCs());
          })();
          await Promise.race([programSettled, deployment.stopped]);
        } finally {
          handles.stop();
        }
      });
      // The language host's run ends after the program's last turn, in which Node reports the rejections the
      // program left unhandled (they fail the program, and then the deletes do not run).
      await new Promise((resolve) => setImmediate(resolve));
      if (!deployment.result.interrupted) await deployment.finish();
    } finally {
      // Node reports a rejection once the microtasks of its turn have run: let the program's last ones arrive.
      await new Promise((resolve) => setImmediate(resolve));
      restoreRejectionHandlers();
      if (deployment.result.interrupted) await plugin.kill(); // the CLI died, and its plugin with it
      await release();
    }
    if (mode === "up") {
      this.state = deployment.newState();
      // The default provider is registered (with its config as inputs) before any resource that uses it.
      this.storedProviderConfig = providerConfig;
      this.savePending(deployment.inFlightOperations);
    }
    const final = deployment.finalResult();
    if (!refreshed) return final;
    return {
      ...final,
      refreshSteps: refreshed.steps,
      operations: [...refreshed.operations, ...final.operations],
    };
  }
}

/** Creates an engine; its plugin starts with the first run. Call `close()` when done. */
export async function createEngine(options: EngineOptions): Promise<Engine> {
  return new Engine({ ...options });
}
