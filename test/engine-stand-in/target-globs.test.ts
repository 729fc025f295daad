/**
 * URN globs in `--target` / `--exclude` (engine-stand-in/targets.ts, UrnTargets; pkg/resource/deploy/deployment.go,
 * UrnTargets, getMatcher, Contains): `**` matches anything, `*` anything but a `:`; a glob is never an unknown
 * target (deployment_executor.go, checkTargets checks literals only). Each run reads the store afterwards.
 */
import type { Engine } from "../../engine-stand-in";
import { isReplaceTarget, UrnTargets, unknownLiteralTargetErrors } from "../../engine-stand-in/targets";
import { Item } from "./fixtures/item-resource";
import { ItemBackend, useItemEngine } from "./fixtures/item-fixture";

describe("UrnTargets matching (the engine's TestGlobUrn cases, and what they must not match)", () => {
  const cases: Array<{ glob: string; matches: string[]; misses: string[] }> = [
    {
      glob: "**",
      matches: [
        "urn:pulumi:stack::test::typ$aws:resource::aname",
        "urn:pulumi:stack::test::typ$azure:resource::bar",
      ],
      misses: [],
    },
    {
      glob: "urn:pulumi:stack::test::typ*:resource::bar",
      matches: [
        "urn:pulumi:stack::test::typ$aws:resource::bar",
        "urn:pulumi:stack::test::typ$azure:resource::bar",
      ],
      misses: ["urn:pulumi:stack::test::ty:resource::bar", "urn:pulumi:stack::test::type:resource::foobar"],
    },
    {
      glob: "**:aname",
      matches: ["urn:pulumi:stack::test::typ$aws:resource::aname"],
      misses: ["urn:pulumi:stack::test::typ$aws:resource::somename"],
    },
    {
      glob: "*:*:stack::test::typ$aws:resource::*",
      matches: [
        "urn:pulumi:stack::test::typ$aws:resource::aname",
        "urn:pulumi:stack::test::typ$aws:resource::bar",
      ],
      misses: ["urn:pulumi:stack::test::typ$azure:resource::aname"],
    },
    {
      // `*` stops at a colon; `.`, `$` and the like are literal.
      glob: "urn:pulumi:stack::test::*::a.b",
      matches: ["urn:pulumi:stack::test::Item::a.b"],
      misses: ["urn:pulumi:stack::test::fixture:Item::a.b", "urn:pulumi:stack::test::Item::aXb"],
    },
  ];

  test.each(cases)("$glob", ({ glob, matches, misses }) => {
    const targets = new UrnTargets([glob]);
    for (const urn of matches)
      expect({ urn, contained: targets.contains(urn) }).toEqual({ urn, contained: true });
    for (const urn of misses)
      expect({ urn, contained: targets.contains(urn) }).toEqual({ urn, contained: false });
  });

  test("a literal is a URN (or here a name), never a pattern; no targets contain everything", () => {
    const literal = new UrnTargets(["urn:pulumi:stack::test::typ$aws:resource::none"]);
    expect(literal.contains("urn:pulumi:stack::test::typ$aws:resource::none")).toBe(true);
    expect(literal.contains("urn:pulumi:stack::test::typ$aws:resource::nonee")).toBe(false);
    expect(new UrnTargets(["none"]).contains("urn:pulumi:stack::test::typ::none")).toBe(true);
    expect(new UrnTargets([]).contains("urn:anything")).toBe(true);
    expect(new UrnTargets([]).constrained).toBe(false);
  });

  test("only literals are checked against the stack: a glob matching nothing is no error", () => {
    const stack = [{ urn: "urn:pulumi:test::p::fixture:Item::a", name: "a" }];
    expect(unknownLiteralTargetErrors(["**nothing**", "urn:pulumi:test::p::*::zz"], stack)).toEqual([]);
    expect(unknownLiteralTargetErrors(["**nothing**", "zz"], stack).map((e) => e.message)).toEqual([
      "Target 'zz' could not be found in the stack. Did you forget to escape $ in your shell?",
    ]);
  });

  test("--replace targets match the same way (isTargetedReplace: ReplaceTargets.Contains)", () => {
    const goal = { urn: "urn:pulumi:test::p::fixture:Item::site-a", name: "site-a" };
    expect(isReplaceTarget(["**site-*"], goal)).toBe(true);
    expect(isReplaceTarget(["**::site"], goal)).toBe(false);
    expect(isReplaceTarget([], goal)).toBe(false);
  });
});

