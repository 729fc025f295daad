/**
 * `up --refresh` / `preview --refresh` (pkg/resource/deploy/deployment_executor.go, Execute and refresh): the
 * state is refreshed with the providers of the state before the program runs; an up keeps the refresh, a
 * preview saves nothing; with a refresh first there is no pending-operations warning.
 */
import { observePlugins } from "../../engine-stand-in";
import type { Engine } from "../../engine-stand-in";
import { Item } from "./fixtures/item-resource";
import { ItemBackend, useItemEngine } from "./fixtures/item-fixture";

let backend: ItemBackend;
let engine: Engine;
useItemEngine((fresh) => ({ backend, engine } = fresh));

const program = () => () => {
  new Item("alpha", { name: "alpha", value: "declared" });
  new Item("beta", { name: "beta", value: "declared" });
};

const driftAlpha = () =>
  backend.edit((data) => {
    const alpha = Object.values(data.objects).find((o) => o.name === "alpha")!;
    alpha.value = "changed outside";
  });

describe("--refresh (deployment_executor.go, refresh)", () => {
  test("preview --refresh shows the drift and the update that reverts it, and saves nothing", async () => {
    await engine.up(program());
    driftAlpha();
    const before = engine.resource("alpha").outputs;
    const result = await engine.preview(program(), { refresh: true });
    expect(result.errors).toEqual([]);
    expect(result.refreshSteps!.update.map((s) => s.name)).toEqual(["alpha"]);
    expect(result.refreshSteps!.same.map((s) => s.name)).toEqual(["beta"]);
    expect(result.steps.update.map((s) => s.name)).toEqual(["alpha"]);
    expect(engine.resource("alpha").outputs).toEqual(before);
    expect(backend.byName("alpha")!.value).toBe("changed outside");
  });

  test("a preview without --refresh does not see the drift", async () => {
    await engine.up(program());
    driftAlpha();
    const result = await engine.preview(program());
    expect(result.refreshSteps).toBeUndefined();
    expect(result.steps.update).toEqual([]);
  });

  test("up --refresh keeps the refresh and reverts the drift", async () => {
    await engine.up(program());
    driftAlpha();
    const result = await engine.up(program(), { refresh: true });
    expect(result.errors).toEqual([]);
    expect(result.steps.update.map((s) => s.name)).toEqual(["alpha"]);
    expect(backend.byName("alpha")!.value).toBe("declared");
    expect(result.operations.filter((o) => o.op === "read")).toHaveLength(2);
    expect((await engine.preview(program(), { refresh: true })).steps.update).toEqual([]);
  });

  test("the refresh uses one plugin process when the config is unchanged", async () => {
    await engine.up(program());
    const started: number[] = [];
    const stop = observePlugins({ started: (pid) => started.push(pid) });
    try {
      await engine.up(program(), { refresh: true });
    } finally {
      stop();
    }
    expect(started).toHaveLength(1);
  });

  test("with another config the refresh reads with the stored one, in a plugin of its own", async () => {
    await engine.up(program());
    const started: number[] = [];
    const stop = observePlugins({ started: (pid) => started.push(pid) });
    let result;
    try {
      // A wrong token in the current config: the reads succeed, so they used the config stored at the last up.
      result = await engine.preview(program(), { refresh: true, secretConfig: { "fixture:token": "wrong" } });
    } finally {
      stop();
    }
    expect(result.refreshSteps!.same).toHaveLength(2);
    expect(result.errors.filter((e) => e.op === "read")).toEqual([]);
    expect(started).toHaveLength(2);
  });

  test("a failed read ends the run before the program: nothing is planned or changed", async () => {
    await engine.up(program());
    backend.edit((data) => {
      (data as unknown as { token: string }).token = "rotated";
    });
    const result = await engine.up(program(), { refresh: true });
    expect(result.ok).toBe(false);
    expect(result.errors.map((e) => e.op)).toEqual(["read", "read"]);
    expect(result.steps.update).toEqual([]);
    expect(
      engine
        .resources()
        .map((r) => r.name)
        .sort(),
    ).toEqual(["alpha", "beta"]);
  });
});
