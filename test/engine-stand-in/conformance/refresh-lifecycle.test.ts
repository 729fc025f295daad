/**
 * Conformance (issue 22): the engine's refresh lifecycle tests about resources a refresh finds gone, refresh
 * targets, and the target glob tests (pulumi/pulumi pkg/engine/lifecycletest/refresh_test.go, target_test.go),
 * re-expressed in this project's words with the results the engine tests assert.
 *
 * Tests on a program run through the stand-in with a provider whose Read finds chosen resources gone
 * (refreshLifecycle.ts). The two tests on a hand-made state (several entries with one URN, some pending deletion,
 * which no program can produce) run the stand-in's refresh (engine-stand-in/refresh.ts, refreshState) over that
 * state with a provider answering Read and Diff in the test, as the engine tests run over a hand-made snapshot.
 */
import type { Engine } from "../../../engine-stand-in";
import type { ProviderPlugin, PropertyMap, ReadResult } from "../../../engine-stand-in/plugin";
import { newResult } from "../../../engine-stand-in/deployment";
import { refreshState } from "../../../engine-stand-in/refresh";
import { Limiter } from "../../../engine-stand-in/schedule";
import type { StateEntry } from "../../../engine-stand-in/types";
import { stateEntry } from "../fixtures/state-entry";
import { engineTracker, repoRoot } from "../fixtures/item-fixture";
import { RefreshResource } from "./refreshLifecycle";

describe("on a program", () => {
  const engines = engineTracker();
  let engine: Engine;

  beforeEach(async () => {
    engine = await engines.create({ cwd: repoRoot });
  });
  afterEach(() => engines.closeAll());

  const gone = (...keys: string[]) => ({ env: { REFRESH_GONE: keys.join(",") } });

  interface CheckpointResource {
    urn: string;
    deletedWith?: string;
    propertyDependencies?: Record<string, string[]>;
  }
  const stored = (name: string) =>
    (engine.checkpoint() as { deployment: { resources: CheckpointResource[] } }).deployment.resources.find(
      (r) => r.urn.endsWith(`::${name}`),
    )!;

  test.each([1, 4])(
    "TestRefreshWithDelete (parallel %d): a resource the Read finds gone leaves the state",
    async (parallelism) => {
      expect((await engine.up(() => void new RefreshResource("resA", { key: "a" }))).errors).toEqual([]);
      const refresh = await engine.refresh({ ...gone("a"), parallelism });
      expect(refresh.errors).toEqual([]);
      expect(refresh.steps.delete.map((s) => s.name)).toEqual(["resA"]);
      expect(engine.resources()).toEqual([]);
    },
  );

  test("TestRefreshDeletePropertyDependencies: the survivor's property dependencies are left empty", async () => {
    const program = () => {
      const resA = new RefreshResource("resA", { key: "a" });
      new RefreshResource("resB", { key: "b", propB1: resA.id });
    };
    expect((await engine.up(program)).errors).toEqual([]);
    const resAUrn = engine.resource("resA").urn;
    expect(stored("resB").propertyDependencies!.propB1).toEqual([resAUrn]);

    expect((await engine.refresh(gone("a"))).errors).toEqual([]);
    expect(engine.resources().map((r) => r.name)).toEqual(["resB"]);
    expect(stored("resB").propertyDependencies).toEqual({});
    expect(engine.resource("resB").dependencies).toEqual([]);
  });

  test("TestRefreshDeleteDeletedWith: the survivor's deletedWith is left empty", async () => {
    const program = () => {
      const resA = new RefreshResource("resA", { key: "a" });
      new RefreshResource("resB", { key: "b" }, { deletedWith: resA });
    };
    expect((await engine.up(program)).errors).toEqual([]);
    expect(stored("resB").deletedWith).toBe(engine.resource("resA").urn);

    expect((await engine.refresh(gone("a"))).errors).toEqual([]);
    expect(engine.resources().map((r) => r.name)).toEqual(["resB"]);
    expect(stored("resB").deletedWith).toBeUndefined();
  });

  test("TestRefreshDeleteParent: a child whose parent is gone stays, with no dangling parent", async () => {
    const program = () => {
      const resA = new RefreshResource("resA", { key: "a" });
      new RefreshResource("resB", { key: "b" }, { parent: resA });
    };
    expect((await engine.up(program)).errors).toEqual([]);
    expect(engine.resource("resB").parent).toBe(engine.resource("resA").urn);

    expect((await engine.refresh(gone("a"))).errors).toEqual([]);
    expect(engine.resources().map((r) => r.name)).toEqual(["resB"]);
    expect(engine.resource("resB").parent).toBeUndefined();
  });

  test("TestGlobExcludes: an --exclude glob matching every resource makes an empty program a no-op", async () => {
    const first = await engine.up(() => {
      new RefreshResource("resA", { key: "a" });
      new RefreshResource("resB", { key: "b" });
    });
    expect(first.errors).toEqual([]);
    const excluded = await engine.up(() => undefined, { exclude: ["**RefreshResource**"] });
    expect(excluded.errors).toEqual([]);
    expect(excluded.steps.delete).toEqual([]);
    expect(engine.resources().map((r) => r.name)).toEqual(["resA", "resB"]);
  });
});

