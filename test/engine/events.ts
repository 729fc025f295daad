/**
 * The CLI's engine events (`--event-log`, which the Automation API hands to `onEvent`) folded into a RunResult:
 * steps by kind, the finished provider operations in order, errors by resource, warnings. Pure: tested on
 * recorded events in events.test.ts.
 */
import type { EngineEvent, StepEventMetadata } from "@pulumi/pulumi/automation";
import {
  STEP_KINDS,
  type CheckFailure,
  type EngineError,
  type Message,
  type PolicyViolation,
  type ProviderOperation,
  type RunResult,
  type Step,
  type StepKind,
} from "./types";

const SECRET_SIG_KEY = "4dabf18193072939515e22adb298388d";
const PROVIDER_KEY = "__provider";

/** The engine's own resources, which the stand-alone steps of a program never include. */
export function isEngineResource(type: string): boolean {
  return type === "pulumi:pulumi:Stack" || type.startsWith("pulumi:providers:");
}

export function nameOf(urn: string): string {
  return urn.split("::").slice(3).join("::");
}

const emptySteps = (): Record<StepKind, Step[]> =>
  Object.fromEntries(STEP_KINDS.map((kind) => [kind, []])) as unknown as Record<StepKind, Step[]>;

const isSecretValue = (value: unknown): boolean =>
  typeof value === "object" && value !== null && SECRET_SIG_KEY in value;

/** A value as the display shows it: a secret as "[secret]", the rest as it is. */
function displayed(value: unknown): unknown {
  return isSecretValue(value) ? "[secret]" : value;
}

function equal(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function changed(olds: Record<string, unknown> = {}, news: Record<string, unknown> = {}) {
  const keys = [...new Set([...Object.keys(olds), ...Object.keys(news)])]
    .filter((key) => key !== PROVIDER_KEY && !equal(olds[key], news[key]))
    .sort();
  const values = Object.fromEntries(
    keys.map((key) => [key, { old: displayed(olds[key]), new: displayed(news[key]) }]),
  );
  return { keys, values };
}

function stepOf(kind: StepKind, metadata: StepEventMetadata): Step {
  const { keys, values } = changed(metadata.old?.inputs, metadata.new?.inputs);
  const step: Step = {
    kind,
    urn: metadata.urn,
    type: metadata.type,
    name: nameOf(metadata.urn),
    changedKeys: kind === "update" || kind === "replace" ? keys : [],
    replaceKeys: metadata.keys ?? [],
  };
  const id = kind === "delete" ? metadata.old?.id : metadata.new?.id;
  if (id) step.id = id;
  if (kind === "update" || kind === "replace") step.changedValues = values;
  if (metadata.old?.urn && metadata.old.urn !== metadata.urn) step.aliasOf = metadata.old.urn;
  return step;
}

/**
 * What a refresh step found: drift read into the state (update), gone (delete) or nothing (same). Only
 * `pulumi refresh` names the step's result in its events (the op becomes update / delete / same); under `up
 * --refresh` and `preview --refresh` the op stays "refresh", and the dynamic provider's Diff reports no changed
 * keys (diffs and detailedDiff are empty even when it answers DIFF_SOME), so drift shows as inputs the read
 * changed, which is what the engine's refresh diff compares.
 */
function refreshKind(metadata: StepEventMetadata): StepKind {
  if (!metadata.new || !metadata.new.id) return "delete";
  if ((metadata.diffs ?? []).length > 0) return "update";
  if (metadata.detailedDiff && Object.keys(metadata.detailedDiff).length > 0) return "update";
  if (changed(metadata.old?.inputs, metadata.new.inputs).keys.length > 0) return "update";
  return "same";
}

const OPERATION: Record<string, ProviderOperation["op"] | undefined> = {
  create: "create",
  "create-replacement": "create",
  update: "update",
  delete: "delete",
  "delete-replaced": "delete",
  refresh: "read",
};

/** "property X value Y has a problem: reason", the engine's text for a check failure (diag.GetResourcePropertyInvalidValueError). */
const CHECK_FAILURE = /resource '[^']*': property (\S+) value .* has a problem: ([\s\S]*)$/;

function trimmed(message: string): string {
  return message.replace(/\s+$/, "");
}

