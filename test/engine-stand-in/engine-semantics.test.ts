/**
 * The engine behaviours that decide whether a live object survives ordinary operations, each checked against
 * the stand-in with the Item fixture. Every test names the pulumi/pulumi source it follows.
 */
import * as os from "os";
import * as pulumi from "@pulumi/pulumi";
import { DEFAULT_PARALLELISM, Engine } from "../../engine-stand-in";
import { Limiter, deleteInAntichains, deletionAntichains } from "../../engine-stand-in/schedule";
import type { StateEntry } from "../../engine-stand-in/types";
import { stateEntry as entryOf } from "./fixtures/state-entry";
import { Item, type ItemArgs } from "./fixtures/item-resource";
import { engineTracker, ItemBackend, newItemBackend } from "./fixtures/item-fixture";

const engines = engineTracker();
afterEach(() => engines.closeAll());

let backend: ItemBackend;
let engine: Engine;
beforeEach(async () => {
  backend = newItemBackend();
  engine = await engines.create(backend.engineOptions());
});

const names = (steps: Array<{ name: string }>) => steps.map((s) => s.name);

describe("replacement order (step_generator.go, continueStepsFromDiff)", () => {
  test("an explicit deleteBeforeReplace: false wins over the provider's delete-first answer", async () => {
    const program = (key: string) => () => {
      new Item("holder", { name: "holder", uniqueKey: key, kind: key }, { deleteBeforeReplace: false });
    };
    await engine.up(program("k1"));
    const result = await engine.up(program("k2"));
    // The fixture's Diff asks for delete-first on a uniqueKey change; the option says create first.
    expect(result.errors).toEqual([]);
    expect(result.steps.replace[0]).toMatchObject({ name: "holder", deleteBeforeReplace: false });
    expect(result.operations.map((o) => o.op)).toEqual(["create", "delete"]);
  });

  test("`--replace` replaces without asking Diff: id is the replace key, create first unless the option", async () => {
    const program = (opts: pulumi.CustomResourceOptions) => () => {
      new Item("holder", { name: "holder", uniqueKey: "k" }, opts);
    };
    await engine.up(program({}));
    const firstId = backend.byName("holder")?.id;

    // Diff would say delete-first (uniqueKey), but a targeted replace never calls it: the create clashes.
    const clash = await engine.up(program({}), { replace: ["holder"] });
    expect(clash.ok).toBe(false);
    expect(clash.errors[0]).toMatchObject({ op: "create", message: expect.stringContaining("already held") });
    expect(backend.byName("holder")?.id).toBe(firstId);

    const replaced = await engine.up(program({ deleteBeforeReplace: true }), { replace: ["holder"] });
    expect(replaced.errors).toEqual([]);
    expect(replaced.steps.replace[0]).toMatchObject({ replaceKeys: ["id"], deleteBeforeReplace: true });
    expect(replaced.operations.map((o) => o.op)).toEqual(["delete", "create"]);
    expect(backend.byName("holder")?.id).not.toBe(firstId);
  });
});

describe("renames and aliases (step_generator.go, getOldResource and GenerateDeletes)", () => {
  test("a rename without aliases creates the new name, then deletes the old one after the program", async () => {
    await engine.up(() => void new Item("old-name", { name: "thing" }));
    const result = await engine.up(() => void new Item("new-name", { name: "thing2" }));
    expect(names(result.steps.create)).toEqual(["new-name"]);
    expect(names(result.steps.delete)).toEqual(["old-name"]);
    expect(result.operations.map((o) => `${o.op} ${o.urn.split("::").pop()}`)).toEqual([
      "create new-name",
      "delete old-name",
    ]);
  });

  test("with aliases the renamed resource keeps its object: no create, no delete", async () => {
    await engine.up(() => void new Item("old-name", { name: "thing" }));
    const id = backend.byName("thing")?.id;
    const result = await engine.up(
      () => void new Item("new-name", { name: "thing" }, { aliases: [{ name: "old-name" }] }),
    );
    expect(result.errors).toEqual([]);
    expect(result.steps.same[0]).toMatchObject({
      name: "new-name",
      aliasOf: expect.stringContaining("::old-name"),
    });
    expect(result.operations).toEqual([]);
    expect(engine.resources().map((r) => [r.name, r.id])).toEqual([["new-name", id]]);
  });

  test("two resources claiming one old URN through aliases fail the run", async () => {
    await engine.up(() => void new Item("old-name", { name: "thing" }));
    const result = await engine.up(() => {
      new Item("a", { name: "thing" }, { aliases: [{ name: "old-name" }] });
      new Item("b", { name: "thing" }, { aliases: [{ name: "old-name" }] });
    });
    expect(result.ok).toBe(false);
    expect(result.errors[0].message).toContain("Duplicate resource alias");
    expect(backend.byName("thing")).toBeDefined();
  });
});

