/**
 * Replacements, over the step executor (executor.ts), under the step generator (stepGenerator.ts): the checks a
 * replacement gets, the chain of a delete-first replacement (its dependents deleted first, then itself, then the
 * create), and the dependents' re-creation when the program registers them again. Each behaviour names the file
 * and function of pulumi/pulumi (pkg/resource/deploy/) it follows.
 */
import { StepExecutor } from "./executor";
import { UNKNOWN, type PropertyMap } from "./plugin";
import { Limiter } from "./schedule";
import {
  DeploymentFailed,
  StepFailed,
  protectedDependentError,
  protectedReplaceError,
  type Plan,
} from "./steps";
import type { Step, StateEntry } from "./types";
import { changedKeys, changedValues, reveal } from "./values";

/** A resource a delete-first replacement's chain deletes ahead of its dependency (sg.pendingDeletes). */
interface DeletedAhead {
  /** The replace keys its Diff gave (sg.dependentReplaceKeys): what its re-creation is blamed on. */
  keys: string[];
  /** Settles when the chain has run (deleted it, or stopped before): its re-creation waits for that. */
  done: Promise<void>;
  settle(): void;
}

export class ReplacementSteps extends StepExecutor {
  /** Replaced resources whose deletion is due at the end of the run. */
  readonly condemned: StateEntry[] = [];
  /** Old states a delete-first replacement of this run deleted, by URN, until their replacement is created. */
  protected readonly pendingReplacements = new Map<string, StateEntry>();
  /** URNs replaced by this run (step_generator.go, sg.replaces): what is `deletedWith` one is replaced too. */
  protected readonly replaced = new Set<string>();
  /**
   * URNs this run generated a step for (sg.sames, creates, updates, replaces, reads): a dependent of a
   * delete-first replacement already registered is not one any more (calculateDependentReplacements,
   * impossibleDependents).
   */
  protected readonly operatedOn = new Set<string>();
  /** Old states deleted ahead by a delete-first replacement's chain (not re-created yet). */
  private readonly deletedAhead = new Map<StateEntry, DeletedAhead>();
  /** Check and Diff run one at a time, as the engine's step generation does. */
  protected readonly checkQueue = new Limiter(1);

  /**
   * What follows a replace decision in step generation, in the engine's order (step_generator.go,
   * continueStepsFromDiff): a protected resource is refused; the replacement is checked again without the old
   * inputs, with the program's values (not for a `--replace` or taint, checked that way already); and a
   * delete-first one finds the dependents it must delete first. Runs in the check queue, as part of the plan.
   */
  protected async prepareReplacement(
    goal: StateEntry,
    old: StateEntry,
    plan: Plan,
    targetedReplace: boolean,
  ): Promise<void> {
    this.replaced.add(goal.urn);
    this.refuseProtectedReplace(goal, old);
    if (!targetedReplace) plan.checked = await this.check(goal, {}, goal.inputs);
    if (plan.deleteBeforeReplace) plan.dependents = await this.planDependentDeletes(old);
  }

  /**
   * A protected resource cannot be replaced: that entails a delete (step_generator.go, "unable to replace
   * resource ... as it is currently marked for protection"). An up stops at once; a preview records the error
   * and goes on, so that the user sees the whole plan, and fails at the end.
   */
  private refuseProtectedReplace(goal: StateEntry, old: StateEntry): void {
    if (!(old.options.protect && goal.options.protect)) return;
    const error = protectedReplaceError(goal.urn);
    if (this.settings.mode === "preview") {
      this.previewError(error);
      return;
    }
    this.fail(error);
    throw new DeploymentFailed(goal.urn);
  }

  /**
   * The dependents a delete-first replacement of `root` deletes before `root`, in the order of their deletes
   * (step_generator.go, continueStepsFromDiff: calculateDependentReplacements, then
   * findDependentCascadeReplacements, deleted from the last to the first, each only once per run). A protected
   * one fails the run before any delete, in a preview too. A preview deletes nothing, but the dependents are
   * re-created all the same when the program registers them.
   */
  private async planDependentDeletes(root: StateEntry): Promise<StateEntry[]> {
    const toReplace = [...(await this.dependentReplacements(root)), ...this.cascades(root.urn)];
    const due: StateEntry[] = [];
    for (const { entry, keys } of toReplace.reverse()) {
      if (this.deletedAhead.has(entry)) continue; // sg.pendingDeletes: deleted by this or another chain
      if (!entry.pendingDelete && entry.options.protect) {
        this.fail(protectedDependentError(entry.urn, root.urn));
        throw new DeploymentFailed(root.urn);
      }
      let settle = () => {};
      const done = new Promise<void>((resolve) => (settle = resolve));
      this.deletedAhead.set(entry, { keys, done, settle });
      if (this.settings.mode === "preview") settle();
      due.push(entry);
    }
    // sg.deletes: marked before any of the chain's deletes runs, so what is deleted with one of them (the root
    // included) gets no Delete call of its own (step.go, DeleteStep.Apply, isDeletedWith).
    due.forEach((entry) => this.deletions.add(entry.urn));
    if (!root.pendingReplacement) this.deletions.add(root.urn);
    return due;
  }

