/**
 * `--target` / `--exclude` (engine-stand-in/targets.ts; step_generator.go, isIncludedInOperation and
 * GenerateDeletes): only what the run takes part in is checked, created, updated or deleted; everything else
 * keeps its state and its object. Each test reads the store afterwards.
 */
import type { Engine } from "../../engine-stand-in";
import { Item, type ItemArgs } from "./fixtures/item-resource";
import { ItemBackend, useItemEngine } from "./fixtures/item-fixture";

let backend: ItemBackend;
let engine: Engine;
useItemEngine((fresh) => ({ backend, engine } = fresh));

type Items = Record<string, Partial<ItemArgs> & { parentOf?: string }>;

/** One Item per entry, `parentOf` naming the item whose id becomes its parentId. */
const program = (items: Items) => () => {
  const made: Record<string, Item> = {};
  for (const [name, args] of Object.entries(items)) {
    const { parentOf, ...rest } = args;
    made[name] = new Item(name, {
      name,
      ...rest,
      ...(parentOf ? { parentId: made[parentOf].id } : {}),
    });
  }
};

const stored = (name: string) => backend.byName(name);

describe("--target", () => {
  beforeEach(async () => {
    const first = await engine.up(program({ a: { value: "1" }, b: { value: "1" }, d: { value: "1" } }));
    expect(first.errors).toEqual([]);
    backend.edit((data) => (data.journal = []));
  });

  test("only the targets change: others keep state and object, new ones are not created, dropped ones stay", async () => {
    const result = await engine.up(program({ a: { value: "2" }, b: { value: "2" }, c: {} }), {
      target: ["a"],
    });
    expect(result.errors).toEqual([]);
    expect(backend.mutations()).toEqual(["update a"]);
    expect(stored("a")?.value).toBe("2");
    expect(stored("b")?.value).toBe("1");
    expect(engine.resource("b").inputs).toMatchObject({ value: "1" });
    expect(stored("c")).toBeUndefined();
    expect(
      engine
        .resources()
        .map((r) => r.name)
        .sort(),
    ).toEqual(["a", "b", "d"]);
    expect(stored("d")).toBeDefined();

    // Without --target the same program then does the rest.
    const rest = await engine.up(program({ a: { value: "2" }, b: { value: "2" }, c: {} }));
    expect(rest.errors).toEqual([]);
    expect(backend.mutations().sort()).toEqual(["create c", "delete d", "update a", "update b"]);
  });

  test("an untargeted resource is not even checked: its invalid new inputs do not fail the run", async () => {
    const result = await engine.up(
      program({ a: { value: "2" }, b: { name: "Not A Slug" } as Partial<ItemArgs> }),
      {
        target: ["a"],
      },
    );
    expect(result.errors).toEqual([]);
    expect(stored("a")?.value).toBe("2");
    expect(stored("b")?.value).toBe("1");
  });

  test("a target that needs a resource whose create was skipped fails the up before its own step", async () => {
    const result = await engine.up(program({ c: {}, a: { parentOf: "c" }, b: { value: "1" }, d: {} }), {
      target: ["a"],
    });
    expect(result.ok).toBe(false);
    expect(result.errors[0].message).toMatch(
      /^Resource '.*::a' depends on '.*::c' which was was not specified/,
    );
    expect(backend.mutations()).toEqual([]);
    // A preview reports the same and goes on.
    const preview = await engine.preview(program({ c: {}, a: { parentOf: "c" }, b: { value: "1" }, d: {} }), {
      target: ["a"],
    });
    expect(preview.ok).toBe(false);
    expect(preview.errors.map((e) => e.message)).toEqual([
      expect.stringContaining("was not specified in --target"),
    ]);
  });

  test("a dropped target is deleted; a dropped dependent of it needs --target-dependents", async () => {
    await engine.up(program({ a: {}, b: {}, d: {}, child: { parentOf: "d" } }));
    backend.edit((data) => (data.journal = []));

    const refused = await engine.up(program({ a: {}, b: {} }), { target: ["d"] });
    expect(refused.ok).toBe(false);
    expect(refused.errors).toEqual([
      expect.objectContaining({
        op: "delete",
        message: expect.stringContaining(
          "::child' will be destroyed but was not specified in --target list.",
        ),
      }),
    ]);
    expect(backend.mutations()).toEqual([]);

    const both = await engine.up(program({ a: {}, b: {} }), { target: ["d"], targetDependents: true });
    expect(both.errors).toEqual([]);
    expect(backend.mutations()).toEqual(["delete child", "delete d"]);
    expect(engine.resources().map((r) => r.name)).toEqual(["a", "b"]);
  });

  test("--target-dependents takes in what depends on a target", async () => {
    await engine.up(program({ a: { value: "1" }, child: { parentOf: "a", value: "1" }, b: { value: "1" } }));
    backend.edit((data) => (data.journal = []));
    const result = await engine.up(
      program({ a: { value: "2" }, child: { parentOf: "a", value: "2" }, b: { value: "2" } }),
      { target: ["a"], targetDependents: true },
    );
    expect(result.errors).toEqual([]);
    expect(backend.mutations().sort()).toEqual(["update a", "update child"]);
  });

  test("--replace of an untargeted resource does nothing", async () => {
    const ids = { a: stored("a")!.id, b: stored("b")!.id };
    const result = await engine.up(program({ a: { value: "1" }, b: { value: "1" }, d: { value: "1" } }), {
      target: ["a"],
      replace: ["b"],
    });
    expect(result.errors).toEqual([]);
    expect(backend.mutations()).toEqual([]);
    expect(stored("b")!.id).toBe(ids.b);
  });

  test("an unknown target fails the run before any step, with the engine's text", async () => {
    const result = await engine.up(program({ a: { value: "2" }, b: { value: "1" }, d: {} }), {
      target: ["nope"],
    });
    expect(result.ok).toBe(false);
    expect(result.errors[0].message).toContain("Target 'nope' could not be found in the stack.");
    expect(backend.mutations()).toEqual([]);
  });

  test("destroy --target deletes the target only", async () => {
    const result = await engine.destroy({ target: ["b"] });
    expect(result.errors).toEqual([]);
    expect(backend.mutations()).toEqual(["delete b"]);
    expect(engine.resources().map((r) => r.name)).toEqual(["a", "d"]);
  });
});

