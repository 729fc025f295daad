/**
 * The engine's refresh: `pulumi refresh`, and the refresh `up --refresh` / `preview --refresh` run before the
 * program (pkg/resource/deploy/deployment_executor.go, refresh; step.go, RefreshStep).
 */
import type { ProviderPlugin } from "./plugin";
import type { Limiter } from "./schedule";
import type { RunResult, StateEntry } from "./types";
import { annotateSecrets, changedKeys, reveal } from "./values";

/**
 * Reads every custom resource of `state` and returns the refreshed state: drift updates an entry (a step
 * "update" in `result`), a resource gone leaves the state ("delete"). Every custom resource is read, those
 * pending deletion included (deployment_executor.go, refresh: a RefreshStep for each of prev.Resources; step.go,
 * RefreshStep.Apply skips only components, providers and pending replacements). Reads go on after a failed one
 * (newStepExecutor(..., true): ignoreErrors); a failed read is an error of the run all the same.
 */
export async function refreshState(
  plugin: ProviderPlugin,
  state: StateEntry[],
  limiter: Limiter,
  result: RunResult,
): Promise<StateEntry[]> {
  const next: Array<StateEntry | undefined> = [...state];
  await Promise.all(
    state.map((entry, index) =>
      !entry.custom || entry.pendingReplacement
        ? undefined
        : limiter.run(async () => {
            try {
              next[index] = await refreshOne(plugin, entry, result);
            } catch (err) {
              result.ok = false;
              result.errors.push({ urn: entry.urn, op: "read", message: (err as Error).message });
            }
          }),
    ),
  );
  return next.filter((e): e is StateEntry => e !== undefined);
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
