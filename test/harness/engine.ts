/**
 * An engine stand-in for tests: runs a real Pulumi program (a function using the real SDK) in this process and
 * drives every dynamic resource through the real dynamic-provider plugin (plugin.ts) the way `pulumi up`,
 * `preview`, `refresh` and `destroy` do. See README.md for what it mirrors of the real engine and what not.
 *
 * Each run gets a fresh SDK runtime (the SDK's per-run local storage, as the Automation API uses for inline
 * programs) whose resource monitor is this engine; state is kept in memory between runs.
 */
import * as crypto from "crypto";
import * as fs from "fs";
import * as path from "path";
import { output } from "@pulumi/pulumi";
import * as resproto from "@pulumi/pulumi/proto/resource_pb";
import * as runtimeConfig from "@pulumi/pulumi/runtime/config";
import { MockMonitor } from "@pulumi/pulumi/runtime/mocks";
import * as stackRuntime from "@pulumi/pulumi/runtime/stack";
import type * as grpcTypes from "@grpc/grpc-js";
import type * as structTypes from "google-protobuf/google/protobuf/struct_pb";
import {
  CheckFailure,
  PropertyMap,
  PropertyValue,
  ProviderCallError,
  ProviderPlugin,
  SECRET_SIG,
  SECRET_SIG_KEY,
  UNKNOWN,
  startProviderPlugin,
} from "./plugin";

export { UNKNOWN };

const sdkDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
const grpc: typeof grpcTypes = require(require.resolve("@grpc/grpc-js", { paths: [sdkDir] }));
const { Struct }: typeof structTypes = require(
  require.resolve("google-protobuf/google/protobuf/struct_pb", { paths: [sdkDir] }),
);
// Internal SDK entry points (not in its typings) that the Automation API uses to run inline programs.
const sdkState: {
  withLocalStorage<T>(run: () => Promise<T>): Promise<T>;
  getStore(): Record<string, unknown>;
} = require("@pulumi/pulumi/runtime/state");
const sdkSettings: {
  setMockOptions(monitor: object, project: string, stack: string, preview: boolean): void;
  waitForRPCs(): Promise<void>;
} = require("@pulumi/pulumi/runtime/settings");

const ROOT_STACK_TYPE = "pulumi:pulumi:Stack";
const PROVIDER_KEY = "__provider";
const DEFAULT_PARALLELISM = 16;

export type StepKind = "create" | "update" | "replace" | "delete" | "same";
const STEP_KINDS: StepKind[] = ["create", "update", "replace", "delete", "same"];

export interface Step {
  kind: StepKind;
  urn: string;
  type: string;
  name: string;
  /** The resource's id after the step (the new id of a replacement; the deleted id of a delete). */
  id?: string;
  /** The replaced resource's id. */
  oldId?: string;
  /** Top-level inputs whose value changed (engine-side comparison of old and new inputs). */
  changedKeys: string[];
  /** Properties that forced a replacement (from the provider's diff or the replaceOnChanges option). */
  replaceKeys: string[];
  deleteBeforeReplace?: boolean;
}

/** A mutating (or refreshing) provider call the engine made, in completion order. */
export interface ProviderOperation {
  op: "create" | "update" | "delete" | "read";
  urn: string;
  id: string;
}

export interface EngineError {
  /** Missing for errors of the program itself. */
  urn?: string;
  op: "program" | "check" | "diff" | "create" | "update" | "delete" | "read" | "register";
  message: string;
  /** Check failures, one per property. */
  failures?: CheckFailure[];
}

export interface RunResult {
  /** False when any error occurred; up() and friends resolve (never reject) on deployment failures. */
  ok: boolean;
  errors: EngineError[];
  steps: Record<StepKind, Step[]>;
  operations: ProviderOperation[];
  /** Program outputs as plain values (secrets unwrapped; `UNKNOWN` for values a preview cannot know). */
  outputs: Record<string, unknown>;
  /** Names of the program outputs that are secret. */
  secretOutputs: string[];
}

export interface ResourceOptionsSeen {
  protect: boolean;
  deleteBeforeReplace: boolean;
  ignoreChanges: string[];
  replaceOnChanges: string[];
  additionalSecretOutputs: string[];
  retainOnDelete: boolean;
}

/** A resource in the engine's state; values are in wire form (secrets wrapped in the RPC secret signature). */
interface StateEntry {
  urn: string;
  type: string;
  name: string;
  custom: boolean;
  parent?: string;
  id?: string;
  inputs: PropertyMap;
  outputs: PropertyMap;
  dependencies: string[];
  propertyDependencies: Record<string, string[]>;
  options: ResourceOptionsSeen;
  initErrors?: string[];
  /** A replaced resource whose deletion is still due (the checkpoint's `delete: true`). */
  pendingDelete?: boolean;
}

