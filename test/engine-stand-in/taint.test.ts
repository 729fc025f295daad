/**
 * Taint (issue 22): `pulumi state taint <urn>` marks a resource in the state (pkg/cmd/pulumi/state/state_taint.go),
 * and the next `up` replaces it as a `--replace` target: checked without the old inputs, no Diff, the replace key
 * `id`, create-first unless the deleteBeforeReplace option says otherwise; the replacement's state is not tainted
 * (step_generator.go, isTargetedReplace and diff()). The checkpoint keeps the mark (apitype.ResourceV3 `taint`).
 * Engine tests re-expressed: TestTaintReplacement, TestTaintMultipleResources, TestTaintNoChanges and
 * TestTaintWithPendingDelete (pkg/engine/lifecycletest/taint_test.go). `pulumi state untaint` takes the mark off
 * (state_untaint.go; as state_untaint_test.go: some of them, all of them, an unknown URN).
 */
import type { Engine } from "../../engine-stand-in";
import { Item, type ItemArgs } from "./fixtures/item-resource";
import { ItemBackend, useItemEngine } from "./fixtures/item-fixture";
import { writeLoadableCheckpoint } from "./reencrypt";

let backend: ItemBackend;
let engine: Engine;
const engines = useItemEngine((fresh) => ({ backend, engine } = fresh));

const items =
  (names: string[], args: Partial<ItemArgs> = {}, deleteBeforeReplace?: boolean) =>
  () => {
    for (const name of names) {
      new Item(name, { name, ...args }, deleteBeforeReplace === undefined ? {} : { deleteBeforeReplace });
    }
  };

const stored = (name: string) => Object.values(backend.data().objects).filter((o) => o.name === name);

describe("taint", () => {
  test("the next up replaces a tainted resource, create-first, and the new state is not tainted (TestTaintReplacement, TestTaintNoChanges)", async () => {
    const program = items(["thing"], { value: "same" });
    await engine.up(program);
    const firstId = engine.resource("thing").id;
    expect((await engine.up(program)).operations).toEqual([]);

    engine.taint("thing");
    expect(engine.resource("thing").taint).toBe(true);
    const journalStart = backend.mutations().length;
    const result = await engine.up(program);
    expect(result.errors).toEqual([]);
    expect(backend.mutations().slice(journalStart)).toEqual(["create thing", "delete thing"]);
    expect(result.steps.replace.map((s) => [s.name, s.replaceKeys, s.deleteBeforeReplace, s.oldId])).toEqual([
      ["thing", ["id"], false, firstId],
    ]);
    expect(engine.resource("thing").id).not.toBe(firstId);
    expect(engine.resource("thing").taint).toBeUndefined();
    expect(stored("thing")).toHaveLength(1);
    expect((await engine.up(program)).operations).toEqual([]);
  });

  test("only the tainted ones of several are replaced (TestTaintMultipleResources)", async () => {
    const program = items(["res-a", "res-b", "res-c"]);
    await engine.up(program);
    const before = Object.fromEntries(engine.resources().map((r) => [r.name, r.id]));
    engine.taint(engine.resource("res-a").urn, engine.resource("res-c").urn);
    const result = await engine.up(program);
    expect(result.errors).toEqual([]);
    expect(result.steps.replace.map((s) => s.name).sort()).toEqual(["res-a", "res-c"]);
    expect(result.steps.same.map((s) => s.name)).toEqual(["res-b"]);
    expect(
      result.operations
        .filter((o) => o.op === "delete")
        .map((o) => o.id)
        .sort(),
    ).toEqual([before["res-a"], before["res-c"]].sort());
    expect(engine.resource("res-b").id).toBe(before["res-b"]);
    expect(engine.resources().filter((r) => r.taint)).toEqual([]);
  });

  test("a preview plans the replacement and keeps the mark", async () => {
    await engine.up(items(["thing"]));
    engine.taint("thing");
    const plan = await engine.preview(items(["thing"]));
    expect(plan.errors).toEqual([]);
    expect(plan.steps.replace.map((s) => [s.name, s.replaceKeys])).toEqual([["thing", ["id"]]]);
    expect(plan.operations).toEqual([]);
    expect(engine.resource("thing").taint).toBe(true);
  });

  test("Diff is not asked: a taint replaces create-first unless the deleteBeforeReplace option is set", async () => {
    await engine.up(items(["keyed"], { uniqueKey: "k1" }));
    const firstId = engine.resource("keyed").id;
    engine.taint("keyed");
    // The fixture's Diff would ask delete-first for a uniqueKey change, but a taint never asks Diff: the new item
    // is created first and the store refuses the second holder of the key. Nothing is deleted; the mark stays.
    const refused = await engine.up(items(["keyed"], { uniqueKey: "k1" }));
    expect(refused.ok).toBe(false);
    expect(refused.errors[0]).toMatchObject({
      op: "create",
      message: expect.stringContaining("uniqueKey k1"),
    });
    expect(stored("keyed").map((o) => o.id)).toEqual([firstId]);
    expect(engine.resource("keyed")).toMatchObject({ id: firstId, taint: true });

    const journalStart = backend.mutations().length;
    const replaced = await engine.up(items(["keyed"], { uniqueKey: "k1" }, true));
    expect(replaced.errors).toEqual([]);
    expect(backend.mutations().slice(journalStart)).toEqual(["delete keyed", "create keyed"]);
    expect(replaced.steps.replace[0]).toMatchObject({ replaceKeys: ["id"], deleteBeforeReplace: true });
    expect(engine.resource("keyed").taint).toBeUndefined();
  });

  test("an unknown target fails the whole edit with the CLI's text and marks nothing", async () => {
    await engine.up(items(["thing"]));
    const missing = "urn:pulumi:test::test-project::fixture:Item::nothing";
    expect(() => engine.taint("thing", missing)).toThrow(
      `No such resource "${missing}" exists in the current state`,
    );
    expect(engine.resource("thing").taint).toBeUndefined();
  });

  test("the checkpoint writes and reads the mark; a pending delete's mark does nothing (TestTaintWithPendingDelete)", async () => {
    await engine.up(items(["thing"], { value: "current" }));
    // The object a pending delete names: a replaced copy an earlier run could not delete.
    const oldCopy = { id: "item-old", name: "old-copy", value: "old", revision: 1 };
    backend.edit((data) => void (data.objects[oldCopy.id] = oldCopy));
    engine.taint("thing");
    const checkpoint = engine.checkpoint() as { deployment: { resources: Array<Record<string, unknown>> } };
    const thing = checkpoint.deployment.resources.find((r) => r.urn === engine.resource("thing").urn)!;
    expect(thing.taint).toBe(true);
    // The pending delete has the same URN, and is tainted as well.
    checkpoint.deployment.resources.push({ ...thing, id: oldCopy.id, delete: true, taint: true });

    const { file, key } = writeLoadableCheckpoint(checkpoint, engine);
    const restored = await engines.create(backend.engineOptions());
    await restored.loadState(file, key);
    expect(restored.resources().map((r) => [r.id, r.taint, r.pendingDelete])).toEqual([
      [thing.id, true, undefined],
      [oldCopy.id, true, true],
    ]);

    const result = await restored.up(items(["thing"], { value: "current" }));
    expect(result.errors).toEqual([]);
    expect(
      result.operations
        .filter((o) => o.op === "delete")
        .map((o) => o.id)
        .sort(),
    ).toEqual([thing.id, oldCopy.id].sort());
    expect(restored.resources().filter((r) => r.name === "thing")).toHaveLength(1);
    expect([restored.resource("thing").taint, restored.resource("thing").pendingDelete]).toEqual([
      undefined,
      undefined,
    ]);
    expect(stored("thing")).toHaveLength(1);
    expect(stored("old-copy")).toHaveLength(0);
  });
});

