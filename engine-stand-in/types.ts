/** The shapes the engine stand-in works with and reports. */
import type { CheckFailure, PropertyMap } from "./plugin";

export type StepKind = "create" | "update" | "replace" | "delete" | "same";
export const STEP_KINDS: StepKind[] = ["create", "update", "replace", "delete", "same"];

export interface Step {
  kind: StepKind;
  urn: string;
  type: string;
  name: string;
  /** The resource's id after the step (the new id of a replacement; the deleted id of a delete). */
  id?: string;
  /** The replaced resource's id. */
  oldId?: string;
  /** Top-level inputs whose value changed (the display's comparison of old and new inputs). */
  changedKeys: string[];
  /** Properties that forced a replacement (from the provider's diff; `id` for a targeted `--replace`). */
  replaceKeys: string[];
  /**
   * Old and new input of each of `changedKeys` for an update or replacement, as the CLI's diff display shows
   * them: plain values, a secret as the string "[secret]", a value a preview cannot know as `UNKNOWN`.
   */
  changedValues?: Record<string, { old?: unknown; new?: unknown }>;
  deleteBeforeReplace?: boolean;
  /** The URN this resource had before, when it was found through one of its `aliases`. */
  aliasOf?: string;
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
  op: "program" | "check" | "diff" | "create" | "update" | "delete" | "read" | "register" | "import";
  message: string;
  /** Check failures, one per property. */
  failures?: CheckFailure[];
}

export interface RunResult {
  /** False when any error occurred; up() and friends resolve (never reject) on deployment failures. */
  ok: boolean;
  errors: EngineError[];
  /** The engine's warnings (e.g. pending operations left by an interrupted run). */
  warnings: string[];
  steps: Record<StepKind, Step[]>;
  operations: ProviderOperation[];
  /** Program outputs as plain values (secrets unwrapped; `UNKNOWN` for values a preview cannot know). */
  outputs: Record<string, unknown>;
  /** Names of the program outputs that are secret. */
  secretOutputs: string[];
  /**
   * `up --refresh` / `preview --refresh`: the refresh before the program, by kind ("update": drift read into
   * the state; "delete": gone; "same": no drift).
   */
  refreshSteps?: Record<StepKind, Step[]>;
  /** True when the run was cut off (RunOptions.interruptAfter): the CLI process died mid-run. */
  interrupted: boolean;
}

export interface ResourceOptionsSeen {
  protect: boolean;
  /** undefined when the program did not set the option: then the provider's diff decides. */
  deleteBeforeReplace?: boolean;
  ignoreChanges: string[];
  replaceOnChanges: string[];
  additionalSecretOutputs: string[];
  retainOnDelete: boolean;
  /** `deletedWith`: the URN whose deletion takes this resource with it (no Delete call of its own). */
  deletedWith?: string;
}

/** A resource in the engine's state; values are in wire form (secrets wrapped in the RPC secret signature). */
export interface StateEntry {
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
  /**
   * Deleted for a delete-first replacement whose create has not succeeded yet (the checkpoint's
   * `pendingReplacement`; step.go, DeleteStep.Apply): the next run creates the replacement without deleting again.
   */
  pendingReplacement?: boolean;
  /**
   * Marked for replacement at the next `up` (the checkpoint's `taint`; `pulumi state taint`, Engine.taint): the
   * step generator replaces it as a `--replace` target, and the replacement's state does not carry the mark.
   */
  taint?: boolean;
}

/** An operation that was under way when the CLI died: the checkpoint's `pending_operations`. */
export interface PendingOperation {
  type: "creating" | "updating" | "deleting";
  urn: string;
  resourceType: string;
  /** The inputs the provider was given (what the engine journals before it calls the provider). */
  inputs: PropertyMap;
  id?: string;
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
  pendingReplacement?: boolean;
  taint?: boolean;
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
  /**
   * Concurrent create/update/delete/read steps (the CLI's --parallel). Default, as the CLI: PULUMI_PARALLEL from
   * this process's environment with `env` over it, else 4 × CPUs.
   */
  parallelism?: number;
  /** Extra environment for the plugin process. */
  env?: Record<string, string>;
}

/** Per-run overrides, merged over the engine's options (every operation starts its own plugin anyway). */
export interface RunOptions {
  config?: Record<string, string>;
  secretConfig?: Record<string, string>;
  parallelism?: number;
  /** Extra plugin environment for this run only: the run uses its own plugin process. */
  env?: Record<string, string>;
  /** `pulumi up --replace URN` (names are accepted too): replaced without asking the provider's Diff. */
  replace?: string[];
  /**
   * Kills the plugin (and abandons the run, as a killed CLI) once this many create/update/delete calls have
   * been sent: the calls still in flight become pending operations in the state.
   */
  interruptAfter?: number;
  /** With interruptAfter: resolves when the CLI should die (default 50 ms after that call was sent). */
  interruptWhen?: () => Promise<void>;
  /**
   * `--continue-on-error` (up, destroy): a failed create, update or delete does not stop the deployment; what
   * depends on it is skipped, and the deletes at the end still run (see README.md).
   */
  continueOnError?: boolean;
  /**
   * `--target` (names, URNs or URN globs with `*` / `**`): only these take part; new resources not targeted are
   * not created, dropped ones not targeted are not deleted; a refresh reads only these. `targetDependents`: their
   * dependents too. `exclude` / `excludeDependents`: the other way round. Unknown names fail the run, globs never
   * do (see README.md).
   */
  target?: string[];
  targetDependents?: boolean;
  exclude?: string[];
  excludeDependents?: boolean;
  /** `up --refresh` / `preview --refresh`: refresh the state before the program runs. */
  refresh?: boolean;
  /** `pulumi refresh --clear-pending-creates`: drops pending creates from the state. */
  clearPendingCreates?: boolean;
}

export type Program = () => unknown;
