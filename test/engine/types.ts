/** What a run of the real Pulumi CLI reports to the tests, folded from its engine events (events.ts). */

export type StepKind = "create" | "update" | "replace" | "delete" | "same";
export const STEP_KINDS: StepKind[] = ["create", "update", "replace", "delete", "same"];

/** The value a preview cannot know yet (the engine's unknown sentinel, as events and `check` carry it). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export interface Step {
  kind: StepKind;
  urn: string;
  type: string;
  name: string;
  /** The resource's id after the step (the new id of a replacement; the deleted id of a delete). */
  id?: string;
  /** The replaced resource's id. */
  oldId?: string;
  /** Top-level inputs whose value changed between the old and new inputs the engine reported. */
  changedKeys: string[];
  /** Properties that forced a replacement (the provider's diff; `id` for `--replace` and taint). */
  replaceKeys: string[];
  /** Old and new input of each changed key; a secret as "[secret]", a value a preview cannot know as UNKNOWN. */
  changedValues?: Record<string, { old?: unknown; new?: unknown }>;
  /** For a replacement: the old object was deleted before the new one was created. */
  deleteBeforeReplace?: boolean;
  /** The URN this resource had before, when it was found through one of its `aliases`. */
  aliasOf?: string;
}

/** A create, update, delete or refresh read the engine finished, in the order the engine reported them. */
export interface ProviderOperation {
  op: "create" | "update" | "delete" | "read";
  urn: string;
  id: string;
}

export interface CheckFailure {
  property: string;
  reason: string;
}

export interface EngineError {
  /** Missing for errors of the program or the CLI itself. */
  urn?: string;
  op: "program" | "check" | "diff" | "create" | "update" | "delete" | "read" | "import";
  message: string;
  /** Check failures, one per property. */
  failures?: CheckFailure[];
}

export interface Message {
  severity: "info" | "warning";
  urn?: string;
  message: string;
}

export interface RunResult {
  /** False when the CLI failed; up() and friends resolve (never reject) on deployment failures. */
  ok: boolean;
  errors: EngineError[];
  /** The engine's warnings (e.g. pending operations left by an interrupted run). */
  warnings: string[];
  /** The info and warning diagnostics, each with the URN of the resource it was logged on (none: the stack's). */
  messages: Message[];
  steps: Record<StepKind, Step[]>;
  operations: ProviderOperation[];
  /** Program outputs as plain values (UNKNOWN for values a preview cannot know). */
  outputs: Record<string, unknown>;
  /** Names of the program outputs that are secret. */
  secretOutputs: string[];
  /** `up --refresh` / `preview --refresh`: the refresh before the program, by kind. */
  refreshSteps?: Record<StepKind, Step[]>;
  /** True when the run was cut off (RunOptions.interruptAfter): the CLI was killed mid-run. */
  interrupted: boolean;
  /** What the CLI printed (stdout and stderr), as a user sees it. */
  output: string;
  /** The policy packs' violations (RunOptions.policyPacks), in the order the engine reported them. */
  policyViolations: PolicyViolation[];
  /** The policy packs that ran, name → version, as the run's summary reports them. */
  policyPacks: Record<string, string>;
}

/** A violation a policy pack reported (the engine's policy event). */
export interface PolicyViolation {
  policyPack: string;
  policy: string;
  /** As the engine reports it: "advisory" or "mandatory" (the SDK's type says "warning" for advisory: stale). */
  enforcementLevel: string;
  /** The policy's description, a line break, then the violation's own message. */
  message: string;
  /** The resource a resource policy (or a stack policy naming one) was about; none for the stack as a whole. */
  urn?: string;
}

/** A resource of the stack's checkpoint as tests see it: `__provider` left out, secret property names listed. */
export interface ResourceView {
  urn: string;
  type: string;
  name: string;
  custom: boolean;
  parent?: string;
  id?: string;
  /** Secret values stay as the checkpoint holds them (encrypted); their names are in secretInputs/Outputs. */
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  secretInputs: string[];
  secretOutputs: string[];
  dependencies: string[];
  protect: boolean;
  /** `retainOnDelete`: a delete forgets the object and leaves it in the organization. */
  retainOnDelete?: boolean;
  deletedWith?: string;
  initErrors?: string[];
  pendingDelete?: boolean;
  pendingReplacement?: boolean;
  taint?: boolean;
}

/** An operation that was under way when the CLI died: the checkpoint's `pending_operations`. */
export interface PendingOperation {
  type: "creating" | "updating" | "deleting" | "reading" | "importing";
  urn: string;
  resourceType: string;
  id?: string;
}

export interface EngineOptions {
  /** The program's folder (`main`): the plugin runs there and resolves `pulumi-devicemgmt/runtime` from it. */
  cwd: string;
  project?: string;
  stack?: string;
  /** Stack config, e.g. `{ "devicemgmt:baseUrl": url }`. */
  config?: Record<string, string>;
  /** Secret stack config, e.g. `{ "devicemgmt:apiToken": token }`. */
  secretConfig?: Record<string, string>;
  /** `--parallel`; default the CLI's (PULUMI_PARALLEL, else 4 × CPUs). */
  parallelism?: number;
  /** Extra environment for the CLI and so for the plugins it starts. */
  env?: Record<string, string>;
}

/** Per-run flags, as the CLI takes them. */
export interface RunOptions {
  /** Stack config set before this run (kept for later runs, as `pulumi config set` does). */
  config?: Record<string, string>;
  secretConfig?: Record<string, string>;
  parallelism?: number;
  /** Extra environment for this run's CLI process only. */
  env?: Record<string, string>;
  /** `--replace` (resource names or URNs). */
  replace?: string[];
  /**
   * Kills the CLI and its plugins (SIGKILL) once this many create/update/delete steps have started: the steps in
   * flight stay pending operations in the checkpoint. The harness then clears the backend's lock with
   * `pulumi cancel`, as a person would.
   */
  interruptAfter?: number;
  /** With interruptAfter: resolves when to kill (default 50 ms after that step started). */
  interruptWhen?: () => Promise<void>;
  /** `--continue-on-error`. */
  continueOnError?: boolean;
  /** `--target` / `--target-dependents` / `--exclude` / `--exclude-dependents` (names, URNs or URN globs). */
  target?: string[];
  targetDependents?: boolean;
  exclude?: string[];
  excludeDependents?: boolean;
  /** `--refresh`. */
  refresh?: boolean;
  /** `pulumi refresh --clear-pending-creates`. */
  clearPendingCreates?: boolean;
  /** `--expect-no-changes`. */
  expectNoChanges?: boolean;
  /** `--policy-pack` (up and preview): folders holding a PulumiPolicy.yaml, relative to EngineOptions.cwd. */
  policyPacks?: string[];
  /** `--policy-pack-config`: a JSON file per pack, in the order of policyPacks, relative to EngineOptions.cwd. */
  policyPackConfigs?: string[];
}

export type Program = () => unknown;