/** A resource as tests see it: plain values, `__provider` left out, secret property names listed. */
export interface ResourceView {
  urn: string;
  type: string;
  name: string;
  custom: boolean;
  parent?: string;
  id?: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  secretInputs: string[];
  secretOutputs: string[];
  dependencies: string[];
  options: ResourceOptionsSeen;
  initErrors?: string[];
  pendingDelete?: boolean;
}

export interface EngineOptions {
  /** Plugin working directory: the provider text's `require`s resolve from its node_modules. */
  cwd: string;
  project?: string;
  stack?: string;
  /** Stack config, e.g. `{ "devicemgmt:baseUrl": url }`, given to the program and to Configure. */
  config?: Record<string, string>;
  /** Secret stack config, e.g. `{ "devicemgmt:apiToken": token }`: secret for the program and for Configure. */
  secretConfig?: Record<string, string>;
  /** Concurrent create/update/delete/read steps (the engine's --parallel). Default 16. */
  parallelism?: number;
  /** Extra environment for the plugin process. */
  env?: Record<string, string>;
}

/** Per-run overrides. Config is merged over the engine's; a different config or env means a fresh plugin. */
export interface RunOptions {
  config?: Record<string, string>;
  secretConfig?: Record<string, string>;
  parallelism?: number;
  /** Extra plugin environment for this run only: the run uses its own plugin process. */
  env?: Record<string, string>;
}

export type Program = () => unknown;

// ---------------------------------------------------------------------------------------------------------
// Values: secrets, unknowns, comparison.

type SecretValue = { [SECRET_SIG_KEY]: typeof SECRET_SIG; value: PropertyValue };

function isSecret(value: unknown): value is SecretValue {
  return typeof value === "object" && value !== null && (value as PropertyMap)[SECRET_SIG_KEY] === SECRET_SIG;
}

function makeSecret(value: PropertyValue): PropertyValue {
  return isSecret(value) ? value : ({ [SECRET_SIG_KEY]: SECRET_SIG, value } as PropertyMap);
}

function containsSecret(value: unknown): boolean {
  if (isSecret(value)) {
    return true;
  }
  if (Array.isArray(value)) {
    return value.some(containsSecret);
  }
  if (typeof value === "object" && value !== null) {
    return Object.values(value).some(containsSecret);
  }
  return false;
}

/** What a provider that does not accept secrets receives: the same values, secret markers removed. */
function reveal<T extends PropertyValue>(value: T): T {
  if (isSecret(value)) {
    return reveal(value.value) as T;
  }
  if (Array.isArray(value)) {
    return value.map(reveal) as T;
  }
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, reveal(v)])) as T;
  }
  return value;
}

/**
 * The engine's answer to providers that do not accept secrets (pulumi/pulumi#13260): a returned property is
 * secret when the same-named property it was computed from was secret.
 */
function annotateSecrets(
  outs: PropertyMap,
  secretSource: PropertyMap,
  extraSecretKeys: string[] = [],
): PropertyMap {
  const annotated: PropertyMap = { ...outs };
  for (const key of Object.keys(annotated)) {
    if (containsSecret(secretSource[key]) || extraSecretKeys.includes(key)) {
      annotated[key] = makeSecret(annotated[key]);
    }
  }
  return annotated;
}

function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(sortKeys);
  }
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

function changedKeys(olds: PropertyMap, news: PropertyMap): string[] {
  const keys = new Set([...Object.keys(olds), ...Object.keys(news)]);
  keys.delete(PROVIDER_KEY);
  return [...keys].filter((k) => !deepEqual(reveal(olds[k] ?? null), reveal(news[k] ?? null))).sort();
}

function secretKeysOf(map: PropertyMap): string[] {
  return Object.keys(map).filter((k) => containsSecret(map[k]));
}

function viewOf(entry: StateEntry): ResourceView {
  const plain = (map: PropertyMap) => {
    const copy = reveal(map) as Record<string, unknown>;
    delete copy[PROVIDER_KEY];
    return copy;
  };
  return {
    urn: entry.urn,
    type: entry.type,
    name: entry.name,
    custom: entry.custom,
    parent: entry.parent,
    id: entry.id,
    inputs: plain(entry.inputs),
    outputs: plain(entry.outputs),
    secretInputs: secretKeysOf(entry.inputs).filter((k) => k !== PROVIDER_KEY),
    secretOutputs: secretKeysOf(entry.outputs).filter((k) => k !== PROVIDER_KEY),
    dependencies: [...entry.dependencies],
    options: { ...entry.options },
    ...(entry.initErrors ? { initErrors: [...entry.initErrors] } : {}),
    ...(entry.pendingDelete ? { pendingDelete: true } : {}),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Scheduling.

/** Runs at most `limit` tasks at once, in arrival order. */
class Limiter {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active++;
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) {
        next();
      } else {
        this.active--;
      }
    }
  }
}

function dependenciesOf(entry: StateEntry): string[] {
  return [
    ...entry.dependencies,
    ...Object.values(entry.propertyDependencies).flat(),
    ...(entry.parent ? [entry.parent] : []),
  ];
}

