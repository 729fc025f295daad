/**
 * The refresh's repair after a resource is found gone (engine-stand-in/refresh.ts, rebuildBaseState;
 * pkg/resource/deploy/deployment_executor.go, rebuildBaseState and undangleParentResources): the gone resource
 * leaves the state, and what pointed at it (dependencies, property dependencies, deletedWith, parent) no longer
 * does, for `pulumi refresh` and for `up --refresh` alike. Each test reads the store afterwards.
 */
import type { Engine } from "../../engine-stand-in";
import { Item } from "./fixtures/item-resource";
import { ItemBackend, useItemEngine } from "./fixtures/item-fixture";

let backend: ItemBackend;
let engine: Engine;
useItemEngine((fresh) => ({ backend, engine } = fresh));

/** `hub`, and four items pointing at it in each way the engine repairs. */
const program = () => () => {
  const hub = new Item("hub", { name: "hub", value: "1" });
  const spoke = new Item("spoke", { name: "spoke", parentId: hub.id }); // dependency + property dependency
  new Item("after", { name: "after" }, { dependsOn: [hub, spoke] });
  new Item("withHub", { name: "with-hub" }, { deletedWith: hub });
  new Item("child", { name: "child" }, { parent: hub });
};

interface CheckpointResource {
  urn: string;
  parent?: string;
  deletedWith?: string;
  dependencies?: string[];
  propertyDependencies?: Record<string, string[]>;
}

const checkpointResources = () =>
  (engine.checkpoint() as { deployment: { resources: CheckpointResource[] } }).deployment.resources;

const byName = (name: string) => checkpointResources().find((r) => r.urn.endsWith(`::${name}`))!;

/** Deletes an object behind the provider's back (as the portal would). */
const deleteOutside = (name: string) =>
  backend.edit((data) => {
    const object = Object.values(data.objects).find((o) => o.name === name)!;
    delete data.objects[object.id];
  });

/**
 * The engine's snapshot integrity (pkg/resource/deploy/snapshot.go, VerifyIntegrity): every URN a resource
 * refers to belongs to a resource before it in the state.
 */
function expectIntegrity() {
  const seen = new Set<string>();
  for (const r of checkpointResources()) {
    const refs = [
      ...(r.dependencies ?? []),
      ...Object.values(r.propertyDependencies ?? {}).flat(),
      ...(r.deletedWith ? [r.deletedWith] : []),
      ...(r.parent ? [r.parent] : []),
    ];
    for (const ref of refs)
      expect({ resource: r.urn, refersTo: ref, known: seen.has(ref) }).toMatchObject({ known: true });
    seen.add(r.urn);
  }
}

describe("refresh after a delete outside Pulumi", () => {
  beforeEach(async () => {
    expect((await engine.up(program())).errors).toEqual([]);
  });

  test("the gone resource leaves the state and nothing points at it any more", async () => {
    const hubUrn = engine.resource("hub").urn;
    const spokeUrn = engine.resource("spoke").urn;
    expect(byName("spoke").propertyDependencies!.parentId).toEqual([hubUrn]);
    expect(byName("withHub").deletedWith).toBe(hubUrn);
    deleteOutside("hub");
    backend.edit((data) => (data.journal = []));

    const result = await engine.refresh();
    expect(result.errors).toEqual([]);
    expect(result.steps.delete.map((s) => s.name)).toEqual(["hub"]);
    expect(
      engine
        .resources()
        .map((r) => r.name)
        .sort(),
    ).toEqual(["after", "child", "spoke", "withHub"]);
    expect(byName("spoke").dependencies).toEqual([]);
    // A key left without URNs goes, as every empty key does (the engine rebuilds the map from the kept URNs).
    expect(byName("spoke").propertyDependencies).toEqual({});
    expect(byName("after").dependencies).toEqual([spokeUrn]);
    expect(byName("withHub").deletedWith).toBeUndefined();
    expect(engine.resource("withHub").options.deletedWith).toBeUndefined();
    // A parent that is gone leaves the child without one (undangleParentResources).
    expect(engine.resource("child").parent).toBeUndefined();
    expectIntegrity();
    // The refresh only read: the store still holds everything but the hub.
    expect(backend.mutations()).toEqual([]);
    expect(
      Object.values(backend.data().objects)
        .map((o) => o.name)
        .sort(),
    ).toEqual(["after", "child", "spoke", "with-hub"]);
  });

  test("the next up makes the hub again, once, and points the spoke at it; then up changes nothing", async () => {
    const spokeId = backend.byName("spoke")!.id;
    deleteOutside("hub");
    expect((await engine.refresh()).errors).toEqual([]);
    backend.edit((data) => (data.journal = []));

    const up = await engine.up(program());
    expect(up.errors).toEqual([]);
    expect(backend.mutations().sort()).toEqual(["create hub", "update spoke"]);
    const hubs = Object.values(backend.data().objects).filter((o) => o.name === "hub");
    expect(hubs).toHaveLength(1);
    expect(backend.byName("spoke")).toMatchObject({ id: spokeId, parentId: hubs[0].id });
    // The state is the program's again: dependencies, deletedWith and parent restored.
    const hubUrn = engine.resource("hub").urn;
    expect(byName("spoke").propertyDependencies!.parentId).toEqual([hubUrn]);
    expect(engine.resource("withHub").options.deletedWith).toBe(hubUrn);
    expect(engine.resource("child").parent).toBe(hubUrn);
    expectIntegrity();

    backend.edit((data) => (data.journal = []));
    const again = await engine.up(program());
    expect(again.errors).toEqual([]);
    expect(again.operations).toEqual([]);
    expect(backend.mutations()).toEqual([]);
  });

  test("up --refresh repairs before the program, makes the hub again once, and keeps the repair", async () => {
    deleteOutside("hub");
    backend.edit((data) => (data.journal = []));
    const result = await engine.up(program(), { refresh: true });
    expect(result.errors).toEqual([]);
    expect(result.refreshSteps!.delete.map((s) => s.name)).toEqual(["hub"]);
    expect(result.steps.create.map((s) => s.name)).toEqual(["hub"]);
    expect(backend.mutations().sort()).toEqual(["create hub", "update spoke"]);
    expect(Object.values(backend.data().objects).filter((o) => o.name === "hub")).toHaveLength(1);
    expect(backend.byName("spoke")!.parentId).toBe(backend.byName("hub")!.id);
    expectIntegrity();
  });

  test("preview --refresh plans the hub's create and saves neither the refresh nor the repair", async () => {
    const hubUrn = engine.resource("hub").urn;
    deleteOutside("hub");
    const result = await engine.preview(program(), { refresh: true });
    expect(result.errors).toEqual([]);
    expect(result.refreshSteps!.delete.map((s) => s.name)).toEqual(["hub"]);
    expect(result.steps.create.map((s) => s.name)).toEqual(["hub"]);
    expect(engine.resource("hub").urn).toBe(hubUrn);
    expect(byName("spoke").propertyDependencies!.parentId).toEqual([hubUrn]);
  });

  test("a refresh that finds everything changes no dependency", async () => {
    const before = checkpointResources().map(({ urn, parent, deletedWith, dependencies }) => ({
      urn,
      parent,
      deletedWith,
      dependencies,
    }));
    const result = await engine.refresh();
    expect(result.steps.delete).toEqual([]);
    expect(
      checkpointResources().map(({ urn, parent, deletedWith, dependencies }) => ({
        urn,
        parent,
        deletedWith,
        dependencies,
      })),
    ).toEqual(before);
  });
});
