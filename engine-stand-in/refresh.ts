/**
 * The engine's refresh: `pulumi refresh`, and the refresh `up --refresh` / `preview --refresh` run before the
 * program (pkg/resource/deploy/deployment_executor.go, refresh and rebuildBaseState; step.go, RefreshStep).
 */
import type { ProviderPlugin } from "./plugin";
import { sameProviderConfig, type ProviderConfig } from "./providerConfig";
import type { Limiter } from "./schedule";
import { newResult } from "./steps";
import { refreshSelection, unknownLiteralTargetErrors, type TargetOptions } from "./targets";
import type { RunResult, StateEntry } from "./types";
import { annotateSecrets, changedKeys, reveal } from "./values";

/** The plugins a refresh before the program can read with. */
export interface RefreshPlugins {
  /** The run's own plugin, configured with `current` (the current stack config). */
  plugin: ProviderPlugin;
  current: ProviderConfig;
  /** The config stored at the last `up`: the default provider of the state. */
  stored?: ProviderConfig;
  /** Starts a plugin configured with `config`. */
  start(config: ProviderConfig): Promise<{ plugin: ProviderPlugin; release(): Promise<void> }>;
}

/**
 * `up --refresh` / `preview --refresh`: the state is refreshed with the provider of the state before the program
 * runs (deployment_executor.go, Execute and refresh: EnsureProvider(res.Provider)). The default provider of the
 * state is the one configured at the last `up`: when that config is the current one, it is the same provider, in
 * the same plugin process; otherwise a plugin configured with the stored config reads.
 */
export async function refreshBeforeProgram(
  plugins: RefreshPlugins,
  state: StateEntry[],
  limiter: Limiter,
  targets: TargetOptions,
): Promise<{ state: StateEntry[]; result: RunResult }> {
  const result = newResult();
  const { plugin, current, stored } = plugins;
  if (!stored || sameProviderConfig(stored, current)) {
    return { state: await refreshState(plugin, state, limiter, result, targets), result };
  }
  const reader = await plugins.start(stored);
  try {
    return { state: await refreshState(reader.plugin, state, limiter, result, targets), result };
  } finally {
    await reader.release();
  }
}

/**
 * Refreshes `state` and returns the refreshed state: drift updates an entry (a step "update" in `result`), a
 * resource gone leaves the state ("delete") and what pointed at it is repaired (rebuildBaseState below).
 *
 * Which resources are read (deployment_executor.go, refresh): first every literal `--target` and `--exclude` must
 * name a resource of the state, else the refresh fails before any read (checkTargets; globs are not checked).
 * Then the targets (with `--target-dependents` their dependents), or all but the excludes (with
 * `--exclude-dependents` their dependents too), or with neither every resource (targets.ts, refreshSelection).
 * Of those, every custom resource is read, those pending deletion included (step.go, RefreshStep.Apply skips only
 * components, providers and pending replacements). Reads go on after a failed one (newStepExecutor(..., true):
 * ignoreErrors); a failed read is an error of the run all the same, and the state is rebuilt from the reads that
 * succeeded (rebuildBaseState runs before the executor's error is looked at).
 */
export async function refreshState(
  plugin: ProviderPlugin,
  state: StateEntry[],
  limiter: Limiter,
  result: RunResult,
  targets: TargetOptions = {},
): Promise<StateEntry[]> {
  const unknown = [
    ...unknownLiteralTargetErrors(targets.target, state),
    ...unknownLiteralTargetErrors(targets.exclude, state),
  ];
  if (unknown.length > 0) {
    result.ok = false;
    result.errors.push(...unknown);
    return state;
  }
  const selected = refreshSelection(state, targets);
  const refreshed = new Map<StateEntry, StateEntry | undefined>();
  await Promise.all(
    state.map((entry) =>
      !selected.has(entry) || !entry.custom || entry.pendingReplacement
        ? undefined
        : limiter.run(async () => {
            try {
              refreshed.set(entry, await refreshOne(plugin, entry, result));
            } catch (err) {
              result.ok = false;
              result.errors.push({ urn: entry.urn, op: "read", message: (err as Error).message });
            }
          }),
    ),
  );
  return rebuildBaseState(state, refreshed);
}