export interface FoldedRun {
  steps: Record<StepKind, Step[]>;
  refreshSteps: Record<StepKind, Step[]>;
  operations: ProviderOperation[];
  errors: EngineError[];
  warnings: string[];
  messages: Message[];
  /** Every diagnostic's text, the plugins' stderr included (as the CLI shows it). */
  diagnostics: string;
  /** The stack's outputs as the last event reported them (secrets as "[secret]"). */
  stackOutputs?: Record<string, unknown>;
  policyViolations: PolicyViolation[];
  policyPacks: Record<string, string>;
}

/**
 * Folds one run's events. `refreshing` says whether refresh steps belong to `steps` (`pulumi refresh`) or to
 * `refreshSteps` (`up --refresh`, `preview --refresh`).
 */
export function foldEvents(
  events: EngineEvent[],
  refreshing: "refresh" | "before-program" | "none",
): FoldedRun {
  const run: FoldedRun = {
    steps: emptySteps(),
    refreshSteps: emptySteps(),
    operations: [],
    errors: [],
    warnings: [],
    messages: [],
    diagnostics: "",
    policyViolations: [],
    policyPacks: {},
  };
  const failedOp = new Map<string, EngineError["op"]>();
  const replacements = new Map<string, Step>();
  const deletedFirst = new Set<string>();
  const checkFailures = new Map<string, EngineError>();
  const refreshingNow = new Set<string>();

  for (const event of events) {
    if (event.resourcePreEvent) {
      const { metadata } = event.resourcePreEvent;
      if (isEngineResource(metadata.type)) continue;
      if (metadata.op === "delete-replaced" && !replacements.has(metadata.urn))
        deletedFirst.add(metadata.urn);
      if (metadata.op === "create-replacement") replacements.set(metadata.urn, stepOf("replace", metadata));
      // A refresh step is recorded from its outputs event (what the read found), in a preview too.
      if (metadata.op === "refresh") refreshingNow.add(metadata.urn);
      else if (event.resourcePreEvent.planning) recordStep(metadata);
    }
    if (event.resOutputsEvent) {
      const { metadata } = event.resOutputsEvent;
      if (isEngineResource(metadata.type)) {
        if (metadata.type === "pulumi:pulumi:Stack" && metadata.new?.outputs)
          run.stackOutputs = metadata.new.outputs as Record<string, unknown>;
        continue;
      }
      // `pulumi refresh` reports a refresh step's outputs under the op of its result (same, update, delete):
      // it is still a read, never a write.
      const wasRefresh = refreshingNow.delete(metadata.urn);
      const op = wasRefresh ? "read" : OPERATION[metadata.op];
      if (op && !event.resOutputsEvent.planning) {
        const id = (op === "delete" ? metadata.old?.id : metadata.new?.id) ?? metadata.old?.id ?? "";
        run.operations.push({ op, urn: metadata.urn, id });
      }
      if (wasRefresh) recordRefresh(metadata);
      else if (!event.resOutputsEvent.planning) recordStep(metadata);
    }
    if (event.policyEvent) {
      const { policyPackName, policyName, enforcementLevel, message, resourceUrn } = event.policyEvent;
      run.policyViolations.push({
        policyPack: policyPackName,
        policy: policyName,
        enforcementLevel,
        message: trimmed(message),
        ...(resourceUrn ? { urn: resourceUrn } : {}),
      });
    }
    if (event.summaryEvent) {
      // The CLI's JSON names this field "PolicyPacks" (apitype.SummaryEvent), the SDK's type "policyPacks"; a
      // local pack's name is "<name>|local|<path>".
      const summary = event.summaryEvent as {
        PolicyPacks?: Record<string, string>;
        policyPacks?: Record<string, string>;
      };
      for (const [name, version] of Object.entries(summary.PolicyPacks ?? summary.policyPacks ?? {}))
        run.policyPacks[name.split("|")[0]] = version;
    }
    if (event.resOpFailedEvent) {
      const { metadata } = event.resOpFailedEvent;
      failedOp.set(metadata.urn, (OPERATION[metadata.op] ?? metadata.op) as EngineError["op"]);
    }
    if (event.diagnosticEvent) {
      const { severity, message, urn } = event.diagnosticEvent;
      if ((severity as string) === "debug") continue;
      run.diagnostics += message;
      if (severity === "warning") run.warnings.push(trimmed(message));
      if (severity === "info" || severity === "warning")
        run.messages.push({ severity, ...(urn ? { urn } : {}), message: trimmed(message) });
      if (severity !== "error") continue;
      const failure = CHECK_FAILURE.exec(trimmed(message));
      if (urn && failure) {
        const entry: CheckFailure = { property: failure[1], reason: failure[2] };
        const known = checkFailures.get(urn);
        if (known) {
          known.failures!.push(entry);
          known.message += `\n${trimmed(message)}`;
        } else {
          const error: EngineError = { urn, op: "check", message: trimmed(message), failures: [entry] };
          checkFailures.set(urn, error);
          run.errors.push(error);
        }
        continue;
      }
      run.errors.push({
        ...(urn ? { urn } : {}),
        op: urn ? (failedOp.get(urn) ?? "program") : "program",
        message: trimmed(message),
      });
    }
  }
  // The CLI closes a failed run with a summary error of its own ("update failed"): not an error of its own when
  // the errors it sums up are there.
  const summary = /^(update|preview|refresh|destroy) failed$/;
  if (run.errors.some((e) => !summary.test(e.message)))
    run.errors = run.errors.filter((e) => e.urn || !summary.test(e.message));
  // An error diagnostic comes before its resOpFailedEvent: name the operation now that all are known.
  for (const error of run.errors)
    if (error.urn && failedOp.has(error.urn)) error.op = failedOp.get(error.urn)!;
  for (const step of run.steps.replace) if (deletedFirst.has(step.urn)) step.deleteBeforeReplace = true;
  // A dependent replaced with a delete-first replacement has its keys on its create-replacement step only, which
  // comes after its replace step (step_generator.go: NewReplaceStep with no keys, NewCreateReplacementStep with
  // dependentReplaceKeys).
  for (const step of run.steps.replace)
    if (step.replaceKeys.length === 0) step.replaceKeys = replacements.get(step.urn)?.replaceKeys ?? [];
  for (const step of run.refreshSteps.replace)
    if (deletedFirst.has(step.urn)) step.deleteBeforeReplace = true;
  return run;

  function recordRefresh(metadata: StepEventMetadata): void {
    const into = refreshing === "refresh" ? run.steps : run.refreshSteps;
    const result = metadata.op as StepKind;
    const kind = STEP_KINDS.includes(result) ? result : refreshKind(metadata);
    into[kind].push(stepOf(kind, metadata));
  }

  function recordStep(metadata: StepEventMetadata): void {
    if (metadata.op === "replace") {
      const step = stepOf("replace", metadata);
      const created = replacements.get(metadata.urn);
      if (created?.id) step.id = created.id;
      else delete step.id;
      if (metadata.old?.id) step.oldId = metadata.old.id;
      run.steps.replace.push(step);
      return;
    }
    if (
      metadata.op === "create" ||
      metadata.op === "update" ||
      metadata.op === "delete" ||
      metadata.op === "same"
    ) {
      run.steps[metadata.op].push(stepOf(metadata.op, metadata));
    }
  }
}

