/**
 * Dependents of a delete-first replacement (issue 22), as the engine treats them (step_generator.go,
 * continueStepsFromDiff and calculateDependentReplacements): the resources after the replaced one in the state
 * that depend on it by property, dependency or deletedWith are asked their Diff with those properties unknown;
 * the ones that would be replaced are deleted first, dependents before dependencies, then the replaced resource,
 * and are created again when the program registers them, without Diff. The Item fixture: `uniqueKey` replaces
 * delete-first, `kind` replaces create-first, `value` and `parentId` update in place.
 */
import * as pulumi from "@pulumi/pulumi";
import type { Engine } from "../../engine-stand-in";
import { Item } from "./fixtures/item-resource";
import { ItemBackend, useItemEngine } from "./fixtures/item-fixture";
import { writeLoadableCheckpoint } from "./reencrypt";

let backend: ItemBackend;
let engine: Engine;
const engines = useItemEngine((fresh) => ({ backend, engine } = fresh));

/**
 * root (keyed) <- byKind (kind: root's id, replaced) <- grand (kind: byKind's id, replaced through byKind);
 * root <- byValue (value: root's id, an update only); root <- ordered (dependsOn only: no property changes).
 */
const graph =
  (key: string, opts: { protectByKind?: boolean; dropByKind?: boolean; failByKind?: boolean } = {}) =>
  () => {
    const root = new Item("root", { name: "root", uniqueKey: key });
    if (!opts.dropByKind) {
      const byKind = new Item(
        "by-kind",
        { name: "by-kind", kind: root.id, ...(opts.failByKind ? { failOn: "create" as const } : {}) },
        { protect: opts.protectByKind ?? false },
      );
      new Item("grand", { name: "grand", kind: byKind.id });
    }
    new Item("by-value", { name: "by-value", value: root.id });
    new Item("ordered", { name: "ordered" }, { dependsOn: [root] });
  };

const ids = () => Object.fromEntries(engine.resources().map((r) => [r.name, r.id]));