  /**
   * step_generator.go, calculateDependentReplacements: the old state's resources after `root` that depend on it
   * through dependencies, property dependencies or deletedWith, directly or through one another (not through
   * `parent`: DependingOn without children), leaving out those this run already generated a step for. Of these,
   * a custom resource is replaced when it is deleted with one that is, or when its provider's Diff, given its
   * inputs with each property that depends on a replaced resource unknown, answers replace keys. (The engine
   * also replaces those whose provider is replaced; all dynamic resources share one default provider here.)
   */
  private async dependentReplacements(
    root: StateEntry,
  ): Promise<Array<{ entry: StateEntry; keys: string[] }>> {
    const state = this.settings.oldState;
    const start = state.includes(root)
      ? state.indexOf(root)
      : state.findIndex((e) => e.urn === root.urn && !e.pendingDelete);
    const ignored = (urn: string) =>
      this.operatedOn.has(urn) || this.deletions.has(urn) || this.replaced.has(urn);
    const dependentSet = new Set([root.urn]);
    const replaceSet = new Set([root.urn]);
    const found: Array<{ entry: StateEntry; keys: string[] }> = [];
    for (const candidate of state.slice(start + 1)) {
      const deps = [
        ...candidate.dependencies,
        ...Object.values(candidate.propertyDependencies).flat(),
        ...(candidate.options.deletedWith ? [candidate.options.deletedWith] : []),
      ];
      if (ignored(candidate.urn) || !deps.some((dep) => dependentSet.has(dep))) continue;
      dependentSet.add(candidate.urn);
      const keys = await this.requiresReplacement(candidate, replaceSet);
      if (keys) {
        replaceSet.add(candidate.urn);
        found.push({ entry: candidate, keys });
      }
    }
    return found;
  }

  /** calculateDependentReplacements' requiresReplacement: the replace keys, or undefined when not replaced. */
  private async requiresReplacement(r: StateEntry, replaceSet: Set<string>): Promise<string[] | undefined> {
    if (!r.custom) return undefined;
    if (r.options.deletedWith && replaceSet.has(r.options.deletedWith)) return [];
    let affected = false;
    const inputsForDiff: PropertyMap = {};
    for (const [key, value] of Object.entries(r.inputs)) {
      const dependsOnReplaced = (r.propertyDependencies[key] ?? []).some((dep) => replaceSet.has(dep));
      affected ||= dependsOnReplaced;
      inputsForDiff[key] = dependsOnReplaced ? UNKNOWN : value;
    }
    if (!affected) return undefined;
    // diffResource with allowUnknowns: an answer of "unknown" becomes the engine's comparison, which has no
    // replace keys; only the provider's replace keys replace (DiffResult.Replace).
    const diff = await this.diffResource(r.urn, r, inputsForDiff, r.options.ignoreChanges);
    return diff.replaces.length > 0 ? diff.replaces : undefined;
  }

  /**
   * The provider's Diff of `news` against an old state (step_generator.go, diffResource): its outputs, its
   * inputs, and the program's ignoreChanges, under `urn` (the new URN when found through an alias).
   */
  protected diffResource(urn: string, old: StateEntry, news: PropertyMap, ignoreChanges: string[]) {
    return this.attempt("diff", urn, () =>
      this.settings.plugin.diff({
        urn,
        id: old.id ?? "",
        olds: reveal(old.outputs),
        news: reveal(news),
        oldInputs: reveal(old.inputs),
        ignoreChanges,
      }),
    );
  }

  /**
   * step_generator.go, findDependentCascadeReplacements: every old resource deleted with the replaced one goes
   * too, blamed on no key (replaceWith is not modelled).
   */
  private cascades(urn: string): Array<{ entry: StateEntry; keys: string[] }> {
    return this.settings.oldState
      .filter((e) => !e.pendingDelete && e.options.deletedWith === urn)
      .map((entry) => ({ entry, keys: [] }));
  }