describe("on a hand-made state", () => {
  const TYPE = "pkgA:m:typA";
  const urnOf = (name: string) => `urn:pulumi:test::test-project::${TYPE}::${name}`;
  const [urnA, urnB, urnC] = ["resA", "resB", "resC"].map(urnOf);

  const entry = (urn: string, id: string, pendingDelete: boolean, ...dependencies: string[]): StateEntry =>
    stateEntry(urn, { type: TYPE, id, dependencies, ...(pendingDelete ? { pendingDelete: true } : {}) });

  /** The engine tests' state: A::0, B::1 on A, C::2 on A and B, then A::3, A::4 and C::5 (on A, B) pending deletion. */
  const oldState = () => [
    entry(urnA, "0", false),
    entry(urnB, "1", false, urnA),
    entry(urnC, "2", false, urnA, urnB),
    entry(urnA, "3", true),
    entry(urnA, "4", true),
    entry(urnC, "5", true, urnA, urnB),
  ];

  /** A provider whose Read answers from `reads` by id (no entry: gone), and whose Diff compares inputs. */
  function provider(reads: Record<string, { inputs: PropertyMap; outputs: PropertyMap } | undefined>) {
    const readUrns: string[] = [];
    const plugin = {
      async read({ urn, id }: { urn: string; id: string }): Promise<ReadResult> {
        readUrns.push(urn);
        const found = reads[id];
        return found ? { id, properties: found.outputs, inputs: found.inputs } : { id: "", properties: {} };
      },
      async diff({ news, oldInputs }: { news: PropertyMap; oldInputs: PropertyMap }) {
        const same = JSON.stringify(news) === JSON.stringify(oldInputs);
        return { changes: same ? "none" : "some", replaces: [], stables: [], deleteBeforeReplace: false };
      },
    };
    return { plugin: plugin as unknown as ProviderPlugin, readUrns };
  }

  /** Every subset of the three resources as refresh targets, the empty one (no --target) first. */
  const targetSets: string[][] = [
    [],
    [urnA],
    [urnB],
    [urnC],
    [urnA, urnB],
    [urnA, urnC],
    [urnB, urnC],
    [urnA, urnB, urnC],
  ];
  const shortName = (urn: string) => urn.slice(urn.lastIndexOf("::") + 2);

  test.each(targetSets.map((targets) => [targets.map(shortName).join(",") || "none", targets]))(
    "TestRefreshDeleteDependencies, targets %s: dependencies on what the refresh deleted are repaired",
    async (_label, targets) => {
      const old = oldState();
      const unchanged = oldState();
      const same = { inputs: {}, outputs: {} };
      // A::0 and A::4 are gone; every other Read finds the resource as it was.
      const { plugin, readUrns } = provider({ "1": same, "2": same, "3": same, "5": same });
      const result = newResult();
      const state = await refreshState(plugin, old, new Limiter(4), result, { target: targets as string[] });
      expect(result.errors).toEqual([]);
      if ((targets as string[]).length > 0) {
        expect(readUrns.filter((urn) => !(targets as string[]).includes(urn))).toEqual([]);
      }
      const byId = Object.fromEntries(state.map((e) => [e.id!, e]));
      if ((targets as string[]).length === 0 || (targets as string[]).includes(urnA)) {
        expect(Object.keys(byId).sort()).toEqual(["1", "2", "3", "5"]);
        expect(byId["1"].dependencies).toEqual([]); // A::0 gone, and no A before B
        expect(byId["2"].dependencies).toEqual([urnB]); // likewise for C::2
        expect(byId["3"]).toEqual(unchanged[3]);
        // A::4 is gone, but A::3 comes before C::5: A is still referenceable there.
        expect(byId["5"]).toEqual(unchanged[5]);
      } else {
        // A was not refreshed: nothing is gone, nothing changes.
        expect(state).toEqual(unchanged);
      }
    },
  );

  test.each(targetSets.map((targets) => [targets.map(shortName).join(",") || "none", targets]))(
    "TestRefreshBasics, targets %s: targeted resources take the Read's inputs and outputs, gone ones leave",
    async (_label, targetList) => {
      const targets = targetList as string[];
      const reads = {
        "0": { inputs: {}, outputs: {} },
        "3": { inputs: {}, outputs: {} },
        "1": { inputs: {}, outputs: { foo: "bar" } }, // outputs only: no refresh diff
        "4": { inputs: { oof: "zab" }, outputs: { baz: "qux", oof: "zab" } }, // inputs too: a refresh diff
        // C::2 and C::5 are gone.
      } as Record<string, { inputs: PropertyMap; outputs: PropertyMap }>;
      const { plugin, readUrns } = provider(reads);
      const result = newResult();
      const state = await refreshState(plugin, oldState(), new Limiter(4), result, { target: targets });
      expect(result.errors).toEqual([]);
      const targeted = (urn: string) => targets.length === 0 || targets.includes(urn);
      expect(readUrns.every(targeted)).toBe(true);

      const expectedIds = oldState()
        .filter((e) => !(targeted(e.urn) && (e.id === "2" || e.id === "5")))
        .map((e) => e.id);
      expect(state.map((e) => e.id)).toEqual(expectedIds);
      for (const [index, old] of oldState().entries()) {
        const now = state.find((e) => e.id === old.id);
        if (!now) continue;
        const read = reads[old.id!];
        const expected = targeted(old.urn)
          ? { ...old, inputs: read.inputs, outputs: read.outputs }
          : oldState()[index];
        expect(now).toEqual(expected);
      }
      // The steps: an update where the inputs changed, same where not, delete where gone.
      const names = (kind: "update" | "same" | "delete") =>
        result.steps[kind].map((s) => s.id ?? s.urn).sort();
      expect(names("update")).toEqual(targeted(urnA) ? ["4"] : []);
      expect(names("delete")).toEqual(targeted(urnC) ? ["2", "5"] : []);
      expect(names("same")).toEqual(
        [...(targeted(urnA) ? ["0", "3"] : []), ...(targeted(urnB) ? ["1"] : [])].sort(),
      );
    },
  );
});
