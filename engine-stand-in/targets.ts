/**
 * `--target` / `--exclude` (with `--target-dependents` / `--exclude-dependents`): which resources take part in
 * a run (pkg/resource/deploy/step_generator.go, isIncludedInOperation, isTargetedForUpdate, isExcludedFromUpdate,
 * GenerateDeletes and the determine...ResourcesToDelete... functions), and in a refresh (deployment_executor.go,
 * refresh). Targets are URNs, URN globs (`*`, `**`: deployment.go, UrnTargets) or, as the stand-in's
 * `--replace`, names.
 */
import { dependenciesOf } from "./schedule";
import { unknownTargetErrors } from "./steps";
import type { EngineError, StateEntry } from "./types";

export interface TargetOptions {
  target?: string[];
  targetDependents?: boolean;
  exclude?: string[];
  excludeDependents?: boolean;
}

/**
 * The engine's set of targets (pkg/resource/deploy/deployment.go, UrnTargets, NewUrnTargets): a target holding a
 * `*` is a glob, any other a literal. In a glob `**` matches anything and `*` anything but a `:`, anchored at
 * both ends (getMatcher); the rest is taken literally. Literals are URNs, or here also resource names (the
 * stand-in's shorthand); globs match URNs only, as in the engine. An empty set is unconstrained: it contains
 * every URN (Contains).
 */
export class UrnTargets {
  private readonly literalTargets: string[];
  private readonly globs: RegExp[];

  constructor(targets: string[] = []) {
    this.literalTargets = targets.filter((t) => !t.includes("*"));
    this.globs = targets.filter((t) => t.includes("*")).map(globMatcher);
  }

  get constrained(): boolean {
    return this.literalTargets.length > 0 || this.globs.length > 0;
  }

  /** Literal targets: only these are checked against the stack (deployment_executor.go, checkTargets). */
  get literals(): string[] {
    return [...this.literalTargets];
  }

  /** Whether the set holds this URN (Contains); a literal may also be the resource's name. */
  contains(urn: string, name = nameOf(urn)): boolean {
    if (!this.constrained) return true;
    return (
      this.literalTargets.some((t) => t === urn || t === name) || this.globs.some((glob) => glob.test(urn))
    );
  }

  /** Adds a URN found as a dependent (addLiteral: only to a constrained set, which stays constrained). */
  addLiteral(urn: string): void {
    if (this.constrained) this.literalTargets.push(urn);
  }
}

/** The name part of a URN (its last `::` segment). */
export const nameOf = (urn: string): string => urn.slice(urn.lastIndexOf("::") + 2);

/** getMatcher: `**` becomes `.*`, `*` becomes `[^:]*`, everything else is quoted; anchored. */
function globMatcher(glob: string): RegExp {
  const quote = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const segments = glob.split("**").map((segment) => segment.split("*").map(quote).join("[^:]*"));
  return new RegExp(`^${segments.join(".*")}$`);
}

/**
 * The engine's check that each target names a resource of the stack (deployment_executor.go, checkTargets): only
 * literal targets are checked, so a glob that matches nothing is no error.
 */
export function unknownLiteralTargetErrors(
  targets: string[] | undefined,
  resources: Array<Pick<StateEntry, "urn" | "name">>,
): EngineError[] {
  return unknownTargetErrors(new UrnTargets(targets).literals, resources);
}

/** Whether `goal` is a `--replace` target (step_generator.go, isTargetedReplace: ReplaceTargets.Contains). */
export function isReplaceTarget(replace: string[] | undefined, goal: { urn: string; name: string }): boolean {
  const targets = new UrnTargets(replace);
  return targets.constrained && targets.contains(goal.urn, goal.name);
}

/**
 * `--target` and `--exclude` together are a usage error of every command that takes them (pkg/cmd/pulumi/
 * operations/up.go and the others: cmd.MarkFlagsMutuallyExclusive("target", "exclude"), cobra's text): the
 * operation is refused before it starts, as the CLI refuses it before running.
 */
export function refuseTargetAndExclude(options: TargetOptions): void {
  if ((options.target?.length ?? 0) > 0 && (options.exclude?.length ?? 0) > 0) {
    throw new Error(
      "if any flags in the group [target exclude] are set none of the others can be; [exclude target] were all set",
    );
  }
}

/**
 * Which resources of the state a refresh reads (deployment_executor.go, refresh): under `--exclude`, all but the
 * excluded ones and, with `--exclude-dependents`, what depends on them (parent, dependencies, property
 * dependencies, deletedWith: GetAllDependencies), found in state order; otherwise the targets and, with
 * `--target-dependents`, their dependents, found the same way; with neither, every resource. Excludes are
 * looked at first (the CLI refuses both flags together: refuseTargetAndExclude).
 */
export function refreshSelection(state: StateEntry[], options: TargetOptions): Set<StateEntry> {
  const selected = new Set<StateEntry>();
  const excludes = new UrnTargets(options.exclude);
  if (excludes.constrained) {
    for (const entry of state) {
      if (excludes.contains(entry.urn, entry.name)) continue;
      if (options.excludeDependents && dependenciesOf(entry).some((urn) => excludes.contains(urn))) {
        excludes.addLiteral(entry.urn);
        continue;
      }
      selected.add(entry);
    }
    return selected;
  }
  const targets = new UrnTargets(options.target);
  for (const entry of state) {
    if (targets.contains(entry.urn, entry.name)) {
      selected.add(entry);
    } else if (options.targetDependents && dependenciesOf(entry).some((urn) => targets.contains(urn))) {
      selected.add(entry);
      targets.addLiteral(entry.urn);
    }
  }
  return selected;
}

export class TargetFilter {
  private readonly targets: UrnTargets;
  private readonly excludes: UrnTargets;
  /** The targets and excludes so far, explicit or found as dependents (step_generator.go, targetsActual/excludesActual). */
  private readonly targetsActual: UrnTargets;
  private readonly excludesActual: UrnTargets;
  /** New resources left out of the run: not created, not in the state (NewSkippedCreateStep). */
  readonly skippedCreates = new Set<string>();

  constructor(private readonly options: TargetOptions) {
    this.targets = new UrnTargets(options.target);
    this.excludes = new UrnTargets(options.exclude);
    this.targetsActual = new UrnTargets(options.target);
    this.excludesActual = new UrnTargets(options.exclude);
  }

  get targetsConstrained(): boolean {
    return this.targets.constrained;
  }

  private get excludesConstrained(): boolean {
    return this.excludes.constrained;
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
        this.targets.contains(goal.urn, goal.name) ||
        (this.options.targetDependents === true && deps.some((d) => this.targetsActual.contains(d)));
      if (targeted) this.targetsActual.addLiteral(goal.urn);
      return targeted;
    }
    if (this.excludesConstrained) {
      const excluded =
        this.excludes.contains(goal.urn, goal.name) ||
        (this.options.excludeDependents === true && deps.some((d) => this.excludesActual.contains(d)));
      if (excluded) this.excludesActual.addLiteral(goal.urn);
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
        oldState.filter((e) => this.targets.contains(e.urn, e.name)),
        (e) => oldState.filter((other) => dependenciesOf(other).includes(e.urn)),
      );
      return (entry) => allowed.has(entry.urn);
    }
    if (this.excludesConstrained) {
      const byUrn = new Map(oldState.map((e) => [e.urn, e]));
      const forbidden = closure(
        oldState.filter((e) => this.excludes.contains(e.urn, e.name)),
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
      .filter((e) => !this.targets.contains(e.urn, e.name))
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