/**
 * Deletes `entries` in reverse dependency order (a resource goes only after everything in the set that depends
 * on it), `limit` at a time. Once a deletion fails no new one starts, as in the engine.
 */
async function deleteInReverseDependencyOrder(
  entries: StateEntry[],
  limit: Limiter,
  remove: (entry: StateEntry) => Promise<void>,
): Promise<void> {
  const done = new Map<StateEntry, Promise<boolean>>();
  // Who depends on whom, computed once: scanning the set per entry would be quadratic in the stack's size.
  const dependentsOf = new Map<string, StateEntry[]>();
  for (const other of entries) {
    for (const urn of new Set(dependenciesOf(other))) {
      if (urn === other.urn) continue;
      const list = dependentsOf.get(urn) ?? [];
      list.push(other);
      dependentsOf.set(urn, list);
    }
  }
  let failed = false;
  const schedule = (entry: StateEntry): Promise<boolean> => {
    let promise = done.get(entry);
    if (!promise) {
      const dependents = dependentsOf.get(entry.urn) ?? [];
      promise = Promise.all(dependents.map(schedule)).then((results) =>
        failed || results.includes(false)
          ? false
          : limit.run(async () => {
              if (failed) {
                return false;
              }
              try {
                await remove(entry);
                return true;
              } catch {
                failed = true;
                return false;
              }
            }),
      );
      done.set(entry, promise);
    }
    return promise;
  };
  await Promise.all(entries.map(schedule));
}

// ---------------------------------------------------------------------------------------------------------
// One run of the program (up or preview).

type Mode = "up" | "preview" | "destroy";

class DeploymentFailed extends Error {}

/**
 * The error a registration gets once the deployment has stopped: the gRPC "unavailable" a terminating engine
 * gives. The SDK then leaves the resource's outputs (and so its dependents) pending instead of rejecting them,
 * as a program the engine abandons; the run ends when the in-flight steps have finished.
 */
function registrationRefused(message: string): Error {
  return Object.assign(new Error(message), {
    code: grpc.status.UNAVAILABLE,
    details: message,
    metadata: new grpc.Metadata(),
  });
}

function newResult(): RunResult {
  return {
    ok: true,
    errors: [],
    steps: Object.fromEntries(STEP_KINDS.map((k) => [k, []])) as unknown as Record<StepKind, Step[]>,
    operations: [],
    outputs: {},
    secretOutputs: [],
  };
}

class Deployment {
  readonly result = newResult();
  /** Resources registered by this run, in completion order (dependencies before dependents). */
  readonly registered = new Map<string, StateEntry>();
  /** Replaced resources whose deletion is due at the end of the run. */
  readonly condemned: StateEntry[] = [];
  private readonly seen = new Set<string>();
  private readonly old: Map<string, StateEntry>;
  private readonly checkQueue = new Limiter(1);
  private readonly deleted = new Set<StateEntry>();
  private stackOutputs: PropertyMap = {};
  private rootUrn?: string;
  private inFlight = 0;
  private signalStopped?: () => void;
  /** Resolves once the deployment has failed and no step is in flight: the program is abandoned then. */
  readonly stopped = new Promise<void>((resolve) => (this.signalStopped = resolve));

  constructor(
    private readonly mode: Mode,
    private readonly plugin: ProviderPlugin,
    private readonly oldState: StateEntry[],
    private readonly steps: Limiter,
    private readonly project: string,
    private readonly stack: string,
  ) {
    this.old = new Map(oldState.filter((e) => !e.pendingDelete).map((e) => [e.urn, e]));
  }

  get failed(): boolean {
    return this.result.errors.length > 0;
  }

  fail(error: EngineError): void {
    this.result.errors.push(error);
    this.result.ok = false;
    this.noticeStop();
  }

  private noticeStop(): void {
    if (this.failed && this.inFlight === 0) {
      this.signalStopped?.();
    }
  }

  private urnOf(type: string, name: string, parent: string): string {
    let qualifiedType = type;
    if (parent && parent !== this.rootUrn) {
      qualifiedType = `${parent.split("::")[2]}$${type}`;
    }
    return `urn:pulumi:${this.stack}::${this.project}::${qualifiedType}::${name}`;
  }

  private record(kind: StepKind, entry: StateEntry, details: Partial<Step> = {}): void {
    if (entry.type === ROOT_STACK_TYPE) {
      return;
    }
    this.result.steps[kind].push({
      kind,
      urn: entry.urn,
      type: entry.type,
      name: entry.name,
      ...(entry.id ? { id: entry.id } : {}),
      changedKeys: [],
      replaceKeys: [],
      ...details,
    });
  }

  private operation(op: ProviderOperation["op"], urn: string, id: string): void {
    this.result.operations.push({ op, urn, id });
  }