describe("dependents of a delete-first replacement", () => {
  test("those whose Diff replaces them are deleted first, dependents before dependencies, and created again (TestDeleteBeforeReplace)", async () => {
    expect((await engine.up(graph("k1"))).errors).toEqual([]);
    const before = ids();
    const journalStart = backend.mutations().length;

    const result = await engine.up(graph("k2"));
    expect(result.errors).toEqual([]);
    const mutations = backend.mutations().slice(journalStart);
    // The chain: grand, by-kind, then root deleted, root created; then the dependents as the program registers them.
    expect(mutations.slice(0, 4)).toEqual(["delete grand", "delete by-kind", "delete root", "create root"]);
    expect(mutations.indexOf("create by-kind")).toBeLessThan(mutations.indexOf("create grand"));
    expect(mutations).toContain("update by-value");
    expect(mutations.filter((m) => m.endsWith("ordered"))).toEqual([]);

    const replaced = Object.fromEntries(
      result.steps.replace.map((s) => [s.name, [s.replaceKeys, s.deleteBeforeReplace, s.oldId]]),
    );
    expect(replaced).toEqual({
      root: [["uniqueKey"], true, before.root],
      "by-kind": [["kind"], true, before["by-kind"]],
      grand: [["kind"], true, before.grand],
    });
    expect(result.steps.update.map((s) => s.name)).toEqual(["by-value"]);
    expect(result.steps.same.map((s) => s.name)).toEqual(["ordered"]);
    const after = ids();
    expect(backend.byName("by-kind")!.kind).toBe(after.root);
    expect(backend.byName("grand")!.kind).toBe(after["by-kind"]);
    expect(Object.values(backend.data().objects)).toHaveLength(5);

    const again = await engine.up(graph("k2"));
    expect(again.errors).toEqual([]);
    expect(again.operations).toEqual([]);
  });

  test("a preview plans the same replacements and changes nothing", async () => {
    await engine.up(graph("k1"));
    const before = ids();
    const journalStart = backend.mutations().length;
    const plan = await engine.preview(graph("k2"));
    expect(plan.errors).toEqual([]);
    expect(plan.steps.replace.map((s) => [s.name, s.replaceKeys, s.deleteBeforeReplace])).toEqual([
      ["root", ["uniqueKey"], true],
      ["by-kind", ["kind"], true],
      ["grand", ["kind"], true],
    ]);
    expect(plan.operations).toEqual([]);
    expect(backend.mutations().slice(journalStart)).toEqual([]);
    expect(ids()).toEqual(before);
  });

  test("a dependent registered before the replacement no longer depends on it and is not deleted (TestDependencyChangeDBR)", async () => {
    await engine.up(() => {
      const root = new Item("root", { name: "root", uniqueKey: "k1" });
      new Item("follower", { name: "follower", kind: root.id });
    });
    const rootId = engine.resource("root").id!;
    const followerId = engine.resource("follower").id;
    const journalStart = backend.mutations().length;
    const result = await engine.up(() => {
      // Registered first, with the same kind written out: no dependency on root any more.
      new Item("follower", { name: "follower", kind: rootId });
      new Item("root", { name: "root", uniqueKey: "k2" });
    });
    expect(result.errors).toEqual([]);
    expect(result.steps.same.map((s) => s.name)).toEqual(["follower"]);
    expect(backend.mutations().slice(journalStart)).toEqual(["delete root", "create root"]);
    expect(engine.resource("follower").id).toBe(followerId);
  });

  test("a protected dependent fails the replacement before any delete, in preview and up (TestDBRProtect)", async () => {
    await engine.up(graph("k1", { protectByKind: true }));
    const before = ids();
    const journalStart = backend.mutations().length;
    const message =
      `unable to replace resource "${engine.resource("by-kind").urn}" as part of replacing ` +
      `"${engine.resource("root").urn}" as it is currently marked for protection.`;

    const plan = await engine.preview(graph("k2", { protectByKind: true }));
    expect(plan.ok).toBe(false);
    expect(plan.errors[0].message).toContain(message);
    const failed = await engine.up(graph("k2", { protectByKind: true }));
    expect(failed.ok).toBe(false);
    expect(failed.errors[0].message).toContain(message);
    expect(failed.errors[0].message).toContain(`pulumi state unprotect '${engine.resource("by-kind").urn}'`);
    expect(failed.operations).toEqual([]);
    expect(backend.mutations().slice(journalStart)).toEqual([]);
    expect(ids()).toEqual(before);

    // The state holds the protection: an up that unprotects (nothing else) lets the next one replace.
    expect((await engine.up(graph("k1"))).operations).toEqual([]);
    const replaced = await engine.up(graph("k2"));
    expect(replaced.errors).toEqual([]);
    expect(replaced.steps.replace.map((s) => s.name)).toEqual(["root", "by-kind", "grand"]);
  });

  test("a dependent the program drops is deleted once, by the chain, and leaves the state", async () => {
    await engine.up(graph("k1"));
    const journalStart = backend.mutations().length;
    // grand goes with by-kind: it depends on it.
    const result = await engine.up(graph("k2", { dropByKind: true }));
    expect(result.errors).toEqual([]);
    expect(backend.mutations().slice(journalStart, journalStart + 4)).toEqual([
      "delete grand",
      "delete by-kind",
      "delete root",
      "create root",
    ]);
    expect(backend.mutations().filter((m) => m === "delete by-kind")).toHaveLength(1);
    expect(result.steps.delete.map((s) => s.name).sort()).toEqual(["by-kind", "grand"]);
    expect(
      engine
        .resources()
        .map((r) => r.name)
        .sort(),
    ).toEqual(["by-value", "ordered", "root"]);
    expect((await engine.up(graph("k2", { dropByKind: true }))).operations).toEqual([]);
  });

  test("a dependent whose new create fails stays pending replacement, through the checkpoint too; the next up only creates it", async () => {
    await engine.up(graph("k1"));
    const failed = await engine.up(graph("k2", { failByKind: true }));
    expect(failed.ok).toBe(false);
    expect(backend.byName("by-kind")).toBeUndefined();
    expect(engine.resource("by-kind").pendingReplacement).toBe(true);
    // grand was deleted by the chain too and never registered again (the program stopped): pending as well.
    expect(engine.resource("grand").pendingReplacement).toBe(true);
    expect(engine.checkpoint()).toMatchObject({
      deployment: {
        resources: expect.arrayContaining([
          expect.objectContaining({ urn: engine.resource("by-kind").urn, pendingReplacement: true }),
        ]),
      },
    });

    // The checkpoint keeps the marks: an engine that loads it continues.
    const { file, key } = writeLoadableCheckpoint(engine.checkpoint(), engine);
    engine = await engines.create(backend.engineOptions());
    await engine.loadState(file, key);
    expect(
      engine
        .resources()
        .filter((r) => r.pendingReplacement)
        .map((r) => r.name),
    ).toEqual(["by-kind", "grand"]);

    const journalStart = backend.mutations().length;
    const resumed = await engine.up(graph("k2"));
    expect(resumed.errors).toEqual([]);
    expect(backend.mutations().slice(journalStart).sort()).toEqual(["create by-kind", "create grand"]);
    expect(engine.resources().filter((r) => r.pendingReplacement)).toEqual([]);
    expect(Object.values(backend.data().objects)).toHaveLength(5);
  });

  test("a resource deleted with the replaced one is replaced too, without a Delete call of its own", async () => {
    const program = (key: string) => () => {
      const root = new Item("root", { name: "root", uniqueKey: key });
      new Item("part", { name: "part", value: pulumi.output("fixed") }, { deletedWith: root });
    };
    await engine.up(program("k1"));
    const journalStart = backend.mutations().length;
    const result = await engine.up(program("k2"));
    expect(result.errors).toEqual([]);
    expect(backend.mutations().slice(journalStart)).toEqual(["delete root", "create root", "create part"]);
    expect(result.steps.replace.map((s) => [s.name, s.deleteBeforeReplace])).toEqual([
      ["root", true],
      ["part", true],
    ]);
  });
});