describe("refresh (step.go, RefreshStep)", () => {
  test("configures the plugin with the config stored at the last up, not the current stack config", async () => {
    await engine.up(() => void new Item("kept", { name: "kept" }));
    const other = newItemBackend();
    // The current config now points at another store; refresh still reads the first one.
    const refreshed = await engine.refresh({ config: { "fixture:storePath": other.storePath } });
    expect(refreshed.errors).toEqual([]);
    expect(names(refreshed.steps.same)).toEqual(["kept"]);
    expect(engine.storedConfig()).toMatchObject({ "fixture:storePath": backend.storePath });
    const destroyed = await engine.destroy({ config: { "fixture:storePath": other.storePath } });
    expect(destroyed.errors).toEqual([]);
    expect(backend.byName("kept")).toBeUndefined();
  });

  test("is Read then Diff: outputs that changed without a diff are recorded but show no change", async () => {
    await engine.up(() => void new Item("quiet", { name: "quiet", value: "v" }));
    backend.edit((data) => {
      for (const item of Object.values(data.objects)) item.revision += 5; // not an input: Diff ignores it
    });
    const refreshed = await engine.refresh();
    expect(refreshed.steps.update).toEqual([]);
    expect(names(refreshed.steps.same)).toEqual(["quiet"]);
    expect(engine.resource("quiet").outputs.revision).toBe(6);
  });

  test("reads resources pending deletion too (deployment_executor.go, refresh: every prev resource)", async () => {
    await engine.up(() => void new Item("holder", { name: "holder", kind: "k1" }));
    const oldId = backend.byName("holder")?.id as string;
    // A child the engine does not know keeps the replaced object from being deleted: it stays pending delete.
    backend.edit((data) => {
      data.objects.stray = { id: "stray", name: "stray", parentId: oldId, revision: 1 };
    });
    const replaced = await engine.up(() => void new Item("holder", { name: "holder", kind: "k2" }));
    expect(replaced.ok).toBe(false);
    expect(engine.resources().filter((r) => r.pendingDelete)).toEqual([
      expect.objectContaining({ name: "holder", id: oldId }),
    ]);
    // The old object goes away behind the engine's back: refresh reads it and drops it from the state.
    backend.edit((data) => {
      delete data.objects.stray;
      delete data.objects[oldId];
    });
    const refreshed = await engine.refresh();
    expect(refreshed.errors).toEqual([]);
    expect(refreshed.steps.delete).toEqual([expect.objectContaining({ name: "holder", id: oldId })]);
    expect(engine.resources().filter((r) => r.pendingDelete)).toEqual([]);
  });
});

describe("the import option (step.go, ImportStep)", () => {
  test("reads with the id alone, which a dynamic provider cannot serve: the import fails, nothing is kept", async () => {
    await engine.up(() => void new Item("existing", { name: "existing" }));
    const id = backend.byName("existing")?.id ?? "";
    const result = await engine.up(() => {
      new Item("existing", { name: "existing" });
      new Item("imported", { name: "existing" }, { import: id });
    });
    expect(result.ok).toBe(false);
    expect(result.errors[0]).toMatchObject({ op: "import", urn: expect.stringContaining("::imported") });
    expect(engine.resources().map((r) => r.name)).toEqual(["existing"]);
  });
});

describe("interrupted runs (deployment_executor.go, pending operations)", () => {
  test("a create in flight when the CLI dies is a pending operation, warned about on the next up", async () => {
    const result = await engine.up(() => void new Item("slow", { name: "slow", gate: 99 }), {
      interruptAfter: 1,
    });
    expect(result.interrupted).toBe(true);
    expect(engine.pending()).toEqual([
      expect.objectContaining({ type: "creating", urn: expect.stringContaining("::slow") }),
    ]);
    expect(engine.resources()).toEqual([]);

    const next = await engine.up(() => void new Item("fast", { name: "fast" }));
    expect(next.warnings.join("\n")).toContain("1 pending operations from previous deployment");
    expect(next.warnings.join("\n")).toContain("interrupted while creating");

    // A plain refresh keeps pending creates (they need an interactive refresh or a flag to clear).
    await engine.refresh();
    expect(engine.pending()).toHaveLength(1);
    await engine.refresh({ clearPendingCreates: true });
    expect(engine.pending()).toEqual([]);
  });

  test("an interrupted destroy keeps its delete pending; the next destroy warns; non-creates do not carry over (snapshot.go)", async () => {
    await engine.up(() => void new Item("doomed", { name: "doomed" }));
    const interrupted = await engine.destroy({ interruptAfter: 1, interruptWhen: () => Promise.resolve() });
    expect(interrupted.interrupted).toBe(true);
    expect(engine.pending()).toEqual([
      expect.objectContaining({ type: "deleting", urn: expect.stringContaining("::doomed") }),
    ]);

    const again = await engine.destroy();
    expect(again.warnings.join("\n")).toContain("1 pending operations from previous deployment");
    expect(again.warnings.join("\n")).toContain("interrupted while deleting");
    expect(again.warnings.join("\n")).toContain("For example, if you are using AWS");
    // The finished destroy's state keeps none of the earlier deletes (only pending creates carry over).
    expect(engine.pending()).toEqual([]);
  });

  test("refresh gives no pending-operations warning (deployment_executor.go: opts.Refresh branch)", async () => {
    await engine.up(() => void new Item("slow", { name: "slow", gate: 99 }), { interruptAfter: 1 });
    expect(engine.pending()).toHaveLength(1);
    const refreshed = await engine.refresh();
    expect(refreshed.warnings).toEqual([]);
    expect(engine.pending()).toHaveLength(1);
  });

  test("a pending update is journaled with the new URN and type when found through an alias (snapshot.go, doUpdate)", async () => {
    await engine.up(() => void new Item("before", { name: "item", value: "v1" }));
    const id = engine.resource("before").id;
    const result = await engine.up(
      () => void new Item("after", { name: "item", value: "v2" }, { aliases: [{ name: "before" }] }),
      { interruptAfter: 1, interruptWhen: () => Promise.resolve() },
    );
    expect(result.interrupted).toBe(true);
    expect(engine.pending()).toEqual([
      expect.objectContaining({ type: "updating", urn: expect.stringContaining("::after"), id }),
    ]);
  });
});