describe("untaint", () => {
  test("untainted, a resource is no longer replaced; only the named ones lose the mark", async () => {
    const program = items(["res-a", "res-b"], { value: "same" });
    await engine.up(program);
    const before = Object.fromEntries(engine.resources().map((r) => [r.name, r.id]));
    engine.taint("res-a", "res-b");
    engine.untaint([engine.resource("res-a").urn]);
    expect([engine.resource("res-a").taint, engine.resource("res-b").taint]).toEqual([undefined, true]);
    const { deployment } = engine.checkpoint() as {
      deployment: { resources: Array<Record<string, unknown>> };
    };
    const taintOf = (name: string) =>
      deployment.resources.find((r) => r.urn === engine.resource(name).urn)?.taint;
    expect([taintOf("res-a"), taintOf("res-b")]).toEqual([undefined, true]);

    const journalStart = backend.mutations().length;
    const result = await engine.up(program);
    expect(result.errors).toEqual([]);
    expect(result.steps.replace.map((s) => s.name)).toEqual(["res-b"]);
    expect(backend.mutations().slice(journalStart)).toEqual(["create res-b", "delete res-b"]);
    expect(engine.resource("res-a").id).toBe(before["res-a"]);
  });

  test("--all clears every mark, and the next up changes nothing", async () => {
    const program = items(["res-a", "res-b"]);
    await engine.up(program);
    engine.taint("res-a", "res-b");
    engine.untaint("all");
    expect(engine.resources().filter((r) => r.taint)).toEqual([]);
    const journalStart = backend.mutations().length;
    expect((await engine.up(program)).operations).toEqual([]);
    expect(backend.mutations().slice(journalStart)).toEqual([]);
  });

  test("an unknown target fails the whole edit with the CLI's text and clears nothing", async () => {
    await engine.up(items(["thing"]));
    engine.taint("thing");
    const missing = "urn:pulumi:test::test-project::fixture:Item::nothing";
    expect(() => engine.untaint(["thing", missing])).toThrow(
      `No such resource "${missing}" exists in the current state`,
    );
    expect(engine.resource("thing").taint).toBe(true);
  });
});
