/**
 * One `pulumi up`, `preview` or `destroy`: the step generator and executor of the engine for dynamic resources.
 * Each behaviour names the file of pulumi/pulumi it follows (pkg/resource/deploy/...).
 */
import * as resproto from "@pulumi/pulumi/proto/resource_pb";
import type * as structTypes from "google-protobuf/google/protobuf/struct_pb";
import { ProviderCallError, Struct, grpc, type PropertyMap, type ProviderPlugin } from "./plugin";
import { Limiter, deleteInAntichains, dependenciesOf, transitiveDependencies } from "./schedule";
import {
  STEP_KINDS,
  type EngineError,
  type PendingOperation,
  type RunResult,
  type Step,
  type StateEntry,
  type StepKind,
} from "./types";
import { aliasUrns, createUrn } from "./urns";
import { ROOT_STACK_TYPE, annotateSecrets, changedKeys, changedValues, reveal, secretKeysOf } from "./values";

export type Mode = "up" | "preview" | "destroy";

export class DeploymentFailed extends Error {}

/**
 * A delete refused because the resource is protected (pkg/resource/deploy/step.go, deleteProtectedError): the
 * one failure after which the step executor goes on with other steps (step_executor.go, cancelDueToError).
 */
export class DeleteProtected extends DeploymentFailed {}

/**
 * A create, update or delete that failed under `--continue-on-error`: recorded, and the deployment goes on
 * (pkg/resource/deploy/step_executor.go, cancelDueToError: step.Fail() and erroredSteps instead of cancel()).
 */
export class StepFailed extends DeploymentFailed {}

/**
 * The error a registration gets once the deployment has stopped: the gRPC "unavailable" a terminating engine
 * gives. The SDK then leaves the resource's outputs (and so its dependents) pending instead of rejecting them,
 * as a program the engine abandons; the run ends when the in-flight steps have finished.
 */
export function registrationRefused(message: string): Error {
  return Object.assign(new Error(message), {
    code: grpc.status.UNAVAILABLE,
    details: message,
    metadata: new grpc.Metadata(),
  });
}

/** The answer to a registration whose step failed or was skipped: the state it keeps, and the result. */
function registerResponse(
  urn: string,
  kept: StateEntry | undefined,
  result: resproto.Result,
): resproto.RegisterResourceResponse {
  const response = new resproto.RegisterResourceResponse();
  response.setUrn(urn);
  response.setId(kept?.id ?? "");
  response.setObject(
    Struct.fromJavaScript((kept?.outputs ?? {}) as Record<string, structTypes.JavaScriptValue>),
  );
  response.setResult(result);
  return response;
}

/** The engine's refusal to delete a protected resource (step.go, deleteProtectedError). */
function deleteProtectedError(urn: string): EngineError {
  return {
    urn,
    op: "delete",
    message:
      `resource "${urn}" cannot be deleted\nbecause it is protected. To unprotect the resource, either remove ` +
      "the `protect` flag from the resource in your Pulumi program and run `pulumi up`, or use the command:\n" +
      `\`pulumi state unprotect '${urn}'\``,
  };
}

export function newResult(): RunResult {
  return {
    ok: true,
    errors: [],
    warnings: [],
    steps: Object.fromEntries(STEP_KINDS.map((k) => [k, []])) as unknown as Record<StepKind, Step[]>,
    operations: [],
    outputs: {},
    secretOutputs: [],
    interrupted: false,
  };
}

export interface DeploymentSettings {
  mode: Mode;
  plugin: ProviderPlugin;
  oldState: StateEntry[];
  steps: Limiter;
  project: string;
  stack: string;
  /** URNs or names to replace without asking Diff (`pulumi up --replace`). */
  replace?: string[];
  interruptAfter?: number;
  /** Resolves when the interrupted CLI dies (after the interruptAfter-th call was sent); default 50 ms. */
  interruptWhen?: () => Promise<void>;
  /** `--continue-on-error`: a failed create/update/delete does not stop the deployment. */
  continueOnError?: boolean;
}

