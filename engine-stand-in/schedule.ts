/** How the engine paces steps: a parallelism limit, and deletions in dependency-ordered batches. */
import * as os from "os";
import type { StateEntry } from "./types";

/** The CLI's default --parallel without PULUMI_PARALLEL: 4 × GOMAXPROCS (pkg/cmd/pulumi/operations/up.go). */
export const OS_DEFAULT_PARALLELISM = 4 * os.availableParallelism();

const MAX_INT32 = 2 ** 31 - 1;
const INT64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n };

/**
 * The CLI's default `--parallel` (pkg/cmd/pulumi/operations/up.go, defaultParallel; the same for preview,
 * refresh, destroy, import and watch): `PULUMI_PARALLEL` when it is a whole number above 0, capped at the largest
 * int32 (which the engine then treats as unbounded), else 4 × CPUs. The variable is read as the env package's
 * IntValue does (sdk/go/common/util/env, strconv.ParseInt(v, 10, 64)): a sign is allowed, spaces, fractions and
 * numbers beyond int64 are not, and anything unreadable counts as unset. The CLI reads its own environment: here
 * the test process's, with what the engine and the run add to it (the plugin's environment, which a real plugin
 * inherits from the CLI).
 */
export function defaultParallelism(env: Record<string, string | undefined> = process.env): number {
  const raw = env.PULUMI_PARALLEL;
  if (raw === undefined || !/^[+-]?[0-9]+$/.test(raw)) return OS_DEFAULT_PARALLELISM;
  const parsed = BigInt(raw);
  if (parsed < INT64.min || parsed > INT64.max || parsed <= 0n) return OS_DEFAULT_PARALLELISM;
  return parsed > BigInt(MAX_INT32) ? MAX_INT32 : Number(parsed);
}

/**
 * Runs at most `limit` tasks at once, in arrival order (the CLI's --parallel). As the step executor's workers
 * (pkg/resource/deploy/deployment.go, DegreeOfParallelism; step_executor.go, newStepExecutor): a limit of 1 or
 * less runs one task at a time, the largest int32 runs all at once (InfiniteParallelism).
 */
export class Limiter {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly limit: number;

  constructor(parallel: number) {
    this.limit = parallel >= MAX_INT32 ? Infinity : Math.max(1, Math.floor(parallel));
  }

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
      if (next) next();
      else this.active--;
    }
  }
}

/** Everything a resource depends on in the engine's dependency graph: dependencies, property deps, parent. */
export function dependenciesOf(entry: StateEntry): string[] {
  return [
    ...entry.dependencies,
    ...Object.values(entry.propertyDependencies).flat(),
    ...(entry.parent ? [entry.parent] : []),
    // deletedWith is a dependency too (resource.State.GetAllDependencies, ResourceDeletedWith).
    ...(entry.options.deletedWith ? [entry.options.deletedWith] : []),
  ];
}

/** The URNs that `urns` depend on, directly or through others, in the dependency graph of `entries`. */
export function transitiveDependencies(urns: string[], entries: StateEntry[]): Set<string> {
  const byUrn = new Map<string, StateEntry[]>();
  for (const e of entries) byUrn.set(e.urn, [...(byUrn.get(e.urn) ?? []), e]);
  const found = new Set<string>();
  const visit = (urn: string) => {
    for (const entry of byUrn.get(urn) ?? []) {
      for (const dep of dependenciesOf(entry)) {
        if (!found.has(dep)) {
          found.add(dep);
          visit(dep);
        }
      }
    }
  };
  urns.forEach(visit);
  return found;
}

/**
 * The engine's deletion schedule (pkg/resource/deploy/step_generator.go, ScheduleDeletes): antichains of
 * resources none of which depends on another still condemned, computed from the leaves of the dependency
 * order and then reversed, so that dependents go first.
 */
export function deletionAntichains(entries: StateEntry[]): StateEntry[][] {
  const condemned = new Set(entries);
  const byUrn = new Map(entries.map((e) => [e.urn, e]));
  const chains: StateEntry[][] = [];
  while (condemned.size > 0) {
    const chain = [...condemned].filter((entry) =>
      dependenciesOf(entry).every((urn) => {
        const dep = byUrn.get(urn);
        return dep === undefined || dep === entry || !condemned.has(dep);
      }),
    );
    if (chain.length === 0) throw new Error("dependency cycle among the resources to delete");
    chain.forEach((e) => condemned.delete(e));
    chains.push(chain);
  }
  return chains.reverse();
}

/**
 * Executes deletions as the engine does (pkg/resource/deploy/deployment_executor.go, performPostSteps): one
 * antichain at a time, each in parallel up to the limit, the next only after the whole previous one finished.
 * A failure cancels the step executor (step_executor.go, cancelDueToError): deletes already running finish,
 * no new one starts. Only a failure `continuesAfter` accepts (the engine's deleteProtectedError) lets the rest
 * go on; then what the failed resource depends on is skipped (performPostSteps, erroredDeps: it still exists
 * and needs them). Resolves to the number of failures.
 */
export async function deleteInAntichains(
  entries: StateEntry[],
  limit: Limiter,
  remove: (entry: StateEntry) => Promise<void>,
  continuesAfter: (err: unknown) => boolean = () => false,
): Promise<number> {
  const byUrn = new Map(entries.map((e) => [e.urn, e]));
  const spared = new Set<StateEntry>();
  const spareDependenciesOf = (entry: StateEntry) => {
    for (const urn of dependenciesOf(entry)) {
      const dep = byUrn.get(urn);
      if (dep && dep !== entry && !spared.has(dep)) {
        spared.add(dep);
        spareDependenciesOf(dep);
      }
    }
  };
  let failures = 0;
  let canceled = false;
  for (const chain of deletionAntichains(entries)) {
    if (canceled) break;
    await Promise.all(
      chain
        .filter((entry) => !spared.has(entry))
        .map((entry) =>
          limit.run(async () => {
            if (canceled) return;
            try {
              await remove(entry);
            } catch (err) {
              failures++;
              if (continuesAfter(err)) spareDependenciesOf(entry);
              else canceled = true;
            }
          }),
        ),
    );
  }
  return failures;
}
