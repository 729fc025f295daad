/**
 * `ignoreChanges` as the engine applies it (pkg/resource/deploy/step_generator.go, processIgnoreChanges, and
 * the replacement's Check with the program's values; sdk/go/common/resource/properties_path.go, Reset).
 */
import type { Engine } from "../../engine-stand-in";
import { applyIgnoreChanges, parsePropertyPath } from "../../engine-stand-in/ignoreChanges";
import { Item } from "./fixtures/item-resource";
import { ItemBackend, useItemEngine } from "./fixtures/item-fixture";

describe("property paths (properties_path.go)", () => {
  test("parses names, indexes, quoted keys and wildcards", () => {
    expect(parsePropertyPath("a.b")).toEqual(["a", "b"]);
    expect(parsePropertyPath("roles[0].groupId")).toEqual(["roles", 0, "groupId"]);
    expect(parsePropertyPath('tags["team.name"]')).toEqual(["tags", "team.name"]);
    expect(parsePropertyPath("items[*].id")).toEqual(["items", "*", "id"]);
    expect(parsePropertyPath("a[")).toBeUndefined();
  });

  test("resets nested values to the old ones, removes what the old lacks, and reports paths through added elements", () => {
    const olds = { settings: { color: "red", size: 1 }, list: [{ id: "x", note: "old" }], name: "n" };
    const news = {
      settings: { color: "blue", size: 2, extra: true },
      list: [{ id: "y", note: "new" }],
      name: "m",
    };
    const { inputs, invalidPaths } = applyIgnoreChanges(news, olds, [
      "settings.color",
      "settings.extra",
      "list[*].note",
      "missing.deeper",
    ]);
    expect(inputs).toEqual({
      settings: { color: "red", size: 2 },
      list: [{ id: "y", note: "old" }],
      name: "m",
    });
    expect(invalidPaths).toEqual([]);
    expect(news.settings.color).toBe("blue"); // the program's values are not changed in place

    const added = applyIgnoreChanges({ list: [{ note: "a" }, { note: "b" }] }, { list: [{ note: "a" }] }, [
      "list[*].note",
    ]);
    expect(added.invalidPaths).toEqual(["list[*].note"]);
  });

  test("sees through secrets", () => {
    const SIG_KEY = "4dabf18193072939515e22adb298388d";
    const SIG = "1b47061264138c4ac30d75fd1eb44270";
    const olds = { conn: { [SIG_KEY]: SIG, value: { token: "old", url: "u" } } };
    const news = { conn: { [SIG_KEY]: SIG, value: { token: "new", url: "v" } } };
    const { inputs } = applyIgnoreChanges(news, olds, ["conn.token"]);
    expect(inputs).toEqual({ conn: { [SIG_KEY]: SIG, value: { token: "old", url: "v" } } });
  });
});

describe("ignoreChanges through the stand-in", () => {
  let backend: ItemBackend;
  let engine: Engine;
  useItemEngine((fresh) => ({ backend, engine } = fresh));

  test("an ignored change is no update; a replacement is created with the program's values", async () => {
    const program = (value: string, kind: string) => () =>
      void new Item("it", { name: "it", value, kind }, { ignoreChanges: ["value"] });
    await engine.up(program("one", "a"));

    const ignored = await engine.up(program("two", "a"));
    expect(ignored.steps.same.map((s) => s.name)).toEqual(["it"]);
    expect(backend.byName("it")!.value).toBe("one");

    // kind forces a replacement: the new object is a new resource, made with the program's value.
    const replaced = await engine.up(program("two", "b"));
    expect(replaced.errors).toEqual([]);
    expect(replaced.steps.replace.map((s) => s.name)).toEqual(["it"]);
    expect(backend.byName("it")).toMatchObject({ kind: "b", value: "two" });
  });
});
