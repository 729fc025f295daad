/**
 * Drives one resource kind through the real dynamic-provider plugin, as the engine does for a single resource:
 * check, then create / diff / update / read / delete, with the `__provider` text a resource of the kind records. The emulator is the API.
 */
import * as path from "path";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../emulator";
import { DeviceMgmtClient } from "../../provider/client";
import type { ResourceKind } from "../../provider/kindKeys";
import { providerText } from "../../provider/dynamic";
import {
  startProviderPlugin,
  type CheckResult,
  type DiffResult,
  type PropertyMap,
  type EngineLog,
  type ProviderPlugin,
  type ReadResult,
} from "./providerPlugin";

export const repoRoot = path.resolve(__dirname, "../..");

/** Group roles in one order (by group, then role), to compare sets. */
export const sortedRoles = (roles: { roleId: string; groupId: string }[]) =>
  [...roles].sort((a, b) => `${a.groupId}/${a.roleId}`.localeCompare(`${b.groupId}/${b.roleId}`));

export interface Stack {
  emulator: RunningEmulator;
  plugin: ProviderPlugin;
  /** An outside actor on the same organization (the admin), for drift and assertions. */
  admin: DeviceMgmtClient;
  /** Another plugin process, configured the same: the engine's next run (nothing of this run's memory). */
  nextRun(): Promise<ProviderPlugin>;
  close(): Promise<void>;
}

export async function startStack(
  options: {
    token?: (e: RunningEmulator) => string;
    config?: Record<string, string>;
    emulator?: EmulatorOptions;
  } = {},
): Promise<Stack> {
  const emulator = await startEmulator({ port: 0, ...options.emulator });
  const token = options.token ? options.token(emulator) : emulator.tokens.admin;
  const plugins: ProviderPlugin[] = [];
  const startPlugin = async () => {
    const started = await startProviderPlugin({
      cwd: repoRoot,
      env: { DEVICEMGMT_API_TOKEN: "", DEVICEMGMT_BASE_URL: "" },
    });
    plugins.push(started);
    await started.configure(
      { "devicemgmt:baseUrl": emulator.baseUrl, "devicemgmt:apiToken": token, ...options.config },
      ["devicemgmt:apiToken"],
    );
    return started;
  };
  const plugin = await startPlugin();
  const admin = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
  return {
    emulator,
    plugin,
    admin,
    nextRun: startPlugin,
    async close() {
      for (const started of plugins) await started.close();
      await emulator.close();
    },
  };
}

/** One declared resource and its state, moved through the plugin step by step. */
export class Managed {
  id = "";
  inputs: PropertyMap = {};
  outputs: PropertyMap = {};
  private constructor(
    private readonly plugin: ProviderPlugin,
    private readonly provider: string,
    readonly urn: string,
  ) {}

  static async of(plugin: ProviderPlugin, kind: ResourceKind, name: string): Promise<Managed> {
    const urn = `urn:pulumi:test::devicemgmt::pulumi-nodejs:dynamic:Resource::${name}`;
    return new Managed(plugin, providerText(kind), urn);
  }

  /** The same resource and state in another plugin process (`Stack.nextRun`): the engine's next run. */
  inRun(plugin: ProviderPlugin): Managed {
    return Object.assign(new Managed(plugin, this.provider, this.urn), {
      id: this.id,
      inputs: this.inputs,
      outputs: this.outputs,
    });
  }

  check(news: PropertyMap): Promise<CheckResult> {
    return this.plugin.check({
      urn: this.urn,
      olds: this.inputs,
      news: { ...news, __provider: this.provider },
    });
  }

  /** check then create; throws with the failures when check refuses. */
  async create(news: PropertyMap): Promise<PropertyMap> {
    const checked = await this.checked(news);
    const created = await this.plugin.create({ urn: this.urn, properties: checked });
    this.id = created.id;
    this.inputs = checked;
    this.outputs = created.properties;
    return this.outputs;
  }

