/**
 * The step executor of one deployment (pkg/resource/deploy/step_executor.go): provider calls for creates,
 * updates and deletes, journaled as pending operations while they run, and what a failure does to the rest.
 */
import { ProviderCallError, type PropertyMap } from "./plugin";
import {
  DeleteProtected,
  DeploymentFailed,
  StepFailed,
  deleteProtectedError,
  newResult,
  type DeploymentSettings,
} from "./steps";
import type { EngineError, PendingOperation, Step, StateEntry, StepKind } from "./types";
import { ROOT_STACK_TYPE, annotateSecrets, dropUnknowns, reveal } from "./values";

export class StepExecutor {
  readonly result = newResult();
  /** Resources registered by this run, in completion order (dependencies before dependents). */
  readonly registered = new Map<string, StateEntry>();
  /** Provider calls under way: what the checkpoint's pending_operations holds if the CLI dies now. */
  readonly inFlightOperations = new Set<PendingOperation>();
  protected readonly deleted = new Set<StateEntry>();
  /** URNs this run deletes (step_generator.go, sg.deletes): what is `deletedWith` one of them needs no Delete. */
  protected readonly deletions = new Set<string>();
  /**
   * URNs whose step failed or was skipped under `--continue-on-error`: registrations that depend on one are
   * skipped, and what they depend on is not deleted (deployment_executor.go, handleSingleEvent's `skipped` and
   * performPostSteps' erroredDeps).
   */
  readonly skipped = new Set<string>();
  /** A failure that stops the deployment: no new step starts (step_executor.go, cancel()). */
  private canceled = false;
  protected inFlight = 0;
  private mutatingCalls = 0;
  private signalStopped?: () => void;
  /** Resolves once the deployment has failed and no step is in flight: the program is abandoned then. */
  readonly stopped = new Promise<void>((resolve) => (this.signalStopped = resolve));

  constructor(protected readonly settings: DeploymentSettings) {}

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

  protected noticeStop(): void {
    if (this.failed && this.inFlight === 0 && !this.result.interrupted) this.signalStopped?.();
  }

  protected record(kind: StepKind, entry: StateEntry, details: Partial<Step> = {}): void {
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
  protected async attempt<T>(op: EngineError["op"], urn: string, call: () => Promise<T>): Promise<T> {
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

  /** An error a preview reports and goes on after (step_generator.go, sg.sawError in DryRun). */
  protected previewError(error: EngineError): void {
    this.result.errors.push(error);
    this.result.ok = false;
  }

  protected stopIfFailed(): void {
    if (this.failed) throw new DeploymentFailed("the deployment has failed; no new steps start");
  }

  protected async check(goal: StateEntry, olds: PropertyMap, news: PropertyMap): Promise<PropertyMap> {
    const sent = (props: PropertyMap) =>
      this.settings.mode === "preview" ? reveal(props) : dropUnknowns(reveal(props));
    const result = await this.attempt("check", goal.urn, () =>
      this.settings.plugin.check({ urn: goal.urn, olds: sent(olds), news: sent(news) }),
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

  protected async create(goal: StateEntry, checked: PropertyMap): Promise<StateEntry> {
    return this.settings.steps.run(async () => {
      this.stopIfFailed();
      try {
        const created = await this.attempt("create", goal.urn, async () => {
          const answer = await this.mutate("create", goal, checked, () =>
            this.settings.plugin.create({ urn: goal.urn, properties: reveal(checked) }),
          );
          // plugin/provider_plugin.go, Create: an empty id is the provider's error, not a resource.
          if (!answer.id) throw new Error(`plugin returned empty resource.ID from create '${goal.urn}'`);
          return answer;
        });
        this.result.operations.push({ op: "create", urn: goal.urn, id: created.id });
        return this.keep(goal, created.id, checked, created.properties);
      } catch (err) {
        this.keepInitFailure("create", goal, checked, err);
        throw err;
      }
    });
  }

  protected async update(goal: StateEntry, old: StateEntry, checked: PropertyMap): Promise<StateEntry> {
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
        // A partially failed update keeps the old inputs with the new outputs: the object was not updated
        // successfully with the new inputs (pkg/engine/update.go, OnResourceStepPost).
        this.keepInitFailure("update", goal, old.inputs, err);
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

  /**
   * The `import` resource option (step_generator.go, ImportStep in step.go): the engine asks the provider to
   * Read the object by its id alone, with no inputs and no prior state. A dynamic provider cannot answer that:
   * its code travels in the state (`__provider`), which an import does not have.
   */
  protected async importResource(goal: StateEntry, importId: string): Promise<StateEntry> {
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

  async deleteResource(entry: StateEntry): Promise<void> {
    if (entry.pendingReplacement) {
      // Deleted already, by the delete-first replacement that left it pending (step_generator.go,
      // RemovePendingReplaceStep): only the state entry goes.
      this.deleted.add(entry);
      return;
    }
    if (entry.options.protect) {
      this.fail(deleteProtectedError(entry.urn));
      throw new DeleteProtected(entry.urn);
    }
    // Not custom, retainOnDelete, or deleted with another resource this run deletes: no provider call
    // (step.go, DeleteStep.Apply, after the protect check; isDeletedWith).
    const deletedWithOther = entry.options.deletedWith && this.deletions.has(entry.options.deletedWith);
    if (!entry.custom || entry.options.retainOnDelete || deletedWithOther) {
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

  /** A program error, unless the deployment already failed: the program's follow-on errors are noise then. */
  programFailed(err: unknown): void {
    if (!this.failed) this.fail({ op: "program", message: err instanceof Error ? err.message : String(err) });
  }
}