interface Plan {
  kind: StepKind;
  checked: PropertyMap;
  changed: string[];
  replaceKeys: string[];
  deleteBeforeReplace: boolean;
}

export class Deployment {
  readonly result = newResult();
  /** Resources registered by this run, in completion order (dependencies before dependents). */
  readonly registered = new Map<string, StateEntry>();
  /** Replaced resources whose deletion is due at the end of the run. */
  readonly condemned: StateEntry[] = [];
  /** Provider calls under way: what the checkpoint's pending_operations holds if the CLI dies now. */
  readonly inFlightOperations = new Set<PendingOperation>();
  private readonly seen = new Set<string>();
  private readonly old: Map<string, StateEntry>;
  /** Old URN -> new URN, for resources found through an alias (their old URN must not be deleted). */
  private readonly aliased = new Map<string, string>();
  /** New URN -> the old URN it was found under, so children can inherit the alias. */
  private readonly oldUrnOf = new Map<string, string>();
  private readonly checkQueue = new Limiter(1);
  private readonly deleted = new Set<StateEntry>();
  /**
   * URNs whose step failed or was skipped under `--continue-on-error`: registrations that depend on one are
   * skipped, and what they depend on is not deleted (deployment_executor.go, handleSingleEvent's `skipped` and
   * performPostSteps' erroredDeps).
   */
  readonly skipped = new Set<string>();
  /** A failure that stops the deployment: no new step starts (step_executor.go, cancel()). */
  private canceled = false;
  private stackOutputs: PropertyMap = {};
  private rootUrn?: string;
  private inFlight = 0;
  private mutatingCalls = 0;
  private signalStopped?: () => void;
  /** Resolves once the deployment has failed and no step is in flight: the program is abandoned then. */
  readonly stopped = new Promise<void>((resolve) => (this.signalStopped = resolve));

  constructor(private readonly settings: DeploymentSettings) {
    this.old = new Map(settings.oldState.filter((e) => !e.pendingDelete).map((e) => [e.urn, e]));
  }

  /** True once no new step may start: a failure that cancels the deployment, or an interruption. */
  get failed(): boolean {
    return this.canceled || this.result.interrupted;
  }

  /**
   * Records an error. A failed create/update/delete (`stepFailure`) under `--continue-on-error` lets the
   * deployment go on; every other failure cancels it (step_executor.go, cancelDueToError; errors of step
   * generation, such as Check, always end the deployment: deployment_executor.go, Execute's main loop).
   */
  fail(error: EngineError, stepFailure = false): void {
    if (this.result.interrupted) return;
    this.result.errors.push(error);
    this.result.ok = false;
    if (!(stepFailure && this.settings.continueOnError)) this.canceled = true;
    this.noticeStop();
  }

  private noticeStop(): void {
    if (this.failed && this.inFlight === 0 && !this.result.interrupted) this.signalStopped?.();
  }

  private record(kind: StepKind, entry: StateEntry, details: Partial<Step> = {}): void {
    if (entry.type === ROOT_STACK_TYPE) return;
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

  /** Runs a provider call as part of `urn`'s step, recording its failure as the deployment's. */
  private async attempt<T>(op: EngineError["op"], urn: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (err instanceof DeploymentFailed) throw err;
      const stepFailure = op === "create" || op === "update" || op === "delete";
      this.fail({ urn, op, message: (err as Error).message }, stepFailure);
      if (stepFailure && this.settings.continueOnError) throw new StepFailed((err as Error).message);
      throw err;
    }
  }

