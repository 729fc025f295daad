/**
 * One `pulumi up`, `preview` or `destroy`: the step generator (stepGenerator.ts) for the program's registrations,
 * then the deletes after the program (pkg/resource/deploy/deployment_executor.go, performPostSteps) and the
 * state the run leaves. Each behaviour names the file of pulumi/pulumi it follows.
 */
import { deleteInAntichains, transitiveDependencies } from "./schedule";
import { DeleteProtected, StepFailed, deleteProtectedError } from "./steps";
import { StepGenerator } from "./stepGenerator";
import { nameOf, unknownLiteralTargetErrors } from "./targets";
import type { RunResult, StateEntry } from "./types";
import { reveal, secretKeysOf } from "./values";

export { newResult, type Mode } from "./steps";

export class Deployment extends StepGenerator {
  /**
   * After the program: deletes what it no longer declares (renamed resources without `aliases` included) and
   * what was replaced, unless the run failed (deployment_executor.go, performPostSteps).
   */
  async finish(): Promise<void> {
    // `--target` names are checked after the program, against the old and the new resources; the deletes still
    // run, then the run fails (deployment_executor.go, Execute: checkTargets just before performPostSteps). Only
    // literal targets are checked: a glob matching nothing is no error (checkTargets: targets.Literals()).
    const known = [...this.settings.oldState, ...[...this.seen].map((urn) => ({ urn, name: nameOf(urn) }))];
    const unknownTargets = unknownLiteralTargetErrors(this.settings.targets?.target, known);
    await this.performPostSteps();
    for (const error of unknownTargets) {
      if (this.settings.mode === "preview") this.previewError(error);
      else this.fail(error);
    }
  }

  private async performPostSteps(): Promise<void> {
    // Under --target / --exclude only what the run takes part in is deleted; the rest stays (GenerateDeletes).
    const deletable = this.targets.deletable(this.settings.oldState);
    const removed = this.settings.oldState.filter(
      (e) => !e.pendingDelete && !this.seen.has(e.urn) && !this.aliased.has(e.urn) && deletable(e),
    );
    const untargetedDeletes = this.targets.untargetedDeleteErrors(removed);
    if (this.settings.mode === "preview") {
      if (this.failed) return;
      untargetedDeletes.forEach((error) => this.previewError(error));
      for (const entry of removed) {
        // DeleteStep.Apply refuses a protected resource before its preview branch (step.go,
        // deleteProtectedError), and the executor goes on past it: a preview lists every such refusal.
        if (entry.options.protect) this.previewError(deleteProtectedError(entry.urn));
        else this.record("delete", entry);
      }
      return;
    }
    if (this.failed) return;
    if (untargetedDeletes.length > 0) {
      // An up deletes nothing then: "We don't want to delete something the user didn't ask for."
      untargetedDeletes.forEach((error) => this.fail(error));
      return;
    }
    // Under --continue-on-error, what a failed or skipped resource depends on is not deleted
    // (deployment_executor.go, performPostSteps, erroredDeps).
    const erroredDeps = transitiveDependencies(
      [...this.skipped],
      [...this.registered.values(), ...this.settings.oldState],
    );
    const due = [
      ...removed,
      ...this.settings.oldState.filter((e) => e.pendingDelete && deletable(e)),
      ...this.condemned,
    ].filter((e) => !erroredDeps.has(e.urn));
    due.forEach((e) => this.deletions.add(e.urn));
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
    // `destroy --target`: the targets and what depends on them; the rest stays (GenerateDeletes).
    const due = this.settings.oldState.filter(this.targets.deletable(this.settings.oldState));
    const untargetedDeletes = this.targets.untargetedDeleteErrors(due);
    if (untargetedDeletes.length > 0) {
      untargetedDeletes.forEach((error) => this.fail(error));
      return;
    }
    due.forEach((e) => this.deletions.add(e.urn));
    await deleteInAntichains(
      due,
      this.settings.steps,
      async (e) => {
        await this.deleteResource(e);
        this.record("delete", e);
      },
      (err) => err instanceof DeleteProtected || err instanceof StepFailed,
    );
  }

  /**
   * The state after this run: what it registered, then whatever survives from before (a failed run keeps it),
   * then the resources a delete-first replacement deleted and could not create again.
   */
  newState(): StateEntry[] {
    const survivors = this.settings.oldState.filter(
      (e) =>
        !this.deleted.has(e) &&
        (e.pendingDelete || (!this.registered.has(e.urn) && !this.registeredUnderAlias(e.urn))),
    );
    const pending = [...this.pendingReplacements.values()].filter((e) => !this.registered.has(e.urn));
    return [
      ...this.registered.values(),
      ...survivors,
      ...this.condemned.filter((e) => !this.deleted.has(e)),
      ...pending,
    ];
  }

  private registeredUnderAlias(oldUrn: string): boolean {
    const now = this.aliased.get(oldUrn);
    return now !== undefined && this.registered.has(now);
  }

  finalResult(): RunResult {
    return {
      ...this.result,
      outputs: reveal(this.stackOutputs),
      secretOutputs: secretKeysOf(this.stackOutputs),
    };
  }
}
