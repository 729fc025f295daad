/**
 * `--target` / `--exclude` (with `--target-dependents` / `--exclude-dependents`): which resources take part in
 * a run (pkg/resource/deploy/step_generator.go, isIncludedInOperation, isTargetedForUpdate, isExcludedFromUpdate,
 * GenerateDeletes and the determine...ResourcesToDelete... functions). Targets are URNs or, as the stand-in's
 * `--replace`, names; the engine's glob patterns are not modelled.
 */
import { dependenciesOf } from "./schedule";
import type { EngineError, StateEntry } from "./types";

export interface TargetOptions {
  target?: string[];
  targetDependents?: boolean;
  exclude?: string[];
  excludeDependents?: boolean;
}

const matches = (list: string[] | undefined, entry: { urn: string; name: string }) =>
  (list ?? []).some((t) => t === entry.urn || t === entry.name);

export class TargetFilter {
  /** The URNs targeted or excluded so far, explicitly or as dependents (step_generator.go, targetsActual/excludesActual). */
  private readonly targetsActual = new Set<string>();
  private readonly excludesActual = new Set<string>();
  /** New resources left out of the run: not created, not in the state (NewSkippedCreateStep). */
  readonly skippedCreates = new Set<string>();

  constructor(private readonly options: TargetOptions) {}

  get targetsConstrained(): boolean {
    return (this.options.target?.length ?? 0) > 0;
  }

  private get excludesConstrained(): boolean {
    return (this.options.exclude?.length ?? 0) > 0;
  }

  get constrained(): boolean {
    return this.targetsConstrained || this.excludesConstrained;
  }

  /**
   * Whether a registration takes part (isIncludedInOperation: targets win over excludes); records it as targeted
   * or excluded for its dependents, as generateSteps does (resources arrive dependencies first). The root stack
   * is always included (isImplicitlyTargetedResource).
   */
  includes(goal: StateEntry, isRootStack: boolean): boolean {
    if (isRootStack) return true;
    const deps = dependenciesOf(goal);
    if (this.targetsConstrained) {
      const targeted =
        matches(this.options.target, goal) ||
        (this.options.targetDependents === true && deps.some((d) => this.targetsActual.has(d)));
      if (targeted) this.targetsActual.add(goal.urn);
      return targeted;
    }
    if (this.excludesConstrained) {
      const excluded =
        matches(this.options.exclude, goal) ||
        (this.options.excludeDependents === true && deps.some((d) => this.excludesActual.has(d)));
      if (excluded) this.excludesActual.add(goal.urn);
      return !excluded;
    }
    return true;
  }

  /**
   * A targeted step that needs a resource whose create was skipped (step_generator.go, GenerateSteps after the
   * steps: "depends on ... which was was not specified in --target list", the engine's text, typo included).
   */
  skippedDependencyErrors(goal: StateEntry): EngineError[] {
    return [...new Set(dependenciesOf(goal))]
      .filter((dep) => this.skippedCreates.has(dep))
      .map((dep) => {
        this.skippedCreates.delete(dep); // reported once (the engine deletes it from skippedCreates too)
        return {
          urn: goal.urn,
          op: "register" as const,
          message: `Resource '${goal.urn}' depends on '${dep}' which was was not specified in --target list.`,
        };
      });
  }

  /**
   * Which of the resources the program dropped may be deleted (GenerateDeletes): under `--target`, the targets and
   * everything depending on them (getTargetDependents: dependents and children, transitively); under `--exclude`,
   * all but the excluded ones, what they depend on, and with `--exclude-dependents` their dependents
   * (getExcludeDependencies). The others stay in the state untouched (NewUntargetedSameStep).
   */
  deletable(oldState: StateEntry[]): (entry: StateEntry) => boolean {
    if (this.targetsConstrained) {
      const allowed = closure(
        oldState.filter((e) => matches(this.options.target, e)),
        (e) => oldState.filter((other) => dependenciesOf(other).includes(e.urn)),
      );
      return (entry) => allowed.has(entry.urn);
    }
    if (this.excludesConstrained) {
      const byUrn = new Map(oldState.map((e) => [e.urn, e]));
      const forbidden = closure(
        oldState.filter((e) => matches(this.options.exclude, e)),
        (e) => [
          ...dependenciesOf(e).flatMap((urn) => byUrn.get(urn) ?? []),
          ...(this.options.excludeDependents
            ? oldState.filter((other) => dependenciesOf(other).includes(e.urn))
            : []),
        ],
      );
      return (entry) => !forbidden.has(entry.urn);
    }
    return () => true;
  }

  /**
   * Under `--target` without `--target-dependents`, a delete of a resource that is not itself a target fails the
   * run, each one reported (GenerateDeletes, "will be destroyed but was not specified in --target list"); an up
   * then deletes nothing, a preview goes on.
   */
  untargetedDeleteErrors(deletes: StateEntry[]): EngineError[] {
    if (!this.targetsConstrained || this.options.targetDependents) return [];
    return deletes
      .filter((e) => !matches(this.options.target, e))
      .map((e) => ({
        urn: e.urn,
        op: "delete" as const,
        message:
          `Resource '${e.urn}' will be destroyed but was not specified in --target list.\n` +
          "Either include resource in --target list or pass --target-dependents to proceed.",
      }));
  }
}

function closure(seeds: StateEntry[], next: (e: StateEntry) => StateEntry[]): Set<string> {
  const found = new Set<string>();
  const frontier = [...seeds];
  while (frontier.length > 0) {
    const entry = frontier.shift()!;
    if (found.has(entry.urn)) continue;
    found.add(entry.urn);
    frontier.push(...next(entry));
  }
  return found;
}