  /**
   * A create/update/delete call, journaled as the engine does (pkg/backend/snapshot.go: a step's operation is
   * pending from its begin until its end is recorded). With `interruptAfter`, the CLI "dies" once that many
   * calls were sent: the plugin is killed and the calls still in flight stay pending.
   */
  private async mutate<T>(
    op: "create" | "update" | "delete",
    entry: StateEntry,
    inputs: PropertyMap,
    call: () => Promise<T>,
  ): Promise<T> {
    if (this.result.interrupted) throw new DeploymentFailed("interrupted");
    const pending: PendingOperation = {
      type: op === "create" ? "creating" : op === "update" ? "updating" : "deleting",
      urn: entry.urn,
      resourceType: entry.type,
      inputs,
      ...(entry.id ? { id: entry.id } : {}),
    };
    this.inFlightOperations.add(pending);
    const sent = call();
    this.mutatingCalls++;
    if (this.settings.interruptAfter !== undefined && this.mutatingCalls >= this.settings.interruptAfter) {
      this.interrupt();
    }
    try {
      const value = await sent;
      this.inFlightOperations.delete(pending);
      return value;
    } catch (err) {
      if (this.result.interrupted) throw new DeploymentFailed("interrupted");
      this.inFlightOperations.delete(pending);
      throw err;
    }
  }