  /** Runs a provider call as part of `urn`'s step, recording its failure as the deployment's. */
  private async attempt<T>(op: EngineError["op"], urn: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof DeploymentFailed)) {
        this.fail({ urn, op, message: (err as Error).message });
      }
      throw err;
    }
  }

  async register(req: resproto.RegisterResourceRequest): Promise<resproto.RegisterResourceResponse> {
    this.inFlight++;
    try {
      return await this.registerGoal(req);
    } finally {
      this.inFlight--;
      this.noticeStop();
    }
  }

  private async registerGoal(
    req: resproto.RegisterResourceRequest,
  ): Promise<resproto.RegisterResourceResponse> {
    const type = req.getType();
    const name = req.getName();
    const parent = req.getParent();
    const urn = this.urnOf(type, name, parent);
    if (type === ROOT_STACK_TYPE && !parent) {
      this.rootUrn = urn;
    }
    if (this.seen.has(urn)) {
      this.fail({
        urn,
        op: "register",
        message: `Duplicate resource URN '${urn}'; try giving it a unique name`,
      });
      throw registrationRefused(`duplicate resource URN ${urn}`);
    }
    this.seen.add(urn);
    if (this.failed) {
      throw registrationRefused("the deployment has failed; no new steps start");
    }
    const propertyDependencies: Record<string, string[]> = {};
    for (const [key, deps] of req.getPropertydependenciesMap().entries()) {
      propertyDependencies[key] = deps.getUrnsList();
    }
    const goal: StateEntry = {
      urn,
      type,
      name,
      custom: req.getCustom(),
      ...(parent ? { parent } : {}),
      inputs: (req.getObject()?.toJavaScript() ?? {}) as PropertyMap,
      outputs: {},
      dependencies: req.getDependenciesList(),
      propertyDependencies,
      options: {
        protect: req.getProtect() ?? false,
        deleteBeforeReplace: req.getDeletebeforereplace(),
        ignoreChanges: req.getIgnorechangesList(),
        replaceOnChanges: req.getReplaceonchangesList(),
        additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
        retainOnDelete: req.getRetainondelete() ?? false,
      },
    };
    try {
      const entry = goal.custom ? await this.stepCustom(goal) : this.stepComponent(goal);
      const response = new resproto.RegisterResourceResponse();
      response.setUrn(urn);
      response.setId(entry.id ?? "");
      response.setObject(Struct.fromJavaScript(entry.outputs as Record<string, structTypes.JavaScriptValue>));
      return response;
    } catch (err) {
      if (!this.failed) {
        this.fail({ urn, op: "register", message: (err as Error).message });
      }
      throw registrationRefused((err as Error).message);
    }
  }

  registerOutputs(urn: string, outputs: PropertyMap): void {
    if (urn === this.rootUrn) {
      this.stackOutputs = outputs;
    }
    const entry = this.registered.get(urn);
    if (entry) {
      entry.outputs = outputs;
    }
  }

  private stepComponent(goal: StateEntry): StateEntry {
    const old = this.old.get(goal.urn);
    const entry: StateEntry = { ...goal, outputs: old?.outputs ?? {} };
    this.record(old ? "same" : "create", entry);
    this.registered.set(goal.urn, entry);
    return entry;
  }

  private async stepCustom(goal: StateEntry): Promise<StateEntry> {
    if (!goal.type.startsWith("pulumi-nodejs:")) {
      throw new Error(
        `${goal.type}: only dynamic resources (pulumi-nodejs:dynamic:*) are supported by the harness`,
      );
    }
    const old = this.old.get(goal.urn);
    const news = { ...goal.inputs };
    if (old) {
      // ignoreChanges: the engine keeps the old value of an ignored property (top-level paths only here).
      for (const key of goal.options.ignoreChanges) {
        if (key in old.inputs) {
          news[key] = old.inputs[key];
        } else {
          delete news[key];
        }
      }
    }

    const plan = await this.checkQueue.run(async () => {
      this.stopIfFailed();
      const checked = await this.check(goal, old?.inputs ?? {}, news);
      if (!old) {
        return { kind: "create" as const, checked, changed: [], replaceKeys: [], deleteBeforeReplace: false };
      }
      const diff = await this.attempt("diff", goal.urn, () =>
        this.plugin.diff({
          urn: goal.urn,
          id: old.id ?? "",
          olds: reveal(old.outputs),
          news: reveal(checked),
          oldInputs: reveal(old.inputs),
          ignoreChanges: goal.options.ignoreChanges,
        }),
      );
      const changed = changedKeys(old.inputs, checked);
      const replaceOnChanges = goal.options.replaceOnChanges;
      const replaceKeys = [
        ...new Set([
          ...diff.replaces,
          ...changed.filter((k) => replaceOnChanges.includes(k) || replaceOnChanges.includes("*")),
        ]),
      ];
      const hasChanges =
        diff.changes === "some" ||
        (diff.changes === "unknown" && changed.length > 0) ||
        replaceKeys.length > 0 ||
        (old.initErrors?.length ?? 0) > 0; // a resource that failed to initialize is always updated
      const kind: StepKind = !hasChanges ? "same" : replaceKeys.length > 0 ? "replace" : "update";
      const deleteBeforeReplace = diff.deleteBeforeReplace || goal.options.deleteBeforeReplace;
      return { kind, checked, changed, replaceKeys, deleteBeforeReplace };
    });

    const details = { changedKeys: plan.changed, replaceKeys: plan.replaceKeys };
    if (plan.kind === "same" && old) {
      const entry: StateEntry = { ...goal, id: old.id, inputs: plan.checked, outputs: old.outputs };
      this.record("same", entry, details);
      this.registered.set(goal.urn, entry);
      return entry;
    }
    if (this.mode === "preview") {
      // Providers without preview support: the engine returns the inputs as outputs, with a new id unknown.
      const id = plan.kind === "create" || plan.kind === "replace" ? undefined : old?.id;
      const entry: StateEntry = { ...goal, id, inputs: plan.checked, outputs: plan.checked };
      this.record(plan.kind, entry, {
        ...details,
        ...(plan.kind === "replace" ? { oldId: old?.id, deleteBeforeReplace: plan.deleteBeforeReplace } : {}),
      });
      return entry;
    }
    if (plan.kind === "create") {
      const entry = await this.create(goal, plan.checked);
      this.record("create", entry, details);
      return entry;
    }
    if (plan.kind === "update" && old) {
      const entry = await this.update(goal, old, plan.checked);
      this.record("update", entry, details);
      return entry;
    }
    if (old?.options.protect) {
      this.fail({
        urn: goal.urn,
        op: "delete",
        message: `resource ${goal.urn} is protected and cannot be replaced`,
      });
      throw new DeploymentFailed(goal.urn);
    }
    // A replacement is a new resource: the engine checks it again without the old inputs.
    const checked = await this.checkQueue.run(() => this.check(goal, {}, news));
    if (plan.deleteBeforeReplace && old) {
      await this.steps.run(async () => {
        this.stopIfFailed();
        await this.deleteResource(old);
      });
    }
    const entry = await this.create(goal, checked);
    if (!plan.deleteBeforeReplace && old) {
      // The old resource is deleted after the program, once its dependents have moved to the replacement.
      this.condemned.push({ ...old, pendingDelete: true });
    }
    this.record("replace", entry, {
      ...details,
      oldId: old?.id,
      deleteBeforeReplace: plan.deleteBeforeReplace,
    });
    return entry;
  }

  private stopIfFailed(): void {
    if (this.failed) {
      throw new DeploymentFailed("the deployment has failed; no new steps start");
    }
  }

  private async check(goal: StateEntry, olds: PropertyMap, news: PropertyMap): Promise<PropertyMap> {
    const result = await this.attempt("check", goal.urn, () =>
      this.plugin.check({ urn: goal.urn, olds: reveal(olds), news: reveal(news) }),
    );
    if (result.failures.length > 0) {
      const problems = result.failures.map((f) => `property ${f.property} has a problem: ${f.reason}`);
      this.fail({
        urn: goal.urn,
        op: "check",
        message: `${goal.type} resource '${goal.name}': ${problems.join("; ")}`,
        failures: result.failures,
      });
      throw new DeploymentFailed(goal.urn);
    }
    return annotateSecrets(result.inputs, news);
  }

  private async create(goal: StateEntry, checked: PropertyMap): Promise<StateEntry> {
    return this.steps.run(async () => {
      this.stopIfFailed();
      try {
        const created = await this.attempt("create", goal.urn, () =>
          this.plugin.create({ urn: goal.urn, properties: reveal(checked) }),
        );
        this.operation("create", goal.urn, created.id);
        return this.keep(goal, created.id, checked, created.properties);
      } catch (err) {
        this.keepInitFailure("create", goal, checked, err);
        throw err;
      }
    });
  }

  private async update(goal: StateEntry, old: StateEntry, checked: PropertyMap): Promise<StateEntry> {
    const id = old.id ?? "";
    return this.steps.run(async () => {
      this.stopIfFailed();
      try {
        const outs = await this.attempt("update", goal.urn, () =>
          this.plugin.update({
            urn: goal.urn,
            id,
            olds: reveal(old.outputs),
            news: reveal(checked),
            oldInputs: reveal(old.inputs),
          }),
        );
        this.operation("update", goal.urn, id);
        return this.keep(goal, id, checked, outs);
      } catch (err) {
        this.keepInitFailure("update", goal, checked, err);
        throw err;
      }
    });
  }

  private keep(goal: StateEntry, id: string, checked: PropertyMap, outs: PropertyMap, initErrors?: string[]) {
    const entry: StateEntry = {
      ...goal,
      id,
      inputs: checked,
      outputs: annotateSecrets(outs, checked, goal.options.additionalSecretOutputs),
      ...(initErrors ? { initErrors } : {}),
    };
    this.registered.set(goal.urn, entry);
    return entry;
  }

  /** A resource that exists but failed to initialize is recorded with its id and properties. */
  private keepInitFailure(
    op: "create" | "update",
    goal: StateEntry,
    checked: PropertyMap,
    err: unknown,
  ): void {
    if (err instanceof ProviderCallError && err.initFailure) {
      const { id, properties, reasons } = err.initFailure;
      this.operation(op, goal.urn, id);
      this.keep(goal, id, checked, properties, reasons.length > 0 ? reasons : [err.message]);
    }
  }

  async deleteResource(entry: StateEntry): Promise<void> {
    if (entry.options.protect) {
      this.fail({
        urn: entry.urn,
        op: "delete",
        message: `resource ${entry.urn} is protected and cannot be deleted`,
      });
      throw new DeploymentFailed(entry.urn);
    }
    if (!entry.custom || entry.options.retainOnDelete) {
      this.deleted.add(entry);
      return;
    }
    const id = entry.id ?? "";
    await this.attempt("delete", entry.urn, () =>
      this.plugin.delete({
        urn: entry.urn,
        id,
        properties: reveal(entry.outputs),
        oldInputs: reveal(entry.inputs),
      }),
    );
    this.operation("delete", entry.urn, id);
    this.deleted.add(entry);
  }

  /** After the program: deletes what it no longer declares and what was replaced, unless the run failed. */
  async finish(): Promise<void> {
    const removed = this.oldState.filter((e) => !e.pendingDelete && !this.seen.has(e.urn));
    if (this.mode === "preview") {
      if (!this.failed) {
        removed.forEach((e) => this.record("delete", e));
      }
      return;
    }
    if (this.failed) {
      return;
    }
    const due = [...removed, ...this.oldState.filter((e) => e.pendingDelete), ...this.condemned];
    await deleteInReverseDependencyOrder(due, this.steps, async (e) => {
      await this.deleteResource(e);
      if (removed.includes(e)) {
        this.record("delete", e);
      }
    });
  }

  /** Destroy: deletes every resource of the state. */
  async destroyAll(): Promise<void> {
    await deleteInReverseDependencyOrder(this.oldState, this.steps, async (e) => {
      await this.deleteResource(e);
      this.record("delete", e);
    });
  }

  /** The state after this run: what it registered, then whatever survives from before (a failed run keeps it). */
  newState(): StateEntry[] {
    const survivors = this.oldState.filter(
      (e) => !this.deleted.has(e) && (e.pendingDelete || !this.registered.has(e.urn)),
    );
    return [...this.registered.values(), ...survivors, ...this.condemned.filter((e) => !this.deleted.has(e))];
  }

  /** A program error, unless the deployment already failed: the program's follow-on errors are noise then. */
  programFailed(err: unknown): void {
    if (!this.failed) {
      this.fail({ op: "program", message: err instanceof Error ? err.message : String(err) });
    }
  }

  finalResult(): RunResult {
    return {
      ...this.result,
      outputs: reveal(this.stackOutputs),
      secretOutputs: secretKeysOf(this.stackOutputs),
    };
  }
}

