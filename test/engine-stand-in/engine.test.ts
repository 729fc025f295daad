import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { Engine, UNKNOWN } from "../../engine-stand-in";
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

/** parent <- child (child.parentId = parent.id), plus an independent item. */
function family(values: { parent?: string; kind?: string } = {}) {
  return () => {
    const parent = new Item("parent", { name: "parent", value: values.parent ?? "v1", kind: values.kind });
    const child = new Item("child", { name: "child", parentId: parent.id });
    const loner = new Item("loner", { name: "loner" });
    return { parentId: parent.id, childParent: child.parentId, lonerRevision: loner.revision };
  };
}

describe("up", () => {
  test("creates every resource, dependents after their dependencies, and returns the outputs", async () => {
    const result = await engine.up(family());

    expect(result.errors).toEqual([]);
    expect(names(result.steps.create).sort()).toEqual(["child", "loner", "parent"]);
    const parent = backend.byName("parent");
    expect(backend.byName("child")?.parentId).toBe(parent?.id);
    expect(result.outputs).toEqual({ parentId: parent?.id, childParent: parent?.id, lonerRevision: 1 });
    const creates = backend.mutations();
    expect(creates.indexOf("create parent")).toBeLessThan(creates.indexOf("create child"));
    expect(engine.resource("child").dependencies).toEqual([engine.resource("parent").urn]);
    expect(engine.resource("parent").urn).toBe(
      "urn:pulumi:test::test-project::pulumi-nodejs:dynamic/fixture:Item::parent",
    );
  });

  test("a second up of the same program calls no create, update or delete", async () => {
    await engine.up(family());
    const before = backend.mutations();

    const again = await engine.up(family());

    expect(again.errors).toEqual([]);
    expect(names(again.steps.same).sort()).toEqual(["child", "loner", "parent"]);
    expect(again.steps.create).toEqual([]);
    expect(again.operations).toEqual([]);
    expect(backend.mutations()).toEqual(before);
  });

  test("a changed input updates that resource only, reporting the changed key", async () => {
    await engine.up(family());

    const result = await engine.up(family({ parent: "v2" }));

    expect(result.errors).toEqual([]);
    expect(result.steps.update).toHaveLength(1);
    expect(result.steps.update[0]).toMatchObject({ name: "parent", changedKeys: ["value"] });
    expect(names(result.steps.same).sort()).toEqual(["child", "loner"]);
    expect(backend.byName("parent")).toMatchObject({ value: "v2", revision: 2 });
    expect(engine.resource("parent").outputs).toMatchObject({ value: "v2", revision: 2 });
  });

  test("a replacement creates the new resource, updates its dependents, then deletes the old one", async () => {
    await engine.up(family({ kind: "a" }));
    const oldId = backend.byName("parent")?.id;

    const result = await engine.up(family({ kind: "b" }));

    expect(result.errors).toEqual([]);
    const newId = backend.byName("parent")?.id;
    expect(newId).not.toBe(oldId);
    expect(result.steps.replace).toEqual([
      expect.objectContaining({
        name: "parent",
        id: newId,
        oldId,
        replaceKeys: ["kind"],
        deleteBeforeReplace: false,
      }),
    ]);
    // The store refuses to delete a parent that still has children: the child moved first.
    expect(result.operations.map((o) => `${o.op} ${o.urn.split("::").pop()} ${o.id}`)).toEqual([
      `create parent ${newId}`,
      `update child ${backend.byName("child")?.id}`,
      `delete parent ${oldId}`,
    ]);
    expect(result.steps.delete).toEqual([]);
    expect(engine.resources().filter((r) => r.name === "parent")).toHaveLength(1);
  });

  test("a replacement the provider marks delete-before-replace deletes the old resource first", async () => {
    const program = (key: string) => () => {
      new Item("holder", { name: "holder", uniqueKey: key });
    };
    await engine.up(program("k1"));
    const oldId = backend.byName("holder")?.id;

    const result = await engine.up(program("k2"));

    expect(result.errors).toEqual([]);
    expect(result.steps.replace[0]).toMatchObject({ name: "holder", deleteBeforeReplace: true, oldId });
    expect(result.operations.map((o) => o.op)).toEqual(["delete", "create"]);
    expect(backend.byName("holder")).toMatchObject({ uniqueKey: "k2" });
  });

  test("the deleteBeforeReplace option decides whether a replacement may hold the same unique key", async () => {
    const program = (kind: string, deleteBeforeReplace: boolean) => () => {
      new Item("holder", { name: "holder", uniqueKey: "k", kind }, { deleteBeforeReplace });
    };
    await engine.up(program("a", false));
    const firstId = backend.byName("holder")?.id;

    // Create-before-delete: the new item clashes with the old one's key; the old one stays.
    const clash = await engine.up(program("b", false));
    expect(clash.ok).toBe(false);
    expect(clash.errors[0]).toMatchObject({ op: "create", message: expect.stringContaining("already held") });
    expect(engine.resource("holder").id).toBe(firstId);
    expect(backend.byName("holder")?.id).toBe(firstId);

    const dbr = await engine.up(program("b", true));
    expect(dbr.errors).toEqual([]);
    expect(dbr.operations.map((o) => o.op)).toEqual(["delete", "create"]);
    expect(backend.byName("holder")).toMatchObject({ kind: "b" });
    expect(engine.resource("holder").id).toBe(backend.byName("holder")?.id);
  });

  test("resources dropped from the program are deleted after it, in reverse dependency order", async () => {
    await engine.up(() => {
      const a = new Item("a", { name: "a" });
      const b = new Item("b", { name: "b", parentId: a.id });
      new Item("c", { name: "c", parentId: b.id });
      new Item("keep", { name: "keep" });
    });

    const result = await engine.up(() => {
      new Item("keep", { name: "keep" });
    });

    expect(result.errors).toEqual([]);
    expect(names(result.steps.delete)).toEqual(["c", "b", "a"]);
    expect(backend.mutations().slice(-3)).toEqual(["delete c", "delete b", "delete a"]);
    expect(engine.resources().map((r) => r.name)).toEqual(["keep"]);
  });

  test("a check failure fails the update with the property and reason, and creates nothing", async () => {
    const result = await engine.up(() => {
      new Item("bad", { name: "Not A Slug" });
    });

    expect(result.ok).toBe(false);
    expect(result.errors).toEqual([
      {
        urn: expect.stringMatching(/::bad$/),
        op: "check",
        message: expect.stringContaining("property name has a problem"),
        failures: [{ property: "name", reason: '"Not A Slug" is not a lower-case slug' }],
      },
    ]);
    expect(backend.mutations()).toEqual([]);
    expect(engine.resources()).toEqual([]);
  });

  test("a failed create stops the update: dependents never start, nothing is deleted, state stays true", async () => {
    await engine.up(() => {
      new Item("old", { name: "old" });
    });

    const result = await engine.up(() => {
      const broken = new Item("broken", { name: "broken", failOn: "create" });
      new Item("dependent", { name: "dependent", parentId: broken.id });
    });

    expect(result.ok).toBe(false);
    expect(result.errors).toEqual([
      { urn: expect.stringMatching(/::broken$/), op: "create", message: "item broken: create rejected" },
    ]);
    expect(backend.byName("dependent")).toBeUndefined();
    expect(backend.byName("old")).toBeDefined();
    expect(engine.resources().map((r) => r.name)).toEqual(["old"]);
  });

  test("a resource that failed to initialize is kept in the state and updated by the next up", async () => {
    const failed = await engine.up(() => {
      new Item("flaky", { name: "flaky", failOn: "init" });
    });

    expect(failed.ok).toBe(false);
    expect(failed.errors[0]).toMatchObject({
      op: "create",
      message: "item flaky: created but failed to initialize",
    });
    const recorded = engine.resource("flaky");
    expect(recorded.id).toBe(backend.byName("flaky")?.id);
    expect(recorded.initErrors).toEqual(["initialization failed"]);

    const healed = await engine.up(() => {
      new Item("flaky", { name: "flaky" });
    });

    expect(healed.errors).toEqual([]);
    expect(names(healed.steps.update)).toEqual(["flaky"]);
    expect(healed.steps.create).toEqual([]);
    expect(engine.resource("flaky").initErrors).toBeUndefined();
    expect(backend.byName("flaky")?.revision).toBe(2);
  });

  test("components parent their children in URNs, and children are deleted before their component", async () => {
    class Bundle extends pulumi.ComponentResource {
      constructor(name: string) {
        super("fixture:index:Bundle", name);
        new Item(`${name}-one`, { name: `${name}-one` }, { parent: this });
        new Item(`${name}-two`, { name: `${name}-two` }, { parent: this });
        this.registerOutputs({});
      }
    }
    const created = await engine.up(() => {
      new Bundle("kit");
    });
    expect(created.errors).toEqual([]);
    expect(names(created.steps.create).sort()).toEqual(["kit", "kit-one", "kit-two"]);
    expect(engine.resource("kit-one").urn).toBe(
      "urn:pulumi:test::test-project::fixture:index:Bundle$pulumi-nodejs:dynamic/fixture:Item::kit-one",
    );

    const removed = await engine.up(() => {});

    expect(removed.errors).toEqual([]);
    expect(names(removed.steps.delete).pop()).toBe("kit");
    expect(engine.resources()).toEqual([]);
    expect(backend.data().objects).toEqual({});
  });
});