  private interrupt(): void {
    if (this.result.interrupted) return;
    this.result.interrupted = true;
    this.result.ok = false;
    // Give the request that was just sent time to leave the plugin, then kill the plugin mid-flight.
    const when = this.settings.interruptWhen ?? (() => new Promise<void>((r) => setTimeout(r, 50)));
    void when()
      .then(() => this.settings.plugin.kill())
      .then(() => this.signalStopped?.());
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
    const { project, stack } = this.settings;
    const type = req.getType();
    const name = req.getName();
    const parent = req.getParent();
    const urn = createUrn(name, type, parent, project, stack);
    if (type === ROOT_STACK_TYPE && !parent) this.rootUrn = urn;
    if (this.seen.has(urn) || this.aliased.has(urn)) {
      this.fail({
        urn,
        op: "register",
        message: `Duplicate resource URN '${urn}'; try giving it a unique name`,
      });
      throw registrationRefused(`duplicate resource URN ${urn}`);
    }
    this.seen.add(urn);
    if (this.failed) throw registrationRefused("the deployment has failed; no new steps start");
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
        // An option the program did not set is absent, and then the provider decides (step_generator.go).
        ...(req.getDeletebeforereplacedefined() ? { deleteBeforeReplace: req.getDeletebeforereplace() } : {}),
        ignoreChanges: req.getIgnorechangesList(),
        replaceOnChanges: req.getReplaceonchangesList(),
        additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
        retainOnDelete: req.getRetainondelete() ?? false,
      },
    };
    let old: StateEntry | undefined;
    try {
      old = this.oldResource(goal, req);
      if (this.settings.continueOnError && dependenciesOf(goal).some((dep) => this.skipped.has(dep))) {
        // A dependency failed or was skipped: so is this one, and it keeps its old state (CreateStep.Skip,
        // UpdateStep.Skip in step.go; deployment_executor.go, handleSingleEvent, doesStepDependOn).
        // (The engine answers Result SKIP; the SDK 3.270's protocol knows only FAIL and treats both alike.)
        this.skipped.add(urn);
        return registerResponse(urn, old, resproto.Result.FAIL);
      }
      const importId = req.getImportid();
      const entry = !goal.custom
        ? this.stepComponent(goal, old)
        : importId && !old
          ? await this.stepImport(goal, importId)
          : await this.stepCustom(goal, old);
      const response = new resproto.RegisterResourceResponse();
      response.setUrn(urn);
      response.setId(entry.id ?? "");
      response.setObject(Struct.fromJavaScript(entry.outputs as Record<string, structTypes.JavaScriptValue>));
      return response;
    } catch (err) {
      if (err instanceof StepFailed) {
        // The SDK is told the registration failed (the engine's Result FAIL): the resource's outputs reject,
        // and the program goes on with everything that does not need them (step_executor.go, step.Fail()).
        this.skipped.add(urn);
        return registerResponse(urn, this.registered.get(urn) ?? old, resproto.Result.FAIL);
      }
      if (!this.failed) this.fail({ urn, op: "register", message: (err as Error).message });
      throw registrationRefused((err as Error).message);
    }
  }

  /**
   * The old state of a resource: by URN first, then by its aliases (step_generator.go, getOldResource). A
   * resource found through an alias takes over that entry, which is then not deleted at the end.
   */
  private oldResource(goal: StateEntry, req: resproto.RegisterResourceRequest): StateEntry | undefined {
    const direct = this.old.get(goal.urn);
    if (direct) return direct;
    const aliases = [
      ...req.getAliasurnsList(),
      ...aliasUrns(
        req.getAliasesList(),
        { name: goal.name, type: goal.type, parent: goal.parent ?? "" },
        {
          project: this.settings.project,
          stack: this.settings.stack,
          oldUrnOfParent: (p) => this.oldUrnOf.get(p),
        },
      ),
    ];
    for (const alias of aliases) {
      const old = this.old.get(alias);
      if (!old) continue;
      if (this.seen.has(alias) || this.aliased.has(alias)) {
        throw new Error(
          `Duplicate resource alias '${alias}' applied to resource with URN '${goal.urn}' conflicting with ` +
            `resource with URN '${this.aliased.get(alias) ?? alias}'`,
        );
      }
      this.aliased.set(alias, goal.urn);
      this.oldUrnOf.set(goal.urn, alias);
      return old;
    }
    return undefined;
  }

  registerOutputs(urn: string, outputs: PropertyMap): void {
    if (urn === this.rootUrn) this.stackOutputs = outputs;
    const entry = this.registered.get(urn);
    if (entry) entry.outputs = outputs;
  }

  private stepComponent(goal: StateEntry, old: StateEntry | undefined): StateEntry {
    const entry: StateEntry = { ...goal, outputs: old?.outputs ?? {} };
    this.record(old ? "same" : "create", entry, this.aliasDetails(goal));
    this.registered.set(goal.urn, entry);
    return entry;
  }

  private aliasDetails(goal: StateEntry): Partial<Step> {
    const alias = this.oldUrnOf.get(goal.urn);
    return alias ? { aliasOf: alias } : {};
  }

  /**
   * The `import` resource option (step_generator.go, ImportStep in step.go): the engine asks the provider to
   * Read the object by its id alone, with no inputs and no prior state. A dynamic provider cannot answer that:
   * its code travels in the state (`__provider`), which an import does not have.
   */
  private async stepImport(goal: StateEntry, importId: string): Promise<StateEntry> {
    // ImportStep.Apply has no preview branch: a preview reads too, and fails as an up does.
    const read = await this.attempt("import", goal.urn, () =>
      this.settings.plugin.read({ urn: goal.urn, id: importId, properties: {}, inputs: {} }),
    );
    if (!read.id) {
      this.fail({ urn: goal.urn, op: "import", message: `resource '${importId}' does not exist` });
      throw new DeploymentFailed(goal.urn);
    }
    const entry: StateEntry = { ...goal, id: read.id, inputs: read.inputs ?? {}, outputs: read.properties };
    this.registered.set(goal.urn, entry);
    this.record("create", entry);
    return entry;
  }

  private isTargetedReplace(goal: StateEntry): boolean {
    const targets = this.settings.replace ?? [];
    return targets.includes(goal.urn) || targets.includes(goal.name);
  }

  private async plan(goal: StateEntry, old: StateEntry | undefined, news: PropertyMap): Promise<Plan> {
    return this.checkQueue.run(async () => {
      this.stopIfFailed();
      if (!old) {
        const checked = await this.check(goal, {}, news);
        return { kind: "create", checked, changed: [], replaceKeys: [], deleteBeforeReplace: false };
      }
      if (this.isTargetedReplace(goal)) {
        // `--replace`: checked without the old inputs, and no Diff: the replacement "blames the id"
        // (step_generator.go, diff()); only the deleteBeforeReplace option can ask for delete-first.
        const checked = await this.check(goal, {}, news);
        return {
          kind: "replace",
          checked,
          changed: changedKeys(old.inputs, checked),
          replaceKeys: ["id"],
          deleteBeforeReplace: goal.options.deleteBeforeReplace ?? false,
        };
      }
      const checked = await this.check(goal, old.inputs, news);
      const diff = await this.attempt("diff", goal.urn, () =>
        this.settings.plugin.diff({
          urn: goal.urn,
          id: old.id ?? "",
          olds: reveal(old.outputs),
          news: reveal(checked),
          oldInputs: reveal(old.inputs),
          ignoreChanges: goal.options.ignoreChanges,
        }),
      );
      const changed = changedKeys(old.inputs, checked);
      // A dynamic provider's Diff carries no changed keys and no detailed diff, so `replaceOnChanges` has
      // nothing to act on (step_generator.go, applyReplaceOnChanges): it is ignored here as there.
      const hasChanges =
        diff.changes === "some" ||
        (diff.changes === "unknown" && changed.length > 0) || // diffResource: engine-side comparison
        (old.initErrors?.length ?? 0) > 0; // continueStepsFromDiff: init errors force an update
      const replaces = diff.changes !== "none" && diff.replaces.length > 0;
      return {
        kind: !hasChanges && !replaces ? "same" : replaces ? "replace" : "update",
        checked,
        changed,
        replaceKeys: diff.replaces,
        // An explicit option wins over the provider's answer (step_generator.go, continueStepsFromDiff).
        deleteBeforeReplace: goal.options.deleteBeforeReplace ?? diff.deleteBeforeReplace,
      };
    });
  }

  private async stepCustom(goal: StateEntry, old: StateEntry | undefined): Promise<StateEntry> {
    if (!goal.type.startsWith("pulumi-nodejs:dynamic")) {
      throw new Error(`${goal.type}: only dynamic resources (pulumi-nodejs:dynamic*) are supported here`);
    }
    const news = { ...goal.inputs };
    if (old) {
      // ignoreChanges: the engine keeps the old value of an ignored property (top-level paths only here).
      for (const key of goal.options.ignoreChanges) {
        if (key in old.inputs) news[key] = old.inputs[key];
        else delete news[key];
      }
    }
    const plan = await this.plan(goal, old, news);
    const details = {
      changedKeys: plan.changed,
      replaceKeys: plan.replaceKeys,
      // Additive, for displays (the demo's preview): what each changed input of an update or replacement was
      // and becomes (a "same" step shows no diff in the CLI either: pkg/backend/display/object_diff.go).
      ...(old && plan.changed.length > 0 && (plan.kind === "update" || plan.kind === "replace")
        ? { changedValues: changedValues(old.inputs, plan.checked, plan.changed) }
        : {}),
      ...this.aliasDetails(goal),
    };
    if (plan.kind === "same" && old) {
      const entry: StateEntry = { ...goal, id: old.id, inputs: plan.checked, outputs: old.outputs };
      this.record("same", entry, details);
      this.registered.set(goal.urn, entry);
      return entry;
    }
    if (plan.kind === "replace" && old) {
      this.refuseProtectedReplace(goal, old);
      // A replacement is a new resource: the engine checks it again without the old inputs, in a preview too
      // (step_generator.go, after the protect check; not for --replace, already checked that way).
      if (!this.isTargetedReplace(goal)) {
        plan.checked = await this.checkQueue.run(() => this.check(goal, {}, news));
      }
    }
    if (this.settings.mode === "preview") {
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
    return this.replace(goal, old as StateEntry, plan, details);
  }

  /**
   * A protected resource cannot be replaced: that entails a delete (step_generator.go, "unable to replace
   * resource ... as it is currently marked for protection"). An up stops at once; a preview records the error
   * and goes on, so that the user sees the whole plan, and fails at the end.
   */
  private refuseProtectedReplace(goal: StateEntry, old: StateEntry): void {
    if (!(old.options.protect && goal.options.protect)) return;
    const error: EngineError = {
      urn: goal.urn,
      op: "delete",
      message:
        `unable to replace resource "${goal.urn}"\nas it is currently marked for protection. To unprotect the ` +
        "resource, remove the `protect` flag from the resource in your Pulumi program and run `pulumi up`",
    };
    if (this.settings.mode === "preview") {
      this.previewError(error);
      return;
    }
    this.fail(error);
    throw new DeploymentFailed(goal.urn);
  }

  /** An error a preview reports and goes on after (step_generator.go, sg.sawError in DryRun). */
  private previewError(error: EngineError): void {
    this.result.errors.push(error);
    this.result.ok = false;
  }

  private async replace(
    goal: StateEntry,
    old: StateEntry,
    plan: Plan,
    details: Partial<Step>,
  ): Promise<StateEntry> {
    const checked = plan.checked;
    if (plan.deleteBeforeReplace) {
      await this.settings.steps.run(async () => {
        this.stopIfFailed();
        await this.deleteResource(old);
      });
    }
    const entry = await this.create(goal, checked);
    if (!plan.deleteBeforeReplace) {
      // Create-before-delete: the old one goes after the program, once its dependents have moved.
      this.condemned.push({ ...old, pendingDelete: true });
    }
    this.record("replace", entry, {
      ...details,
      oldId: old.id,
      deleteBeforeReplace: plan.deleteBeforeReplace,
    });
    return entry;
  }

  private stopIfFailed(): void {
    if (this.failed) throw new DeploymentFailed("the deployment has failed; no new steps start");
  }

  private async check(goal: StateEntry, olds: PropertyMap, news: PropertyMap): Promise<PropertyMap> {
    const result = await this.attempt("check", goal.urn, () =>
      this.settings.plugin.check({ urn: goal.urn, olds: reveal(olds), news: reveal(news) }),
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
    return this.settings.steps.run(async () => {
      this.stopIfFailed();
      try {
        const created = await this.attempt("create", goal.urn, () =>
          this.mutate("create", goal, checked, () =>
            this.settings.plugin.create({ urn: goal.urn, properties: reveal(checked) }),
          ),
        );
        this.result.operations.push({ op: "create", urn: goal.urn, id: created.id });
        return this.keep(goal, created.id, checked, created.properties);
      } catch (err) {
        this.keepInitFailure("create", goal, checked, err);
        throw err;
      }
    });
  }

  private async update(goal: StateEntry, old: StateEntry, checked: PropertyMap): Promise<StateEntry> {
    const id = old.id ?? "";
    return this.settings.steps.run(async () => {
      this.stopIfFailed();
      try {
        // The journal marks the step's new state (pkg/backend/snapshot.go, doUpdate: step.New()): the new
        // URN and type when the old state was found through an alias, with the old id.
        const outs = await this.attempt("update", goal.urn, () =>
          this.mutate("update", { ...goal, id }, checked, () =>
            this.settings.plugin.update({
              urn: goal.urn,
              id,
              olds: reveal(old.outputs),
              news: reveal(checked),
              oldInputs: reveal(old.inputs),
            }),
          ),
        );
        this.result.operations.push({ op: "update", urn: goal.urn, id });
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
  private keepInitFailure(op: "create" | "update", goal: StateEntry, checked: PropertyMap, err: unknown) {
    if (err instanceof ProviderCallError && err.initFailure) {
      const { id, properties, reasons } = err.initFailure;
      this.result.operations.push({ op, urn: goal.urn, id });
      this.keep(goal, id, checked, properties, reasons.length > 0 ? reasons : [err.message]);
    }
  }

  async deleteResource(entry: StateEntry): Promise<void> {
    if (entry.options.protect) {
      this.fail(deleteProtectedError(entry.urn));
      throw new DeleteProtected(entry.urn);
    }
    if (!entry.custom || entry.options.retainOnDelete) {
      this.deleted.add(entry);
      return;
    }
    const id = entry.id ?? "";
    await this.attempt("delete", entry.urn, () =>
      this.mutate("delete", entry, entry.inputs, () =>
        this.settings.plugin.delete({
          urn: entry.urn,
          id,
          properties: reveal(entry.outputs),
          oldInputs: reveal(entry.inputs),
        }),
      ),
    );
    this.result.operations.push({ op: "delete", urn: entry.urn, id });
    this.deleted.add(entry);
  }

  /**
   * After the program: deletes what it no longer declares (renamed resources without `aliases` included) and
   * what was replaced, unless the run failed (deployment_executor.go, performPostSteps).
   */
  async finish(): Promise<void> {
    const removed = this.settings.oldState.filter(
      (e) => !e.pendingDelete && !this.seen.has(e.urn) && !this.aliased.has(e.urn),
    );
    if (this.settings.mode === "preview") {
      if (this.failed) return;
      for (const entry of removed) {
        // DeleteStep.Apply refuses a protected resource before its preview branch (step.go,
        // deleteProtectedError), and the executor goes on past it: a preview lists every such refusal.
        if (entry.options.protect) this.previewError(deleteProtectedError(entry.urn));
        else this.record("delete", entry);
      }
      return;
    }
    if (this.failed) return;
    // Under --continue-on-error, what a failed or skipped resource depends on is not deleted
    // (deployment_executor.go, performPostSteps, erroredDeps).
    const erroredDeps = transitiveDependencies(
      [...this.skipped],
      [...this.registered.values(), ...this.settings.oldState],
    );
    const due = [
      ...removed,
      ...this.settings.oldState.filter((e) => e.pendingDelete),
      ...this.condemned,
    ].filter((e) => !erroredDeps.has(e.urn));
    await deleteInAntichains(
      due,
      this.settings.steps,
      async (e) => {
        await this.deleteResource(e);
        if (removed.includes(e)) this.record("delete", e);
      },
      (err) => err instanceof DeleteProtected || err instanceof StepFailed,
    );
  }

  /** Destroy: deletes every resource of the state. */
  async destroyAll(): Promise<void> {
    await deleteInAntichains(
      this.settings.oldState,
      this.settings.steps,
      async (e) => {
        await this.deleteResource(e);
        this.record("delete", e);
      },
      (err) => err instanceof DeleteProtected || err instanceof StepFailed,
    );
  }

  /** The state after this run: what it registered, then whatever survives from before (a failed run keeps it). */
  newState(): StateEntry[] {
    const survivors = this.settings.oldState.filter(
      (e) =>
        !this.deleted.has(e) &&
        (e.pendingDelete || (!this.registered.has(e.urn) && !this.registeredUnderAlias(e.urn))),
    );
    return [...this.registered.values(), ...survivors, ...this.condemned.filter((e) => !this.deleted.has(e))];
  }

  private registeredUnderAlias(oldUrn: string): boolean {
    const now = this.aliased.get(oldUrn);
    return now !== undefined && this.registered.has(now);
  }

  /** A program error, unless the deployment already failed: the program's follow-on errors are noise then. */
  programFailed(err: unknown): void {
    if (!this.failed) this.fail({ op: "program", message: err instanceof Error ? err.message : String(err) });
  }

  finalResult(): RunResult {
    return {
      ...this.result,
      outputs: reveal(this.stackOutputs),
      secretOutputs: secretKeysOf(this.stackOutputs),
    };
  }
}