/** The resource monitor the SDK talks to during a run; everything else is the SDK's own mock monitor. */
class HarnessMonitor extends MockMonitor {
  constructor(private readonly deployment: Deployment) {
    super({
      newResource: () => {
        throw new Error("the harness does not support reading existing resources (get/read)");
      },
      call: (args) => {
        throw new Error(`the harness does not support invokes (${args.token})`);
      },
    });
  }

  override async registerResource(
    req: resproto.RegisterResourceRequest,
    callback: (err: Error | null, response: resproto.RegisterResourceResponse | undefined) => void,
  ): Promise<void> {
    let response: resproto.RegisterResourceResponse;
    try {
      response = await this.deployment.register(req);
    } catch (err) {
      callback(err as Error, undefined);
      return;
    }
    callback(null, response);
  }

  override registerResourceOutputs(
    req: resproto.RegisterResourceOutputsRequest,
    callback: (err: null, response: object) => void,
  ): void {
    this.deployment.registerOutputs(req.getUrn(), (req.getOutputs()?.toJavaScript() ?? {}) as PropertyMap);
    callback(null, {});
  }
}

// ---------------------------------------------------------------------------------------------------------
// The engine.

/** A checkpoint secret: the engine's envelope, with the value encrypted by the stack's secrets provider. */
interface EncryptedSecret {
  [SECRET_SIG_KEY]: typeof SECRET_SIG;
  ciphertext: string;
}

