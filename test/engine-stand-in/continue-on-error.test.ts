/**
 * `pulumi up --continue-on-error` (pkg/resource/deploy/step_executor.go, cancelDueToError;
 * deployment_executor.go, handleSingleEvent and performPostSteps): a failed create, update or delete is
 * recorded and the deployment goes on; what depends on the failed resource is skipped and keeps its old state;
 * the deletes at the end still run, except of what a failed or skipped resource depends on.
 */
import { Item } from "./fixtures/item-resource";
import { ItemBackend, useItemEngine } from "./fixtures/item-fixture";
import type { Engine } from "../../engine-stand-in";

let backend: ItemBackend;
let engine: Engine;
useItemEngine((fresh) => ({ backend, engine } = fresh));

describe("--continue-on-error (step_executor.go, cancelDueToError)", () => {
  test("a failed create: the other steps run, dependents are skipped, the program fails, nothing is deleted", async () => {
    await engine.up(() => {
      new Item("gone", { name: "gone" });
    });
    const program = () => {
      const broken = new Item("broken", { name: "broken", failOn: "create" });
      new Item("child", { name: "child", parentId: broken.id });
      new Item("fine", { name: "fine" });
    };
    const result = await engine.up(program, { continueOnError: true });

    expect(result.ok).toBe(false);
    expect(result.errors[0]).toMatchObject({ op: "create", urn: expect.stringContaining("broken") });
    // The SDK rejects the failed resource's outputs (Result FAIL); unhandled, they fail the program as the
    // language host reports them (sdk/nodejs/cmd/run/run.ts, uncaughtHandler), and the engine then bails before
    // its deletes (deployment_executor.go, Execute).
    expect(result.errors[1]).toMatchObject({
      op: "program",
      message: expect.stringContaining("failed to register"),
    });
    expect(backend.byName("fine")).toBeDefined();
    expect(backend.byName("child")).toBeUndefined();
    expect(backend.byName("gone")).toBeDefined();
    expect(result.steps.delete).toEqual([]);
    expect(
      engine
        .resources()
        .map((r) => r.name)
        .sort(),
    ).toEqual(["fine", "gone"]);
  });

  test("without the flag the same failure stops the run before any delete", async () => {
    await engine.up(() => {
      new Item("gone", { name: "gone" });
    });
    const result = await engine.up(() => {
      new Item("broken", { name: "broken", failOn: "create" });
      new Item("fine", { name: "fine" });
    });
    expect(result.ok).toBe(false);
    expect(backend.byName("gone")).toBeDefined();
    expect(result.steps.delete).toEqual([]);
  });

  test("a failed update keeps the old state, and the replaced resource it depends on is not deleted", async () => {
    const program = (kind: string, failOn?: "update") => () => {
      const parent = new Item("parent", { name: "parent", kind });
      new Item("child", { name: "child", parentId: parent.id, note: failOn ?? "ok", failOn });
    };
    await engine.up(program("a"));
    const oldParent = backend.byName("parent")!;
    const before = engine.resource("child");

    // parent is replaced (create first); child's update to the new parent fails; the old parent, which the
    // child still depends on, is not deleted (performPostSteps, erroredDeps).
    const result = await engine.up(program("b", "update"), { continueOnError: true });
    expect(result.ok).toBe(false);
    expect(result.errors[0]).toMatchObject({ op: "update", urn: before.urn });
    expect(backend.data().objects[oldParent.id]).toBeDefined();
    expect(backend.mutations()).not.toContain("delete parent");
    expect(engine.resource("child").inputs).toEqual(before.inputs);
  });

  test("a failed delete does not stop the other deletes", async () => {
    await engine.up(() => {
      const parent = new Item("parent", { name: "parent" });
      new Item("orphan", { name: "orphan" });
      return { parentId: parent.id };
    });
    // A child made behind the engine's back: the store refuses to delete a parent that has children.
    const parentId = engine.resource("parent").id!;
    backend.edit((data) => {
      data.objects["outside"] = { id: "outside", name: "outside", parentId, revision: 1 };
    });
    const result = await engine.up(() => undefined, { continueOnError: true });
    expect(result.errors).toEqual([
      expect.objectContaining({ op: "delete", urn: expect.stringContaining("parent") }),
    ]);
    expect(backend.byName("orphan")).toBeUndefined();
    expect(backend.byName("parent")).toBeDefined();
    expect(engine.resources().map((r) => r.name)).toEqual(["parent"]);
  });
});