describe("resource options", () => {
  test("ignoreChanges keeps the old value; replaceOnChanges does nothing for a dynamic resource", async () => {
    const program = (value: string, opts: pulumi.CustomResourceOptions) => () => {
      new Item("opt", { name: "opt", value }, opts);
    };
    await engine.up(program("one", {}));

    const ignored = await engine.up(program("two", { ignoreChanges: ["value"] }));
    expect(names(ignored.steps.same)).toEqual(["opt"]);
    expect(backend.byName("opt")?.value).toBe("one");

    // The dynamic provider's Diff reports no changed keys, so the engine's applyReplaceOnChanges
    // (pkg/resource/deploy/step_generator.go) has nothing to turn into a replacement: an update.
    const before = backend.byName("opt")?.id;
    const updated = await engine.up(program("three", { replaceOnChanges: ["value"] }));
    expect(updated.steps.replace).toEqual([]);
    expect(names(updated.steps.update)).toEqual(["opt"]);
    expect(backend.byName("opt")).toMatchObject({ id: before, value: "three" });
  });

  test("protect refuses the deletion; retainOnDelete forgets the resource without deleting it", async () => {
    await engine.up(() => {
      new Item("guarded", { name: "guarded" }, { protect: true });
      new Item("kept", { name: "kept" }, { retainOnDelete: true });
    });

    const refused = await engine.up(() => {
      new Item("kept", { name: "kept" }, { retainOnDelete: true });
    });
    expect(refused.ok).toBe(false);
    expect(refused.errors[0]).toMatchObject({ op: "delete", message: expect.stringContaining("protected") });
    expect(engine.resource("guarded").id).toBe(backend.byName("guarded")?.id);

    const released = await engine.up(() => {
      new Item("guarded", { name: "guarded" });
    });
    expect(released.errors).toEqual([]);
    expect(engine.resources().map((r) => r.name)).toEqual(["guarded"]);
    expect(backend.byName("kept")).toBeDefined();
  });
});