describe("globs in runs", () => {
  let backend: ItemBackend;
  let engine: Engine;
  useItemEngine((fresh) => ({ backend, engine } = fresh));

  beforeEach(async () => {
    const first = await engine.up(program("1"));
    expect(first.errors).toEqual([]);
    backend.edit((data) => (data.journal = []));
  });

  /** Two sites with a room each (a room depends on its site), and a lobby. */
  const program =
    (value: string, extra: string[] = []) =>
    () => {
      for (const site of ["site-a", "site-b"]) {
        const made = new Item(site, { name: site, value });
        new Item(`${site}-room`, { name: `${site}-room`, value, parentId: made.id });
      }
      new Item("lobby", { name: "lobby", value });
      for (const name of extra) new Item(name, { name, value });
    };

  test("up --target with a glob updates exactly what it matches", async () => {
    const result = await engine.up(program("2"), { target: ["**::site-*-room"] });
    expect(result.errors).toEqual([]);
    expect(backend.mutations().sort()).toEqual(["update site-a-room", "update site-b-room"]);
    expect(backend.byName("site-a")!.value).toBe("1");
    expect(backend.byName("lobby")!.value).toBe("1");
  });

  test("`*` does not cross a colon: a glob on the name part misses the type part", async () => {
    // The Item's type token has two colons (pulumi-nodejs:dynamic/fixture:Item): `::*::lobby` cannot match it.
    const { urn, type } = engine.resource("lobby");
    expect(type.split(":")).toHaveLength(3);
    const stackAndProject = urn.slice(0, urn.indexOf(`::${type}::`));
    const miss = await engine.up(program("2"), { target: [`${stackAndProject}::*::lobby`] });
    expect(miss.errors).toEqual([]);
    expect(backend.mutations()).toEqual([]);
    const hit = await engine.up(program("2"), { target: [`${stackAndProject}::*:*:*::lobby`] });
    expect(hit.errors).toEqual([]);
    expect(backend.mutations()).toEqual(["update lobby"]);
  });

  test("a glob matching nothing is no error: nothing changes (the engine names only literals unknown)", async () => {
    const result = await engine.up(program("2"), { target: ["**::nothing-*"] });
    expect(result.errors).toEqual([]);
    expect(result.operations).toEqual([]);
    expect(backend.byName("lobby")!.value).toBe("1");
  });

  test("--exclude with a glob leaves out what it matches (TestGlobExcludes)", async () => {
    const result = await engine.up(program("2", ["extra"]), { exclude: ["**site**"] });
    expect(result.errors).toEqual([]);
    expect(backend.mutations().sort()).toEqual(["create extra", "update lobby"]);
    expect(backend.byName("site-a-room")!.value).toBe("1");
  });

  test("a glob under --target with --target-dependents takes in the dependents", async () => {
    const result = await engine.up(program("2"), { target: ["**::site-a"], targetDependents: true });
    expect(result.errors).toEqual([]);
    expect(backend.mutations().sort()).toEqual(["update site-a", "update site-a-room"]);
  });

  test("--replace with a glob replaces what it matches, create-first; a glob matching nothing is no error", async () => {
    const result = await engine.up(program("1"), { replace: ["**::site-*-room", "**::nothing-*"] });
    expect(result.errors).toEqual([]);
    const mutations = backend.mutations();
    expect([...mutations].sort()).toEqual([
      "create site-a-room",
      "create site-b-room",
      "delete site-a-room",
      "delete site-b-room",
    ]);
    expect(mutations.indexOf("create site-a-room")).toBeLessThan(mutations.indexOf("delete site-a-room"));
    expect(backend.byName("site-a")!.value).toBe("1");
  });

  test("refresh --target with a glob reads what it matches", async () => {
    const result = await engine.refresh({ target: ["**::site-b*"] });
    expect(result.errors).toEqual([]);
    const reads = backend
      .data()
      .journal.filter((e) => e.op === "read")
      .map((e) => e.name)
      .sort();
    expect(reads).toEqual(["site-b", "site-b-room"]);
  });

  test("destroy --target with a glob deletes what it matches and, with --target-dependents, what needs it", async () => {
    const result = await engine.destroy({ target: ["**::site-a"], targetDependents: true });
    expect(result.errors).toEqual([]);
    expect(backend.mutations()).toEqual(["delete site-a-room", "delete site-a"]);
    expect(
      engine
        .resources()
        .map((r) => r.name)
        .sort(),
    ).toEqual(["lobby", "site-b", "site-b-room"]);
  });
});