describe("--exclude", () => {
  beforeEach(async () => {
    await engine.up(program({ a: { value: "1" }, b: { value: "1" }, d: {} }));
    backend.edit((data) => (data.journal = []));
  });

  test("the excluded resource keeps state and object; a dropped excluded one is not deleted", async () => {
    const result = await engine.up(program({ a: { value: "2" }, b: { value: "2" } }), {
      exclude: ["b", "d"],
    });
    expect(result.errors).toEqual([]);
    expect(backend.mutations()).toEqual(["update a"]);
    expect(stored("b")?.value).toBe("1");
    expect(stored("d")).toBeDefined();
    expect(
      engine
        .resources()
        .map((r) => r.name)
        .sort(),
    ).toEqual(["a", "b", "d"]);
  });

  test("--exclude-dependents leaves out what depends on an excluded resource", async () => {
    await engine.up(program({ a: { value: "1" }, child: { parentOf: "a", value: "1" }, b: { value: "1" } }));
    backend.edit((data) => (data.journal = []));
    const result = await engine.up(
      program({ a: { value: "2" }, child: { parentOf: "a", value: "2" }, b: { value: "2" } }),
      { exclude: ["a"], excludeDependents: true },
    );
    expect(result.errors).toEqual([]);
    expect(backend.mutations()).toEqual(["update b"]);
  });
});