describe("preview", () => {
  test("plans creates, updates and deletes with check and diff only, leaving state and store alone", async () => {
    await engine.up(() => {
      new Item("stays", { name: "stays", value: "1" });
      new Item("goes", { name: "goes" });
    });
    const stateBefore = engine.resources();
    const journalBefore = backend.data().journal;

    const plan = await engine.preview(() => {
      const stays = new Item("stays", { name: "stays", value: "2" });
      const fresh = new Item("fresh", { name: "fresh", parentId: stays.id });
      return { freshId: fresh.id, freshParent: fresh.parentId, staysRevision: stays.revision };
    });

    expect(plan.errors).toEqual([]);
    expect(plan.steps.update).toEqual([expect.objectContaining({ name: "stays", changedKeys: ["value"] })]);
    expect(names(plan.steps.create)).toEqual(["fresh"]);
    expect(names(plan.steps.delete)).toEqual(["goes"]);
    expect(plan.operations).toEqual([]);
    expect(plan.outputs).toEqual({
      freshId: UNKNOWN,
      freshParent: backend.byName("stays")?.id,
      staysRevision: UNKNOWN,
    });
    expect(backend.data().journal).toEqual(journalBefore);
    expect(engine.resources()).toEqual(stateBefore);
  });
});

describe("refresh", () => {
  test("reads drift into the state and drops resources that vanished; up then restores them", async () => {
    const program = () => {
      new Item("drifty", { name: "drifty", value: "declared" });
      new Item("doomed", { name: "doomed" });
    };
    await engine.up(program);
    const doomedId = backend.byName("doomed")?.id ?? "";
    backend.edit((data) => {
      const drifty = Object.values(data.objects).find((o) => o.name === "drifty");
      if (drifty) {
        drifty.value = "edited by hand";
      }
      delete data.objects[doomedId];
    });

    const refreshed = await engine.refresh();

    expect(refreshed.errors).toEqual([]);
    expect(refreshed.steps.update).toEqual([
      expect.objectContaining({ name: "drifty", changedKeys: ["value"] }),
    ]);
    expect(refreshed.steps.delete).toEqual([expect.objectContaining({ name: "doomed", id: doomedId })]);
    expect(refreshed.operations.map((o) => o.op)).toEqual(["read", "read"]);
    expect(engine.resource("drifty").inputs.value).toBe("edited by hand");
    expect(engine.resources().map((r) => r.name)).toEqual(["drifty"]);

    const restored = await engine.up(program);
    expect(names(restored.steps.update)).toEqual(["drifty"]);
    expect(names(restored.steps.create)).toEqual(["doomed"]);
    expect(backend.byName("drifty")?.value).toBe("declared");
  });
});