describe("step details for displays (pkg/backend/display/object_diff.go)", () => {
  test("changedValues come with updates and replacements only, not with same steps", async () => {
    const program = (extra: string, value: string) => () =>
      void new Item("shown", { name: "shown", value, extra } as unknown as ItemArgs);
    await engine.up(program("a", "v1"));
    // An input the provider's Diff ignores: a same step, with the changed key but no values to show.
    const same = await engine.up(program("b", "v1"));
    expect(same.steps.same).toEqual([expect.objectContaining({ name: "shown", changedKeys: ["extra"] })]);
    expect(same.steps.same[0].changedValues).toBeUndefined();
    const updated = await engine.up(program("b", "v2"));
    expect(updated.steps.update[0].changedValues).toEqual({ value: { old: "v1", new: "v2" } });
  });
});

/** A state entry with no inputs or options of note: what the deletion schedule looks at. */
const stateEntry = (urn: string, dependencies: string[] = [], parent?: string): StateEntry =>
  entryOf(urn, { dependencies, ...(parent ? { parent } : {}) });

describe("scheduling", () => {
  test("default parallelism is the CLI's: 4 x CPUs (pkg/cmd/pulumi/operations/up.go)", () => {
    expect(DEFAULT_PARALLELISM).toBe(4 * os.availableParallelism());
  });

  test("deletions run in antichains, dependents first (step_generator.go, ScheduleDeletes)", () => {
    const root = stateEntry("root");
    const child = stateEntry("child", [], "root");
    const leaf = stateEntry("leaf", ["child"]);
    const loner = stateEntry("loner");
    const chains = deletionAntichains([root, child, leaf, loner]).map((c) => c.map((e) => e.urn).sort());
    expect(chains).toEqual([["leaf"], ["child"], ["loner", "root"]]);
  });

  test("a failed delete cancels the rest; only a protected refusal lets them go on (step_executor.go, cancelDueToError)", async () => {
    class Protected extends Error {}
    const run = async (failure: Error) => {
      const removed: string[] = [];
      const failures = await deleteInAntichains(
        [stateEntry("needed"), stateEntry("failing", ["needed"]), stateEntry("loner")],
        new Limiter(1),
        async (e) => {
          if (e.urn === "failing") throw failure;
          removed.push(e.urn);
        },
        (err) => err instanceof Protected,
      );
      return { failures, removed };
    };
    // Antichains: [failing], [needed, loner].
    expect(await run(new Error("refused"))).toEqual({ failures: 1, removed: [] });
    expect(await run(new Protected("protected"))).toEqual({ failures: 1, removed: ["loner"] });
  });

  test("a destroy stops deleting after a failed delete", async () => {
    await engine.up(() => {
      const top = new Item("top", { name: "top" });
      new Item("leaf", { name: "leaf", parentId: top.id });
      new Item("other", { name: "other" });
    });
    const leafId = backend.byName("leaf")?.id as string;
    backend.edit((data) => {
      data.objects.stray = { id: "stray", name: "stray", parentId: leafId, revision: 1 };
    });
    const destroyed = await engine.destroy();
    expect(destroyed.ok).toBe(false);
    expect(destroyed.errors).toEqual([
      expect.objectContaining({ op: "delete", urn: expect.stringContaining("::leaf") }),
    ]);
    // "other" is in the antichain after "leaf": it never starts.
    expect(backend.byName("other")).toBeDefined();
    expect(
      engine
        .resources()
        .map((r) => r.name)
        .sort(),
    ).toEqual(["leaf", "other", "top"]);
  });
});