/**
 * The state after a refresh (deployment_executor.go, rebuildBaseState and undangleParentResources): each entry
 * as its read left it (unread ones as they were), those found gone removed, and references to them repaired in
 * what remains, read or not. Walking the state in order (dependencies before dependents), a URN is referenceable
 * once a remaining entry with it has been passed; a dependency, property dependency or `deletedWith` on a URN not
 * referenceable there is dropped (an entry pending deletion with the URN keeps it referenceable). A property
 * dependency key left with no URN goes, as does every empty key (the engine rebuilds the map from the kept
 * URNs). A parent that is gone becomes the parent recorded for it, which for a resource gone is none: the child
 * is left without a parent (availableParents only holds remaining resources; the engine's comment there says
 * the grandparent, its code gives none, `TestRefreshDeleteParent` checks only that the state stays valid).
 */
export function rebuildBaseState(
  state: StateEntry[],
  refreshed: Map<StateEntry, StateEntry | undefined>,
): StateEntry[] {
  const remaining: StateEntry[] = [];
  const referenceable = new Set<string>();
  for (const old of state) {
    const entry = refreshed.has(old) ? refreshed.get(old) : old;
    if (entry === undefined) continue; // read as gone
    const repaired: StateEntry = { ...entry, options: { ...entry.options } };
    if (entry.dependencies.length > 0) {
      repaired.dependencies = entry.dependencies.filter((urn) => referenceable.has(urn));
    }
    if (Object.keys(entry.propertyDependencies).length > 0) {
      const kept = Object.entries(entry.propertyDependencies)
        .map(([key, urns]) => [key, urns.filter((urn) => referenceable.has(urn))] as const)
        .filter(([, urns]) => urns.length > 0);
      repaired.propertyDependencies = Object.fromEntries(kept);
    }
    if (entry.options.deletedWith && !referenceable.has(entry.options.deletedWith)) {
      delete repaired.options.deletedWith;
    }
    remaining.push(repaired);
    referenceable.add(repaired.urn);
  }
  // undangleParentResources: parents are looked up among all remaining resources, in order.
  const availableParents = new Map<string, string | undefined>();
  for (const entry of remaining) {
    if (entry.parent !== undefined && !referenceable.has(entry.parent)) {
      const parent = availableParents.get(entry.parent);
      if (parent === undefined) delete entry.parent;
      else entry.parent = parent;
    }
    availableParents.set(entry.urn, entry.parent);
  }
  return remaining;
}

/** Read, then Diff of the refreshed state against the old inputs (pkg/resource/deploy/step.go, RefreshStep). */
async function refreshOne(
  plugin: ProviderPlugin,
  entry: StateEntry,
  result: RunResult,
): Promise<StateEntry | undefined> {
  const read = await plugin.read({
    urn: entry.urn,
    id: entry.id ?? "",
    properties: reveal(entry.outputs),
    inputs: reveal(entry.inputs),
  });
  result.operations.push({ op: "read", urn: entry.urn, id: entry.id ?? "" });
  const step = { urn: entry.urn, type: entry.type, name: entry.name, replaceKeys: [] };
  if (!read.id) {
    result.steps.delete.push({ ...step, kind: "delete", id: entry.id, changedKeys: [] });
    return undefined;
  }
  const outputs = annotateSecrets(read.properties, entry.outputs);
  const inputs = read.inputs ? annotateSecrets(read.inputs, entry.inputs) : entry.inputs;
  // The refresh diff is the one an `up` of an unchanged program would see next, inverted: new inputs and
  // outputs in the place of the old ones, the old inputs in the place of the new.
  const diff = await plugin.diff({
    urn: entry.urn,
    id: read.id,
    olds: reveal(outputs),
    news: reveal(entry.inputs),
    oldInputs: reveal(inputs),
    ignoreChanges: entry.options.ignoreChanges,
  });
  const changed = changedKeys(inputs, entry.inputs);
  const drifted = diff.changes === "some" || (diff.changes === "unknown" && changed.length > 0);
  const kind = drifted ? "update" : "same";
  result.steps[kind].push({ ...step, kind, id: read.id, changedKeys: drifted ? changed : [] });
  const refreshed: StateEntry = { ...entry, id: read.id, outputs, inputs };
  // The refreshed state's init errors are the Read's: none after a clean Read (step.go, RefreshStep.Apply,
  // s.new.InitErrors = initErrors).
  delete refreshed.initErrors;
  return refreshed;
}