  async diff(news: PropertyMap): Promise<DiffResult> {
    const checked = await this.checked(news);
    return this.plugin.diff({
      urn: this.urn,
      id: this.id,
      olds: this.outputs,
      news: checked,
      oldInputs: this.inputs,
    });
  }

  async update(news: PropertyMap): Promise<PropertyMap> {
    const checked = await this.checked(news);
    this.outputs = await this.plugin.update({
      urn: this.urn,
      id: this.id,
      olds: this.outputs,
      news: checked,
      oldInputs: this.inputs,
    });
    this.inputs = checked;
    return this.outputs;
  }

  /** A refresh: the engine keeps what read returns (an empty id means the object is gone). */
  async read(): Promise<ReadResult> {
    const result = await this.plugin.read({
      urn: this.urn,
      id: this.id,
      properties: this.outputs,
      inputs: this.inputs,
    });
    if (result.id) {
      // As the engine's refresh: a read may answer another id (an object replaced in its place).
      this.id = result.id;
      this.outputs = result.properties;
      if (result.inputs) this.inputs = result.inputs;
    }
    return result;
  }

  /**
   * A read by id alone, as for a resource looked up by id with no recorded state: the plugin gets only the
   * provider (in the inputs) and must find the object from the id. Adopts what it returns.
   */
  async readById(id: string): Promise<ReadResult> {
    const result = await this.plugin.read({
      urn: this.urn,
      id,
      properties: {},
      inputs: { __provider: this.provider },
    });
    if (result.id) {
      this.id = result.id;
      this.outputs = result.properties;
      if (result.inputs) this.inputs = result.inputs;
    }
    return result;
  }

  /**
   * A replacement as the engine runs it by default (create before delete): the new object is created from the
   * new inputs, then the old one is deleted with its recorded state.
   */
  async replace(news: PropertyMap): Promise<{ oldId: string }> {
    const old = { id: this.id, outputs: this.outputs, inputs: this.inputs };
    await this.create(news);
    await this.plugin.delete({ urn: this.urn, id: old.id, properties: old.outputs, oldInputs: old.inputs });
    return { oldId: old.id };
  }

  /** What the engine records after a create or update that failed part-way (ErrorResourceInitFailed). */
  async recordPartialFailure(
    error: { id?: string; properties?: PropertyMap },
    news: PropertyMap,
  ): Promise<void> {
    if (!error.id || !error.properties)
      throw new Error(`the failure carries no partial state: ${String(error)}`);
    const inputs = await this.checked(news);
    this.id = error.id;
    this.outputs = error.properties;
    this.inputs = inputs;
  }

  delete(): Promise<void> {
    return this.plugin.delete({
      urn: this.urn,
      id: this.id,
      properties: this.outputs,
      oldInputs: this.inputs,
    });
  }

  private async checked(news: PropertyMap): Promise<PropertyMap> {
    const result = await this.check(news);
    if (result.failures.length) {
      throw new Error(
        `check failed: ${result.failures.map((f) => `${f.property}: ${f.reason}`).join(" | ")}`,
      );
    }
    return result.inputs;
  }
}

/** What the user sees of the engine's error for a failed provider call. */
export async function failure(
  promise: Promise<unknown>,
): Promise<Error & { id?: string; properties?: PropertyMap }> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the call to fail");
}

/**
 * Waits until `condition` holds, for output that arrives on its own schedule (the plugin's stderr is a pipe,
 * so a line written during a call may land after the call has answered). Fails with `what` after `limitMs`.
 */
export async function eventually(condition: () => boolean, what: string, limitMs = 10_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Waits for the plugin's warning to the engine that contains `text` (its Log calls arrive on their own schedule). */
export async function loggedWarning(plugin: ProviderPlugin, text: string): Promise<EngineLog> {
  let found: EngineLog | undefined;
  await eventually(
    () =>
      (found = plugin.logs().find((log) => log.severity === "warning" && log.message.includes(text))) !==
      undefined,
    `the warning "${text}" logged to the engine`,
  );
  return found!;
}