describe("destroy", () => {
  test("deletes everything in reverse dependency order and empties the state", async () => {
    await engine.up(family());

    const result = await engine.destroy();

    expect(result.errors).toEqual([]);
    expect(names(result.steps.delete).sort()).toEqual(["child", "loner", "parent"]);
    const deletes = backend.mutations().filter((m) => m.startsWith("delete"));
    expect(deletes.indexOf("delete child")).toBeLessThan(deletes.indexOf("delete parent"));
    expect(backend.data().objects).toEqual({});
    expect(engine.resources()).toEqual([]);
  });
});

describe("secrets", () => {
  test("secret config reaches Configure; secrets stay secret and never reach the checkpoint in plain text", async () => {
    const noteText = "note-that-must-stay-hidden";
    const result = await engine.up(() => {
      const item = new Item("s", { name: "s", note: pulumi.secret(noteText), value: "public" });
      return { note: item.note, value: item.value };
    });

    // The store only answers a provider configured with its token, sent as secret config.
    expect(result.errors).toEqual([]);
    expect(result.outputs).toEqual({ note: noteText, value: "public" });
    expect(result.secretOutputs).toEqual(["note"]);
    expect(engine.resource("s")).toMatchObject({ secretInputs: ["note"], secretOutputs: ["note"] });

    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "engine-stand-in-state-")), "state.json");
    await engine.saveState(file);
    const saved = fs.readFileSync(file, "utf8");
    expect(saved).not.toContain(noteText);
    expect(saved).not.toContain(backend.token);
    const resources = JSON.parse(saved).deployment.resources as Array<{
      type: string;
      outputs: Record<string, never>;
    }>;
    const item = resources.find((r) => r.type === "pulumi-nodejs:dynamic/fixture:Item");
    const envelope = item?.outputs.note as unknown as { ciphertext: string };
    expect(envelope).toEqual({
      "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
      ciphertext: expect.any(String),
    });
    expect(engine.decryptSecret(envelope.ciphertext)).toBe(noteText);
    expect(item?.outputs.value).toBe("public");

    expect(engine.stderr()).toContain("item provider configured");
    expect(engine.stderr()).not.toContain(backend.token);
  });

  test("a provider configured with the wrong token fails, and the token is in no message", async () => {
    const wrong = await engines.create(
      backend.engineOptions({ secretConfig: { "fixture:token": "wrong-token-123" } }),
    );

    const result = await wrong.up(() => {
      new Item("x", { name: "x" });
    });

    expect(result.ok).toBe(false);
    expect(result.errors[0].message).toContain("unauthorized");
    expect(JSON.stringify(result)).not.toContain("wrong-token-123");
  });

  test("additionalSecretOutputs makes an output secret", async () => {
    const result = await engine.up(() => {
      const item = new Item("a", { name: "a", value: "sensitive" }, { additionalSecretOutputs: ["value"] });
      return { value: item.value };
    });

    expect(result.secretOutputs).toEqual(["value"]);
    expect(engine.resource("a")).toMatchObject({ secretInputs: [], secretOutputs: ["value"] });
    const checkpoint = engine.checkpoint() as {
      deployment: { resources: Array<{ type: string; outputs: { value?: unknown } }> };
    };
    const [stack, item] = checkpoint.deployment.resources.filter(
      (r) => !r.type.startsWith("pulumi:providers:"),
    );
    expect(item.outputs.value).toEqual(expect.objectContaining({ ciphertext: expect.any(String) }));
    expect(stack.outputs.value).toEqual(expect.objectContaining({ ciphertext: expect.any(String) }));
  });
});

