/**
 * A preview refuses what the up would refuse (issue 22): a pull request must not show a clean plan that
 * `pulumi preview` rejects. Protected deletes and replacements (step.go, DeleteStep.Apply and
 * deleteProtectedError; step_generator.go, the protect check before a replacement), and the import option
 * (step.go, ImportStep.Apply has no preview branch).
 */
import type { Engine } from "../../engine-stand-in";
import { Item } from "./fixtures/item-resource";
import { ItemBackend, useItemEngine } from "./fixtures/item-fixture";

let backend: ItemBackend;
let engine: Engine;
useItemEngine((fresh) => ({ backend, engine } = fresh));

describe("preview strictness", () => {
  test("every protected resource the program dropped fails the preview, each named (TestMultipleProtectedDeletes)", async () => {
    await engine.up(() => {
      new Item("one", { name: "one" }, { protect: true });
      new Item("two", { name: "two" }, { protect: true });
      new Item("free", { name: "free" });
    });
    const preview = await engine.preview(() => undefined);
    expect(preview.ok).toBe(false);
    expect(preview.errors.map((e) => e.urn?.split("::").pop()).sort()).toEqual(["one", "two"]);
    expect(preview.errors[0].message).toContain("cannot be deleted\nbecause it is protected");
    expect(preview.steps.delete.map((s) => s.name)).toEqual(["free"]);

    // The up refuses both as well, and goes on past them (step_executor.go, cancelDueToError).
    const up = await engine.up(() => undefined);
    expect(up.errors.map((e) => e.urn?.split("::").pop()).sort()).toEqual(["one", "two"]);
    expect(backend.byName("one")).toBeDefined();
    expect(backend.byName("two")).toBeDefined();
    expect(backend.byName("free")).toBeUndefined();
  });

  test("a protected replacement fails the preview, which still shows the planned replacement", async () => {
    const program = (kind: string) => () => void new Item("held", { name: "held", kind }, { protect: true });
    await engine.up(program("a"));
    const preview = await engine.preview(program("b"));
    expect(preview.ok).toBe(false);
    expect(preview.errors[0].message).toContain("as it is currently marked for protection");
    expect(preview.steps.replace.map((s) => s.name)).toEqual(["held"]);

    const up = await engine.up(program("b"));
    expect(up.ok).toBe(false);
    expect(up.operations).toEqual([]);
    expect(backend.byName("held")!.kind).toBe("a");
  });

  test("the import option fails in preview as in up: a dynamic provider cannot read by id alone", async () => {
    await engine.up(() => void new Item("existing", { name: "existing" }));
    const id = backend.byName("existing")!.id;
    const preview = await engine.preview(() => {
      new Item("existing", { name: "existing" });
      new Item("imported", { name: "existing" }, { import: id });
    });
    expect(preview.ok).toBe(false);
    expect(preview.errors[0]).toMatchObject({ op: "import", urn: expect.stringContaining("::imported") });
  });
});