  /**
   * The replacement of a resource: delete-first (its chain deletes the planned dependents, then the old
   * resource unless an earlier run did, then creates; step_generator.go, continueStepsFromDiff, executed in
   * order as one chain), or create-before-delete (the old one is deleted after the program).
   */
  protected async replace(
    goal: StateEntry,
    old: StateEntry,
    plan: Plan,
    details: Partial<Step>,
  ): Promise<StateEntry> {
    if (plan.deleteBeforeReplace) {
      try {
        for (const dependent of plan.dependents ?? []) {
          await this.deleteInChain(dependent);
          // Deleted, to be created again when the program registers it (DeleteStep.Apply, pendingReplacement).
          if (!dependent.pendingDelete) {
            this.pendingReplacements.set(dependent.urn, { ...dependent, pendingReplacement: true });
          }
        }
        if (!old.pendingReplacement) {
          await this.deleteInChain(old);
          // Deleted, not yet replaced: until the create succeeds the state keeps it as pending replacement
          // (step.go, DeleteStep.Apply sets PendingReplacement once the delete succeeded).
          this.pendingReplacements.set(goal.urn, { ...old, pendingReplacement: true });
        }
      } finally {
        (plan.dependents ?? []).forEach((dependent) => this.deletedAhead.get(dependent)?.settle());
        this.keepStateOrder();
      }
    }
    const entry = await this.create(goal, plan.checked);
    this.pendingReplacements.delete(goal.urn);
    this.pendingReplacements.delete(old.urn);
    if (!plan.deleteBeforeReplace) {
      // Create-before-delete: the old one goes after the program, once its dependents have moved.
      this.condemned.push({ ...old, pendingDelete: true });
      this.deletions.add(old.urn);
    }
    this.record("replace", entry, {
      ...details,
      oldId: old.id,
      deleteBeforeReplace: plan.deleteBeforeReplace,
    });
    return entry;
  }

  /**
   * The pending replacements stay where they were in the state (DeleteStep.Apply marks the old state in place),
   * dependencies before dependents, whatever the order of the chain's deletes.
   */
  private keepStateOrder(): void {
    const position = (e: StateEntry) => this.settings.oldState.findIndex((old) => old.urn === e.urn);
    const ordered = [...this.pendingReplacements.entries()].sort(([, a], [, b]) => position(a) - position(b));
    this.pendingReplacements.clear();
    ordered.forEach(([urn, entry]) => this.pendingReplacements.set(urn, entry));
  }

  private async deleteInChain(entry: StateEntry): Promise<void> {
    await this.settings.steps.run(async () => {
      this.stopIfFailed();
      this.deletions.add(entry.urn);
      await super.deleteResource(entry);
    });
  }

  /**
   * A registration whose old state a delete-first replacement's chain deleted ahead: it waits for that chain.
   * Registered under its own URN, it is re-created (`recreate`); found through an alias, the engine sees the old
   * state it marked pending replacement, and so does the step generator here. When the chain stopped before
   * deleting it, it is not re-created: the run has failed (or, under `--continue-on-error`, it is skipped).
   */
  protected async deletedAheadOf(old: StateEntry | undefined): Promise<StateEntry | undefined> {
    const ahead = old && this.deletedAhead.get(old);
    if (!old || !ahead) return old;
    await ahead.done;
    this.stopIfFailed();
    if (this.settings.mode !== "preview" && !this.deleted.has(old)) {
      throw new StepFailed(`${old.urn} was not deleted ahead of its dependency's replacement`);
    }
    return { ...old, pendingReplacement: true };
  }

  /** Whether a delete-first replacement's chain of this run deletes (or deleted) this old state ahead. */
  protected isDeletedAhead(old: StateEntry | undefined): old is StateEntry {
    return old !== undefined && this.deletedAhead.has(old);
  }

  /**
   * A dependent deleted ahead, registered again under its URN (step_generator.go, continueStepsFromRefresh
   * `recreating`, and continueStepsFromImport, case 1): checked without the old inputs, with the program's
   * values; no Diff; a delete-first replacement blamed on the keys its Diff gave, whose create needs no delete.
   */
  protected async recreate(goal: StateEntry, original: StateEntry): Promise<StateEntry> {
    const keys = this.deletedAhead.get(original)?.keys ?? [];
    const checked = await this.checkQueue.run(async () => {
      this.stopIfFailed();
      this.operatedOn.add(goal.urn);
      this.replaced.add(goal.urn);
      return this.check(goal, {}, goal.inputs);
    });
    const changed = changedKeys(original.inputs, checked);
    const details: Partial<Step> = {
      changedKeys: changed,
      replaceKeys: keys,
      ...(changed.length > 0 ? { changedValues: changedValues(original.inputs, checked, changed) } : {}),
      oldId: original.id,
      deleteBeforeReplace: true,
    };
    if (this.settings.mode === "preview") {
      const entry: StateEntry = { ...goal, inputs: checked, outputs: checked };
      this.record("replace", entry, details);
      return entry;
    }
    const entry = await this.create(goal, checked);
    this.pendingReplacements.delete(goal.urn);
    this.record("replace", entry, details);
    return entry;
  }

  /**
   * A dependent deleted ahead and then dropped by the program: deleted already, only its state entry goes
   * (step_generator.go, GenerateDeletes: RemovePendingReplaceStep for a pending replacement; a pending delete
   * deleted ahead is skipped, sg.pendingDeletes).
   */
  override async deleteResource(entry: StateEntry): Promise<void> {
    if (this.deletedAhead.has(entry) && this.deleted.has(entry)) {
      if (this.pendingReplacements.get(entry.urn)?.id === entry.id)
        this.pendingReplacements.delete(entry.urn);
      return;
    }
    await super.deleteResource(entry);
  }
}