/**
 * The program's outputs as the stack's last outputs event shows them: plain values, the unknown sentinel of a
 * preview as it is, a secret as "[secret]" (the event never carries its plain text) with its name listed.
 */
export function plainOutputs(outputs: Record<string, unknown>): {
  outputs: Record<string, unknown>;
  secretOutputs: string[];
} {
  return {
    outputs: Object.fromEntries(Object.entries(outputs).map(([key, value]) => [key, displayed(value)])),
    secretOutputs: Object.keys(outputs)
      .filter((key) => isSecretValue(outputs[key]))
      .sort(),
  };
}

/** Builds the RunResult of a run from its folded events, its CLI output and how it ended. */
export function runResult(
  folded: FoldedRun,
  ended: { ok: boolean; output: string; interrupted: boolean; failure?: string },
  program: { outputs: Record<string, unknown>; secretOutputs: string[] },
  withRefresh: boolean,
): RunResult {
  const errors = [...folded.errors];
  if (!ended.ok && errors.length === 0 && !ended.interrupted)
    errors.push({ op: "program", message: ended.failure ?? ended.output });
  return {
    ok: ended.ok && errors.length === 0,
    errors,
    warnings: folded.warnings,
    messages: folded.messages,
    steps: folded.steps,
    operations: folded.operations,
    outputs: program.outputs,
    secretOutputs: program.secretOutputs,
    ...(withRefresh ? { refreshSteps: folded.refreshSteps } : {}),
    interrupted: ended.interrupted,
    output: ended.output,
    policyViolations: folded.policyViolations,
    policyPacks: folded.policyPacks,
  };
}