describe("refresh --target / --exclude (deployment_executor.go, refresh)", () => {
  beforeEach(async () => {
    await engine.up(program({ a: { value: "1" }, child: { parentOf: "a", value: "1" }, b: { value: "1" } }));
    // Every object drifts behind the provider's back.
    backend.edit((data) => {
      Object.values(data.objects).forEach((o) => (o.value = "outside"));
      data.journal = [];
    });
  });

  const reads = () =>
    backend
      .data()
      .journal.filter((e) => e.op === "read")
      .map((e) => e.name)
      .sort();
  const stateValue = (name: string) => engine.resource(name).outputs.value;

  test("--target reads only the targets; the others keep their state", async () => {
    const result = await engine.refresh({ target: ["a"] });
    expect(result.errors).toEqual([]);
    expect(reads()).toEqual(["a"]);
    expect(result.steps.update.map((s) => s.name)).toEqual(["a"]);
    expect([stateValue("a"), stateValue("child"), stateValue("b")]).toEqual(["outside", "1", "1"]);
  });

  test("--target-dependents reads what depends on a target too", async () => {
    const result = await engine.refresh({ target: ["a"], targetDependents: true });
    expect(result.errors).toEqual([]);
    expect(reads()).toEqual(["a", "child"]);
    expect(stateValue("b")).toBe("1");
  });

  test("--exclude reads all but the excluded; --exclude-dependents leaves out their dependents", async () => {
    expect((await engine.refresh({ exclude: ["a"] })).errors).toEqual([]);
    expect(reads()).toEqual(["b", "child"]);
    expect(stateValue("a")).toBe("1");
    backend.edit((data) => (data.journal = []));
    expect((await engine.refresh({ exclude: ["b"], excludeDependents: true })).errors).toEqual([]);
    expect(reads()).toEqual(["a", "child"]);
  });

  test("an unknown --target or --exclude fails the refresh before any read, with the engine's text", async () => {
    for (const options of [{ target: ["a", "nope"] }, { exclude: ["nope"] }]) {
      const result = await engine.refresh(options);
      expect(result.ok).toBe(false);
      expect(result.errors).toEqual([
        {
          op: "register",
          message: "Target 'nope' could not be found in the stack. Did you forget to escape $ in your shell?",
        },
      ]);
      expect(reads()).toEqual([]);
      expect(stateValue("a")).toBe("1");
    }
  });

  test("a gone resource that is not a target stays; when targeted, it goes and its dependent is repaired", async () => {
    backend.edit((data) => {
      const a = Object.values(data.objects).find((o) => o.name === "a")!;
      delete data.objects[a.id];
    });
    const { urn: aUrn, id: aId } = engine.resource("a");
    expect((await engine.refresh({ target: ["child"] })).errors).toEqual([]);
    expect(engine.resource("a").id).toBeDefined();
    expect(engine.resource("child").dependencies).toEqual([aUrn]);

    backend.edit((data) => (data.journal = []));
    const targeted = await engine.refresh({ target: ["a"] });
    expect(targeted.steps.delete.map((s) => s.name)).toEqual(["a"]);
    expect(engine.resources().map((r) => r.name)).not.toContain("a");
    // The child was not read, and is repaired all the same (rebuildBaseState walks every resource).
    expect(reads()).toEqual([aId]); // the store journals a read of a missing object by its id
    expect(engine.resource("child").dependencies).toEqual([]);
  });

  test("up --refresh --target refreshes and updates only the targets", async () => {
    const declared = program({ a: { value: "1" }, child: { parentOf: "a", value: "1" }, b: { value: "1" } });
    const result = await engine.up(declared, { refresh: true, target: ["b"] });
    expect(result.errors).toEqual([]);
    expect(reads()).toEqual(["b"]);
    expect(result.steps.update.map((s) => s.name)).toEqual(["b"]);
    expect(backend.mutations()).toEqual(["update b"]);
    expect(backend.byName("a")!.value).toBe("outside");
    expect(backend.byName("b")!.value).toBe("1");
  });

  test("up --refresh --target of a resource not yet in the stack fails in the refresh (checkTargets before the program)", async () => {
    const result = await engine.up(program({ a: { value: "1" }, fresh: {} }), {
      refresh: true,
      target: ["fresh"],
    });
    expect(result.ok).toBe(false);
    expect(result.errors[0].message).toContain("Target 'fresh' could not be found in the stack.");
    expect(backend.mutations()).toEqual([]);
    expect(backend.byName("fresh")).toBeUndefined();
  });
});

test("--target with --exclude is refused before anything runs, as the CLI refuses the flags together", async () => {
  await engine.up(program({ a: { value: "1" } }));
  backend.edit((data) => (data.journal = []));
  const message =
    "if any flags in the group [target exclude] are set none of the others can be; [exclude target] were all set";
  await expect(engine.up(program({ a: { value: "2" } }), { target: ["a"], exclude: ["b"] })).rejects.toThrow(
    message,
  );
  await expect(engine.refresh({ target: ["a"], exclude: ["b"] })).rejects.toThrow(message);
  expect(backend.data().journal).toEqual([]);
  expect(backend.byName("a")!.value).toBe("1");
  // The engine is free for the next operation.
  expect((await engine.up(program({ a: { value: "2" } }))).errors).toEqual([]);
});
