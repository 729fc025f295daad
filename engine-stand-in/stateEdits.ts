/** Edits of the state outside a deployment, as the CLI's `pulumi state ...` commands make them. */
import type { StateEntry } from "./types";
import { ROOT_STACK_TYPE } from "./values";

/**
 * `pulumi state taint <urn>...` (pkg/cmd/pulumi/state/state_taint.go, taintResourcesInSnapshot): marks each
 * resource so that the next `up` replaces it. Resources pending deletion cannot be tainted. An unknown target
 * fails the whole edit and nothing is marked (state/io.go, TotalStateEdit saves only after a clean edit), with
 * the CLI's text (resourceNotFoundError; its "Did you mean" suggestions are not modelled). Targets are URNs or,
 * as everywhere in the stand-in, resource names. Returns the new state; the given one is not changed.
 */
export function taintResources(state: StateEntry[], targets: string[]): StateEntry[] {
  const marked = new Set(named(state, targets));
  return state.map((e) => (marked.has(e) ? { ...e, taint: true } : e));
}

/**
 * `pulumi state untaint <urn>...` (state_untaint.go, untaintResourcesInSnapshot): the next `up` no longer
 * replaces these resources. The same resources are eligible, and an unknown target fails the same way, as for
 * taint; `"all"` is `--all` (untaintAllResources): every resource not pending deletion.
 */
export function untaintResources(state: StateEntry[], targets: string[] | "all"): StateEntry[] {
  const cleared = new Set(targets === "all" ? state.filter((e) => !e.pendingDelete) : named(state, targets));
  return state.map((e) => {
    if (!cleared.has(e) || !e.taint) return e;
    const { taint: _cleared, ...rest } = e;
    return rest;
  });
}

/** The entries `targets` name among those a state edit may change; throws (naming every unknown one) if any is not. */
function named(state: StateEntry[], targets: string[]): StateEntry[] {
  const eligible = state.filter((e) => !e.pendingDelete && e.type !== ROOT_STACK_TYPE);
  const matches = (e: StateEntry, target: string) => e.urn === target || e.name === target;
  const unknown = targets.filter((target) => !eligible.some((e) => matches(e, target)));
  if (unknown.length > 0) {
    throw new Error(
      unknown
        .map(
          (target) =>
            `No such resource "${target}" exists in the current state\nTo list the resource URNs in the ` +
            "stack, run `pulumi stack --show-urns`; to inspect the full state, run `pulumi stack export`.",
        )
        .join("\n"),
    );
  }
  return eligible.filter((e) => targets.some((target) => matches(e, target)));
}
