/**
 * A small, deterministic code layout for the generated program: statements laid out to the width prettier lays
 * them out to, and what each kind's section writes through. Its own module because the program (program.ts) and
 * the sections it calls (each kind's export.ts) both use it: kept in program.ts, it made them
 * an import cycle.
 */
import type { Expr, KindSection as KindSectionFor, SectionWriter as SectionWriterFor } from "../framework";
import type { ProgramPlan } from "./naming";
/** The width generated code is laid out to (prettier's printWidth in the generated project). */
export const WIDTH = 110;

function inline(expr: Expr): string {
  if (typeof expr === "string") return expr;
  if ("object" in expr) {
    return expr.object.length ? `{ ${expr.object.map(([k, v]) => `${k}: ${inline(v)}`).join(", ")} }` : "{}";
  }
  return `[${expr.array.map(inline).join(", ")}]`;
}

/** `expr` on one line when `lead + expr + tail` fits the width, otherwise one member per line. */
function layout(expr: Expr, indent: string, lead: number, tail: number): string {
  const flat = inline(expr);
  if (typeof expr === "string" || lead + flat.length + tail <= WIDTH) return flat;
  const inner = `${indent}  `;
  const lines =
    "object" in expr
      ? expr.object.map(([k, v]) => `${inner}${k}: ${layout(v, inner, inner.length + k.length + 2, 1)},`)
      : expr.array.map((v) => `${inner}${layout(v, inner, inner.length, 1)},`);
  const [open, close] = "object" in expr ? ["{", "}"] : ["[", "]"];
  return `${open}\n${lines.join("\n")}\n${indent}${close}`;
}

/**
 * `[const name = ]callee(args..., props[, trailing]);` laid out to the width as prettier lays it out: on one
 * line when it fits; else, without a trailing argument, the props object hugs the call; with one, every
 * argument goes on a line of its own.
 */
export function statement(
  variable: string | undefined,
  callee: string,
  args: string[],
  props: [string, Expr][],
  trailing?: string,
): string {
  const open = `${variable ? `const ${variable} = ` : ""}${callee}(`;
  const lead = `${open}${args.map((a) => `${a}, `).join("")}`;
  if (trailing === undefined) return `${lead}${layout({ object: props }, "", lead.length, 2)});`;
  const flat = `${lead}${inline({ object: props })}, ${trailing});`;
  if (flat.length <= WIDTH) return flat;
  const lines = [...args, layout({ object: props }, "  ", 2, 1), trailing].map((a) => `  ${a},`);
  return `${open}\n${lines.join("\n")}\n);`;
}

/** A kind's section as the exporter calls it: with its plan. */
export type KindSection = KindSectionFor<ProgramPlan>;
export type SectionWriter = SectionWriterFor<ProgramPlan>;
export type { Declaring, Expr } from "../framework";

/** A section: its comment line, then its statements. */
export const section = (comment: string, lines: string[]) => [comment, ...lines].join("\n");