export class Engine {
  private state: StateEntry[] = [];
  private current?: { plugin: ProviderPlugin; configKey: string };
  private closedPluginsStderr = "";
  private busy = false;
  // Stands in for the stack's secrets provider: checkpoint secrets are encrypted with a key held in memory.
  private readonly secretsKey = crypto.randomBytes(32);
  private readonly project: string;
  private readonly stack: string;

  constructor(private readonly options: EngineOptions) {
    this.project = options.project ?? "test-project";
    this.stack = options.stack ?? "test";
  }

  /** Runs the program and reconciles: check, then create, or diff and update/replace; then deletes. */
  up(program: Program, options: RunOptions = {}): Promise<RunResult> {
    return this.exclusive(() => this.runProgram("up", program, options));
  }

  /** Runs the program as a preview: check and diff only, no create/update/delete; state is unchanged. */
  preview(program: Program, options: RunOptions = {}): Promise<RunResult> {
    return this.exclusive(() => this.runProgram("preview", program, options));
  }

  /** Reads every resource; drift updates the state (steps "update"), vanished resources leave it ("delete"). */
  refresh(options: RunOptions = {}): Promise<RunResult> {
    return this.exclusive(() => this.runRefresh(options));
  }

  /** Deletes every resource in reverse dependency order. */
  destroy(options: RunOptions = {}): Promise<RunResult> {
    return this.exclusive(() => this.runDestroy(options));
  }

