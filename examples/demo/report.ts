/**
 * How the stand-in demo shows a run: step lines and a summary in the shape of the Pulumi CLI's display, so that
 * what a user reads here is what they will read from `pulumi preview` / `pulumi up` later. Pure functions of
 * the engine's RunResult (no I/O), so they are unit-tested on hand-made results (test/demo/report.test.ts).
 */
import { UNKNOWN as UNKNOWN_VALUE } from "../../engine-stand-in/plugin";
import type { EngineError, RunResult, Step, StepKind } from "../../engine-stand-in/types";

/** The kinds a display lists, in the CLI's order; `same` is left out, as the CLI leaves unchanged rows out. */
const SHOWN: Exclude<StepKind, "same">[] = ["create", "update", "replace", "delete"];

/** The CLI's symbols for each operation. */
export const SYMBOL: Record<StepKind, string> = {
  create: "+",
  update: "~",
  replace: "+-",
  delete: "-",
  same: " ",
};

/** Words of the summary: a preview says what it would do, an up what it did (as the CLI words them). */
const WORDS: Record<"preview" | "up", Record<Exclude<StepKind, "same">, string>> = {
  preview: { create: "to create", update: "to update", replace: "to replace", delete: "to delete" },
  up: { create: "created", update: "updated", replace: "replaced", delete: "deleted" },
};

export type Mode = keyof typeof WORDS;

/** A value as the CLI's diff shows it: JSON, unknowns as the CLI's placeholder, absent as nothing. */
export function formatValue(value: unknown): string {
  if (value === undefined) return "(none)";
  if (value === UNKNOWN_VALUE) return "output<string>";
  return JSON.stringify(value, (_key, v: unknown) => (v === UNKNOWN_VALUE ? "output<string>" : v));
}

/** The steps that change something, in display order (by kind, then as the engine recorded them). */
export function changingSteps(result: Pick<RunResult, "steps">): Step[] {
  return SHOWN.flatMap((kind) => result.steps[kind]);
}

/**
 * One line per changing step: symbol, type token, name, operation, and the changed inputs (`[diff: ~name]`,
 * as the CLI's plan column). With `details`, each changed input follows on its own line with old => new,
 * which is what a pull-request comment of a preview shows a reviewer.
 */
export function stepLines(result: Pick<RunResult, "steps">, options: { details?: boolean } = {}): string[] {
  const steps = changingSteps(result);
  if (steps.length === 0) return ["    (no changes)"];
  const typeWidth = Math.max(...steps.map((s) => s.type.length));
  const nameWidth = Math.max(...steps.map((s) => s.name.length));
  const lines: string[] = [];
  for (const step of steps) {
    const diff =
      step.changedKeys.length > 0 ? ` [diff: ${step.changedKeys.map((k) => `~${k}`).join(" ")}]` : "";
    const symbol = SYMBOL[step.kind].padEnd(2);
    lines.push(
      `  ${symbol} ${step.type.padEnd(typeWidth)}  ${step.name.padEnd(nameWidth)}  ${step.kind}${diff}`,
    );
    if (options.details) lines.push(...detailLines(step));
  }
  return lines;
}

/** The changed inputs of one step, old => new (replacement keys marked, as the CLI marks them). */
export function detailLines(step: Step): string[] {
  const values = step.changedValues ?? {};
  return step.changedKeys.map((key) => {
    const change = values[key];
    const forces = step.replaceKeys.includes(key) ? " (forces replacement)" : "";
    if (!change) return `        ~ ${key}${forces}`;
    return `        ~ ${key}: ${formatValue(change.old)} => ${formatValue(change.new)}${forces}`;
  });
}

/** How many steps of each kind. */
export function countSteps(result: Pick<RunResult, "steps">): Record<StepKind, number> {
  return {
    create: result.steps.create.length,
    update: result.steps.update.length,
    replace: result.steps.replace.length,
    delete: result.steps.delete.length,
    same: result.steps.same.length,
  };
}

/** The summary line, e.g. "Resources: + 12 to create, ~ 1 to update, 4 unchanged" or "Resources: 17 unchanged". */
export function summaryLine(result: Pick<RunResult, "steps">, mode: Mode): string {
  const counts = countSteps(result);
  const parts = SHOWN.filter((kind) => counts[kind] > 0).map(
    (kind) => `${SYMBOL[kind]} ${counts[kind]} ${WORDS[mode][kind]}`,
  );
  if (counts.same > 0 || parts.length === 0) parts.push(`${counts.same} unchanged`);
  return `Resources: ${parts.join(", ")}`;
}

/** A duration as the CLI prints it at the end of an update ("Duration: 3s"; tenths below ten seconds). */
export function durationLine(milliseconds: number): string {
  const seconds = milliseconds / 1000;
  return `Duration: ${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)}s`;
}

/** A failed run's errors, one per line, with each check failure's property (what the CLI's diagnostics list). */
export function errorLines(errors: EngineError[]): string[] {
  return errors.flatMap((error) => {
    const where = error.urn ? error.urn.split("::").pop() : "program";
    const head = `  error (${error.op} ${where}): ${error.message.split("\n")[0]}`;
    const failures = (error.failures ?? []).map((f) => `      ${f.property}: ${f.reason}`);
    return [head, ...failures];
  });
}

/** The stack outputs as the CLI lists them after an up: nested objects indented, secret outputs masked. */
export function outputLines(result: Pick<RunResult, "outputs" | "secretOutputs">): string[] {
  const lines = (key: string, value: unknown, depth: number): string[] => {
    const pad = "    ".repeat(depth);
    if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      const entries = Object.entries(value).sort(([a], [b]) => a.localeCompare(b));
      return [`${pad}${key}: {`, ...entries.flatMap(([k, v]) => lines(k, v, depth + 1)), `${pad}}`];
    }
    return [`${pad}${key}: ${formatValue(value)}`];
  };
  const keys = Object.keys(result.outputs).sort();
  if (keys.length === 0) return [];
  return [
    "Outputs:",
    ...keys.flatMap((k) => lines(k, result.secretOutputs.includes(k) ? "[secret]" : result.outputs[k], 1)),
  ];
}