describe("runs and plugin processes", () => {
  test("runs are isolated: per-run config and preview mode do not leak into the next run", async () => {
    const program = () => {
      const config = new pulumi.Config("fixture");
      const item = new Item("cfg", { name: "cfg", value: config.require("label") });
      return { label: config.require("label"), dryRun: pulumi.runtime.isDryRun(), value: item.value };
    };

    const preview = await engine.preview(program, { config: { "fixture:label": "one" } });
    const up = await engine.up(program, { config: { "fixture:label": "two" } });
    const missing = await engine.up(program);

    expect(preview.outputs).toEqual({ label: "one", dryRun: true, value: "one" });
    expect(up.outputs).toEqual({ label: "two", dryRun: false, value: "two" });
    expect(missing.ok).toBe(false);
    expect(missing.errors[0]).toMatchObject({
      op: "program",
      message: expect.stringContaining("fixture:label"),
    });
  });

  test("every operation starts its own plugin process, as every CLI command does", async () => {
    const program = () => {
      new Item("p", { name: "p" });
    };
    const configured = () => engine.stderr().split("item provider configured").length - 1;

    await engine.up(program);
    await engine.up(program);
    await engine.refresh();
    expect(configured()).toBe(3);

    // A run's own environment reaches its plugin only; restartPlugin's env stays for the runs after it.
    await engine.up(program, { env: { ITEM_PROVIDER_LABEL: "one-off" } });
    expect(engine.stderr()).toContain("(one-off)");
    await engine.restartPlugin({ env: { ITEM_PROVIDER_LABEL: "upgraded" } });
    await engine.up(program);
    expect(engine.stderr()).toContain("(upgraded)");
    expect(configured()).toBe(5);
  });

  test("parallelism bounds how many steps run at once", async () => {
    const program = (gate: number) => () => {
      for (const name of ["p1", "p2", "p3", "p4"]) {
        new Item(name, { name, gate });
      }
    };

    // Each create waits until `gate` creates have started: all four must be able to run together.
    const wide = await engine.up(program(4));
    expect(wide.errors).toEqual([]);
    expect(backend.data().creating.max).toBe(4);

    const narrowBackend = newItemBackend();
    const narrow = await engines.create(narrowBackend.engineOptions({ parallelism: 2 }));
    const bounded = await narrow.up(program(2));
    expect(bounded.errors).toEqual([]);
    expect(narrowBackend.data().creating.max).toBe(2);
  });
});