  private async exclusive(operation: () => Promise<RunResult>): Promise<RunResult> {
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
    const { plugin, release } = await this.pluginFor(options);
    const result = newResult();
    const limiter = new Limiter(options.parallelism ?? this.options.parallelism ?? DEFAULT_PARALLELISM);
    const next: Array<StateEntry | undefined> = [...this.state];
    try {
      await Promise.all(
        this.state.map((entry, index) =>
          !entry.custom
            ? undefined
            : limiter.run(async () => {
                if (!result.ok) {
                  return;
                }
                try {
                  const read = await plugin.read({
                    urn: entry.urn,
                    id: entry.id ?? "",
                    properties: reveal(entry.outputs),
                    inputs: reveal(entry.inputs),
                  });
                  result.operations.push({ op: "read", urn: entry.urn, id: entry.id ?? "" });
                  const step = { urn: entry.urn, type: entry.type, name: entry.name, replaceKeys: [] };
                  if (!read.id) {
                    next[index] = undefined;
                    result.steps.delete.push({ ...step, kind: "delete", id: entry.id, changedKeys: [] });
                    return;
                  }
                  const outputs = annotateSecrets(read.properties, entry.outputs);
                  const inputs = read.inputs ? annotateSecrets(read.inputs, entry.inputs) : entry.inputs;
                  next[index] = { ...entry, id: read.id, outputs, inputs };
                  const changed = [
                    ...new Set([
                      ...changedKeys(entry.outputs, outputs),
                      ...changedKeys(entry.inputs, inputs),
                    ]),
                  ].sort();
                  const kind = changed.length > 0 ? "update" : "same";
                  result.steps[kind].push({ ...step, kind, id: read.id, changedKeys: changed });
                } catch (err) {
                  result.ok = false;
                  result.errors.push({ urn: entry.urn, op: "read", message: (err as Error).message });
                }
              }),
        ),
      );
    } finally {
      await release();
    }
    this.state = next.filter((e): e is StateEntry => e !== undefined);
    return result;
  }

