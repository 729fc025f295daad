/**
 * The engine behaviours that decide whether a live object survives ordinary operations, each checked against
 * the stand-in with the Item fixture. Every test names the pulumi/pulumi source it follows.
 */
import * as os from "os";
import * as pulumi from "@pulumi/pulumi";
import { DEFAULT_PARALLELISM, Engine } from "../../emulator/engine";
import { deletionAntichains } from "../../emulator/engine/schedule";
import type { StateEntry } from "../../emulator/engine/types";
import { Item } from "./fixtures/item-resource";
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
});

describe("scheduling", () => {
  test("default parallelism is the CLI's: 4 x CPUs (pkg/cmd/pulumi/operations/up.go)", () => {
    expect(DEFAULT_PARALLELISM).toBe(4 * os.availableParallelism());
  });

  test("deletions run in antichains, dependents first (step_generator.go, ScheduleDeletes)", () => {
    const entry = (urn: string, dependencies: string[] = [], parent?: string): StateEntry => ({
      urn,
      type: "t",
      name: urn,
      custom: true,
      ...(parent ? { parent } : {}),
      inputs: {},
      outputs: {},
      dependencies,
      propertyDependencies: {},
      options: {
        protect: false,
        ignoreChanges: [],
        replaceOnChanges: [],
        additionalSecretOutputs: [],
        retainOnDelete: false,
      },
    });
    const root = entry("root");
    const child = entry("child", [], "root");
    const leaf = entry("leaf", ["child"]);
    const loner = entry("loner");
    const chains = deletionAntichains([root, child, leaf, loner]).map((c) => c.map((e) => e.urn).sort());
    expect(chains).toEqual([["leaf"], ["child"], ["loner", "root"]]);
  });
});
