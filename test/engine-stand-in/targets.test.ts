/**
 * Targets of a run (pkg/resource/deploy/deployment_executor.go, checkTargets): a `--replace` target that names
 * no resource of the stack fails the run before any step, with the engine's text.
 */
import type { Engine } from "../../engine-stand-in";
import { Item } from "./fixtures/item-resource";
import { ItemBackend, useItemEngine } from "./fixtures/item-fixture";

let backend: ItemBackend;
let engine: Engine;
useItemEngine((fresh) => ({ backend, engine } = fresh));

const program = (value: string) => () => {
  new Item("kept", { name: "kept", value });
};

describe("--replace targets (deployment_executor.go, checkTargets)", () => {
  test("an unknown target fails the up before any step; nothing changes", async () => {
    await engine.up(program("one"));
    const id = backend.byName("kept")!.id;
    const result = await engine.up(program("two"), { replace: ["kpet"] });
    expect(result.ok).toBe(false);
    expect(result.errors).toEqual([
      {
        op: "register",
        message: "Target 'kpet' could not be found in the stack. Did you forget to escape $ in your shell?",
      },
    ]);
    expect(result.operations).toEqual([]);
    expect(backend.byName("kept")).toMatchObject({ id, value: "one" });
    expect(engine.resource("kept").inputs).toMatchObject({ value: "one" });
  });

  test("a preview with an unknown target fails too", async () => {
    await engine.up(program("one"));
    const result = await engine.preview(program("one"), {
      replace: ["urn:pulumi:test::test-project::x$y::z"],
    });
    expect(result.ok).toBe(false);
    expect(result.errors[0].message).toBe(
      "Target 'urn:pulumi:test::test-project::x$y::z' could not be found in the stack.",
    );
  });

  test("a known target is replaced", async () => {
    await engine.up(program("one"));
    const id = backend.byName("kept")!.id;
    const result = await engine.up(program("one"), { replace: ["kept"] });
    expect(result.errors).toEqual([]);
    expect(result.steps.replace.map((s) => s.name)).toEqual(["kept"]);
    expect(backend.byName("kept")!.id).not.toBe(id);
  });
});