  private async runDestroy(options: RunOptions): Promise<RunResult> {
    const { plugin, release } = await this.pluginFor(options);
    const deployment = this.newDeployment("destroy", plugin, options);
    try {
      await deployment.destroyAll();
    } finally {
      await release();
    }
    this.state = deployment.newState();
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

  /** The state as a checkpoint (the shape `pulumi stack export` gives), secrets encrypted. */
  checkpoint(): object {
    const resources = this.state.map((e) => ({
      urn: e.urn,
      custom: e.custom,
      ...(e.pendingDelete ? { delete: true } : {}),
      ...(e.id ? { id: e.id } : {}),
      type: e.type,
      inputs: this.encryptSecrets(e.inputs),
      outputs: this.encryptSecrets(e.outputs),
      ...(e.parent ? { parent: e.parent } : {}),
      ...(e.options.protect ? { protect: true } : {}),
      ...(e.options.retainOnDelete ? { retainOnDelete: true } : {}),
      dependencies: e.dependencies,
      propertyDependencies: e.propertyDependencies,
      ...(e.options.additionalSecretOutputs.length > 0
        ? { additionalSecretOutputs: e.options.additionalSecretOutputs }
        : {}),
      ...(e.initErrors ? { initErrors: e.initErrors } : {}),
    }));
    return {
      version: 3,
      deployment: {
        manifest: {
          time: new Date().toISOString(),
          magic: "pulumi-devicemgmt test harness",
          version: "3.270.0",
        },
        secrets_providers: { type: "harness", state: { cipher: "aes-256-gcm", key: "held in memory" } },
        resources,
      },
    };
  }

  /** Writes `checkpoint()` as JSON to `file`. */
  async saveState(file: string): Promise<void> {
    await fs.promises.writeFile(file, JSON.stringify(this.checkpoint(), null, 2));
  }

  /** The value inside a checkpoint secret envelope, to check what was stored. */
  decryptSecret(ciphertext: string): unknown {
    const [version, iv, sealed] = ciphertext.split(":");
    if (version !== "v1" || !iv || !sealed) {
      throw new Error("not a harness checkpoint ciphertext");
    }
    const bytes = Buffer.from(sealed, "base64");
    const decipher = crypto.createDecipheriv("aes-256-gcm", this.secretsKey, Buffer.from(iv, "base64"));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    const plain = Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]);
    return JSON.parse(plain.toString("utf8"));
  }

  /** Everything the plugin processes of this engine wrote to stderr. */
  stderr(): string {
    return this.closedPluginsStderr + (this.current?.plugin.stderr() ?? "");
  }

  /** The next run starts a new plugin process (a new CLI run: e.g. after the package was upgraded). */
  async restartPlugin(options: { env?: Record<string, string> } = {}): Promise<void> {
    if (options.env) {
      this.options.env = { ...this.options.env, ...options.env };
    }
    await this.closePlugin();
  }

  async close(): Promise<void> {
    await this.closePlugin();
  }

  private async closePlugin(): Promise<void> {
    if (this.current) {
      const { plugin } = this.current;
      this.current = undefined;
      await plugin.close();
      this.closedPluginsStderr += plugin.stderr();
    }
  }

  private encryptSecrets(value: PropertyValue): PropertyValue {
    if (isSecret(value)) {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv("aes-256-gcm", this.secretsKey, iv);
      const sealed = Buffer.concat([cipher.update(JSON.stringify(reveal(value)), "utf8"), cipher.final()]);
      const envelope: EncryptedSecret = {
        [SECRET_SIG_KEY]: SECRET_SIG,
        ciphertext: `v1:${iv.toString("base64")}:${Buffer.concat([sealed, cipher.getAuthTag()]).toString("base64")}`,
      };
      return envelope as unknown as PropertyMap;
    }
    if (Array.isArray(value)) {
      return value.map((v) => this.encryptSecrets(v));
    }
    if (typeof value === "object" && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.encryptSecrets(v)]));
    }
    return value;
  }

  private configFor(options: RunOptions): { config: Record<string, string>; secretKeys: string[] } {
    const secrets = { ...this.options.secretConfig, ...options.secretConfig };
    return {
      config: { ...this.options.config, ...options.config, ...secrets },
      secretKeys: Object.keys(secrets),
    };
  }

  /**
   * The plugin for a run. The engine's plugin is reused while the config stays the same (the plugin configures
   * each provider once per process); a run with its own env gets a plugin of its own.
   */
  private async pluginFor(
    options: RunOptions,
  ): Promise<{ plugin: ProviderPlugin; release(): Promise<void> }> {
    const { config, secretKeys } = this.configFor(options);
    const start = async (env?: Record<string, string>) => {
      const plugin = await startProviderPlugin({
        cwd: this.options.cwd,
        project: this.project,
        stack: this.stack,
        env: { ...this.options.env, ...env },
      });
      try {
        await plugin.configure(config, secretKeys);
      } catch (err) {
        await plugin.close();
        throw err;
      }
      return plugin;
    };
    if (options.env) {
      const plugin = await start(options.env);
      return {
        plugin,
        release: async () => {
          await plugin.close();
          this.closedPluginsStderr += plugin.stderr();
        },
      };
    }
    const configKey = JSON.stringify([config, secretKeys]);
    if (this.current?.configKey !== configKey) {
      await this.closePlugin();
      this.current = { plugin: await start(), configKey };
    }
    return { plugin: this.current.plugin, release: async () => {} };
  }

  private newDeployment(mode: Mode, plugin: ProviderPlugin, options: RunOptions): Deployment {
    const parallelism = options.parallelism ?? this.options.parallelism ?? DEFAULT_PARALLELISM;
    return new Deployment(mode, plugin, this.state, new Limiter(parallelism), this.project, this.stack);
  }

  private async runProgram(
    mode: "up" | "preview",
    program: Program,
    options: RunOptions,
  ): Promise<RunResult> {
    const { plugin, release } = await this.pluginFor(options);
    const deployment = this.newDeployment(mode, plugin, options);
    const { config, secretKeys } = this.configFor(options);
    try {
      await sdkState.withLocalStorage(async () => {
        sdkSettings.setMockOptions(
          new HarnessMonitor(deployment),
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
        const programSettled = (async () => {
          await stackRuntime.runInPulumiStack(() => runGuarded(program, deployment));
          await sdkSettings.waitForRPCs();
        })();
        await Promise.race([programSettled, deployment.stopped]);
      });
      await deployment.finish();
    } finally {
      await release();
    }
    if (mode === "up") {
      this.state = deployment.newState();
    }
    return deployment.finalResult();
  }
}

/**
 * Runs the program and waits for its outputs, turning its errors into the deployment's. The SDK's stack would
 * otherwise leave them as unhandled rejections (the language host catches those; a test runner fails on them).
 */
async function runGuarded(program: Program, deployment: Deployment): Promise<unknown> {
  try {
    const outputs = await program();
    await (output(outputs) as unknown as { promise(withUnknowns: boolean): Promise<unknown> }).promise(true);
    return outputs;
  } catch (err) {
    deployment.programFailed(err);
    return undefined;
  }
}

/** Creates an engine; its plugin starts with the first run. Call `close()` when done. */
export async function createEngine(options: EngineOptions): Promise<Engine> {
  return new Engine({ ...options });
}
