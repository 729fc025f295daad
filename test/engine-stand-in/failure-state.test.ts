/**
 * What the state keeps after a failed step (issue 22), as the engine records it: a partially failed update
 * keeps the old inputs with the new outputs (pkg/engine/update.go, OnResourceStepPost), a delete-first
 * replacement whose create fails leaves the old resource pending replacement (step.go, DeleteStep.Apply;
 * `TestPendingReplaceResumeWithSameGoals`), and a create that answers an empty id fails
 * (plugin/provider_plugin.go, Create).
 */
import type { Engine } from "../../engine-stand-in";
import { Item, type ItemArgs } from "./fixtures/item-resource";
import { ItemBackend, useItemEngine } from "./fixtures/item-fixture";

let backend: ItemBackend;
let engine: Engine;
useItemEngine((fresh) => ({ backend, engine } = fresh));

describe("state after failures", () => {
  test("a partially failed update keeps the old inputs and the new outputs, and the next up updates again", async () => {
    await engine.up(() => void new Item("thing", { name: "thing", value: "one" }));
    const result = await engine.up(
      () => void new Item("thing", { name: "thing", value: "two", failOn: "updateInit" }),
    );
    expect(result.ok).toBe(false);
    const thing = engine.resource("thing");
    expect(thing.inputs).toMatchObject({ value: "one" });
    expect(thing.inputs.failOn).toBeUndefined();
    expect(thing.outputs).toMatchObject({ value: "two" });
    expect(thing.initErrors).toEqual(["initialization failed after the update"]);

    const again = await engine.up(() => void new Item("thing", { name: "thing", value: "two" }));
    expect(again.errors).toEqual([]);
    expect(again.steps.update.map((s) => s.name)).toEqual(["thing"]);
    expect(engine.resource("thing").inputs).toMatchObject({ value: "two" });
  });

  test("a delete-first replacement whose create fails stays pending replacement; the next up only creates (TestPendingReplaceResumeWithSameGoals)", async () => {
    const program = (args: Partial<ItemArgs>) => () =>
      void new Item("keyed", { name: "keyed", uniqueKey: "k1", ...args });
    await engine.up(program({}));
    const firstId = backend.byName("keyed")!.id;

    // uniqueKey changes: the fixture's Diff asks for delete-first; the create is then refused.
    const failed = await engine.up(program({ uniqueKey: "k2", failOn: "create" }));
    expect(failed.ok).toBe(false);
    expect(backend.byName("keyed")).toBeUndefined();
    expect(engine.resource("keyed")).toMatchObject({ id: firstId, pendingReplacement: true });

    // The same goal again, now creatable: no second delete, one create.
    const resumed = await engine.up(program({ uniqueKey: "k2" }));
    expect(resumed.errors).toEqual([]);
    expect(resumed.operations.map((o) => o.op)).toEqual(["create"]);
    expect(resumed.steps.replace.map((s) => s.name)).toEqual(["keyed"]);
    expect(engine.resource("keyed").pendingReplacement).toBeUndefined();
    expect(Object.values(backend.data().objects).filter((o) => o.name === "keyed")).toHaveLength(1);
  });

  test("a resource pending replacement that the program dropped leaves the state without a delete call", async () => {
    const program = (args: Partial<ItemArgs>) => () =>
      void new Item("keyed", { name: "keyed", uniqueKey: "k1", ...args });
    await engine.up(program({}));
    await engine.up(program({ uniqueKey: "k2", failOn: "create" }));
    const dropped = await engine.up(() => undefined);
    expect(dropped.errors).toEqual([]);
    expect(dropped.operations).toEqual([]);
    expect(engine.resources()).toEqual([]);
  });

  test("a create that answers an empty id is an error, and nothing is recorded", async () => {
    const result = await engine.up(() => void new Item("blank", { name: "blank", failOn: "emptyId" }));
    expect(result.ok).toBe(false);
    expect(result.errors[0]).toMatchObject({
      op: "create",
      message: expect.stringContaining("plugin returned empty resource.ID from create"),
    });
    expect(engine.resources()).toEqual([]);
  });
});
