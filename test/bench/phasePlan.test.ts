// Which phases `npm run bench -- --phases …` measures, and whether it makes the stacks first (./phasePlan.ts).
import { PHASES, phasePlan } from "./phasePlan";

describe("phasePlan", () => {
  it("measures every phase, with no set-up and no suffix, when --phases is not given", () => {
    expect(phasePlan(undefined)).toEqual({ measured: [...PHASES], setupCreate: false, nameSuffix: "" });
  });

  it("makes the stacks by an unmeasured create when the create is left out", () => {
    expect(phasePlan("destroy")).toEqual({
      measured: ["destroy"],
      setupCreate: true,
      nameSuffix: "-destroy",
    });
  });

  it("keeps the bench's order whatever order the phases are given in, and ignores spaces", () => {
    const plan = phasePlan("destroy, refresh,up-again");
    expect(plan.measured).toEqual(["up-again", "refresh", "destroy"]);
    expect(plan.nameSuffix).toBe("-up-again-refresh-destroy");
  });

  it("needs no set-up when the create is measured", () => {
    expect(phasePlan("create,destroy").setupCreate).toBe(false);
  });

  it("names every phase when all are given, as when none is", () => {
    expect(phasePlan(PHASES.join(",")).nameSuffix).toBe("");
  });

  it("refuses an unknown phase or an empty list, naming the valid ones", () => {
    expect(() => phasePlan("destroy,up again")).toThrow(
      "--phases: unknown up again; comma-separated, of create, up-again, refresh, update, destroy",
    );
    expect(() => phasePlan(",")).toThrow("--phases: no phase given");
  });
});
