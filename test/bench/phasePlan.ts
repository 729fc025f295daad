/**
 * Which of the bench's phases a run measures (`npm run bench -- --phases destroy`), and what it must do first
 * without measuring it: pure, unit-tested in phasePlan.test.ts.
 *
 * A run that leaves out the create still needs the stack's resources: it makes them with a create under
 * PULUMI_SKIP_CHECKPOINTS=true, not measured, in every stack (each checkpoint setting's and the do-nothing
 * provider's), and then runs only the phases asked for with each stack's own setting. What a later phase costs
 * depends on the state it starts from, not on how that state was written; the large preset's create with the
 * default checkpoints takes an hour on a shared 2-CPU machine, without them a minute and a half.
 */

/** The bench's phases in the order it runs them; `--phases` names them by these ids. */
export const PHASES = ["create", "up-again", "refresh", "update", "destroy"] as const;
export type PhaseId = (typeof PHASES)[number];

export interface PhasePlan {
  /** The phases measured, in the bench's order whatever the order given. */
  measured: PhaseId[];
  /** The stacks are made by an unmeasured create without checkpoints before the first measured phase. */
  setupCreate: boolean;
  /** Added to the run's name (results/bench-<preset><suffix>…json): "" when every phase is measured. */
  nameSuffix: string;
}

/** `--phases a,b` (comma-separated ids of PHASES); every phase when not given. */
export function phasePlan(raw: string | undefined): PhasePlan {
  if (raw === undefined) return { measured: [...PHASES], setupCreate: false, nameSuffix: "" };
  const names = raw
    .split(",")
    .map((n) => n.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !(PHASES as readonly string[]).includes(n));
  if (unknown.length || !names.length) {
    throw new Error(
      `--phases: ${unknown.length ? `unknown ${unknown.join(", ")}` : "no phase given"}; ` +
        `comma-separated, of ${PHASES.join(", ")}`,
    );
  }
  const measured = PHASES.filter((p) => names.includes(p));
  const all = measured.length === PHASES.length;
  return {
    measured,
    setupCreate: !measured.includes("create"),
    nameSuffix: all ? "" : `-${measured.join("-")}`,
  };
}
