/**
 * Conformance (issue 22): the engine's lifecycle tests about the dependents of a delete-first replacement and
 * about taint (pulumi/pulumi pkg/engine/lifecycletest: delete_before_replace_test.go, deleted_with_replace_test.go,
 * taint_test.go), each written again as a program over a provider shaped like theirs (replacementProvider.ts),
 * run through the stand-in, with the result the engine test asserts. Each test names the engine test.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import type { Engine, RunOptions } from "../../../engine-stand-in";
import { engineTracker, repoRoot } from "../fixtures/item-fixture";
import { writeLoadableCheckpoint } from "../reencrypt";
import { ReplacementResource as R } from "./replacementProvider";

const engines = engineTracker();
let engine: Engine;
let journalFile: string;
const DBR: RunOptions = { env: { REPLACEMENT_DIFF_DBR: "1" } };

beforeEach(async () => {
  journalFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "conformance-replacement-")), "journal");
  fs.writeFileSync(journalFile, "");
  engine = await engines.create({ cwd: repoRoot, env: { REPLACEMENT_JOURNAL: journalFile } });
});
afterEach(() => engines.closeAll());

/** The provider's create and delete calls since the last look (create ids keep counting). */
let seen = 0;
beforeEach(() => (seen = 0));
function takeJournal(): string[] {
  const entries = fs.readFileSync(journalFile, "utf8").split("\n").filter(Boolean);
  const fresh = entries.slice(seen);
  seen = entries.length;
  return fresh;
}

/** A value that depends on `resources` (a property dependency) but is always `value`. */
const after = (value: string, ...resources: pulumi.Resource[]) =>
  pulumi.all(resources.map((r) => r.urn)).apply(() => value);

const names = (steps: Array<{ name: string }>) => steps.map((s) => s.name).sort();

test("TestDeleteBeforeReplace: of the dependents, those a change of their dependency replaces go first", async () => {
  // A <- C (A: replaces) <- F (A) <- K (A, also on G); A <- D (B: updates) <- I (A), J (B); C <- G (B); L (B on
  // F, G). The engine's graph also has providers (B, E, H use A, C, D as provider): one provider serves every
  // dynamic resource here, so those edges have no counterpart.
  const program = (value: string) => () => {
    const a = new R("A", { A: value });
    const c = new R("C", { A: a.id });
    const d = new R("D", { B: a.id });
    const f = new R("F", { A: c.id });
    const g = new R("G", { B: c.id });
    new R("I", { A: d.id });
    new R("J", { B: d.id });
    new R("K", { A: pulumi.all([f.id, g.id]) });
    new R("L", { B: pulumi.all([f.id, g.id]) });
  };
  expect((await engine.up(program("foo"))).errors).toEqual([]);
  const id = (name: string) => engine.resource(name).id;
  const oldIds = { A: id("A"), C: id("C"), F: id("F"), K: id("K") };
  takeJournal();

  const result = await engine.up(program("bar"), DBR);
  expect(result.errors).toEqual([]);
  expect(names(result.steps.replace)).toEqual(["A", "C", "F", "K"]);
  expect(result.steps.replace.every((s) => s.deleteBeforeReplace)).toBe(true);
  expect(names(result.steps.update)).toEqual(["D", "G", "L"]);
  expect(names(result.steps.same)).toEqual(["I", "J"]);
  // Deleted in reverse dependency order before A; created again after it.
  const calls = takeJournal();
  expect(calls.slice(0, 5)).toEqual([
    `delete ${oldIds.K}`,
    `delete ${oldIds.F}`,
    `delete ${oldIds.C}`,
    `delete ${oldIds.A}`,
    "create A",
  ]);
  expect(calls.slice(5).sort()).toEqual(["create C", "create F", "create K"]);
});

test("TestExplicitDeleteBeforeReplace: the option or the provider's Diff decides, and only delete-first takes the dependent", async () => {
  const goals = { a: "foo", b: "foo", dbr: undefined as boolean | undefined };
  const program = () => {
    const resA = new R(
      "resA",
      { A: goals.a },
      goals.dbr === undefined ? {} : { deleteBeforeReplace: goals.dbr },
    );
    new R("resB", { A: after(goals.b, resA) }, { dependsOn: [resA] });
  };
  await engine.up(program);
  const steps = (result: Awaited<ReturnType<Engine["up"]>>) => ({
    replace: result.steps.replace.map((s) => [s.name, s.deleteBeforeReplace]),
    same: names(result.steps.same),
  });

  goals.a = "bar"; // create-first: resB stays
  expect(steps(await engine.up(program))).toEqual({ replace: [["resA", false]], same: ["resB"] });
  goals.dbr = true;
  goals.a = "baz"; // the option asks delete-first: resB goes first and comes back
  takeJournal();
  const dbr = await engine.up(program);
  expect(steps(dbr)).toEqual({
    replace: [
      ["resA", true],
      ["resB", true],
    ],
    same: [],
  });
  expect(takeJournal().map((e) => e.split(" ")[0])).toEqual(["delete", "delete", "create", "create"]);
  goals.b = "qux"; // only resB changes: create-first
  expect(steps(await engine.up(program))).toEqual({ replace: [["resB", false]], same: ["resA"] });
  goals.dbr = undefined;
  goals.a = "zam"; // the option gone: create-first again
  expect(steps(await engine.up(program))).toEqual({ replace: [["resA", false]], same: ["resB"] });
  goals.a = "foo"; // the provider's Diff asks delete-first
  expect(steps(await engine.up(program, DBR))).toEqual({
    replace: [
      ["resA", true],
      ["resB", true],
    ],
    same: [],
  });
  goals.dbr = false;
  goals.a = "bar"; // the option says no, over the provider's answer
  expect(steps(await engine.up(program, DBR))).toEqual({ replace: [["resA", false]], same: ["resB"] });
});

test("TestDependencyChangeDBR: a resource registered before the replacement, no longer depending on it, is kept", async () => {
  await engine.up(() => {
    const resA = new R("resA", { A: "foo" });
    new R("resB", { A: after("foo", resA) });
  });
  takeJournal();
  const result = await engine.up(() => {
    new R("resB", { A: "foo" });
    new R("resA", { A: "bar" });
  }, DBR);
  expect(result.errors).toEqual([]);
  expect(names(result.steps.same)).toEqual(["resB"]);
  expect(takeJournal()).toEqual(["delete created-id-1", "create resA"]);
});

test("TestDBRProtect: a protected dependent stops the replacement; unprotected, it goes through", async () => {
  const program = (value: string, protect: boolean) => () => {
    const resA = new R("resA", { A: value });
    new R("resB", { A: after("foo", resA) }, { protect });
  };
  await engine.up(program("foo", true));
  const failed = await engine.up(program("bar", true), DBR);
  expect(failed.ok).toBe(false);
  expect(failed.errors[0].message).toContain(
    `unable to replace resource "${engine.resource("resB").urn}" as part of replacing ` +
      `"${engine.resource("resA").urn}" as it is currently marked for protection.`,
  );
  expect(engine.resources()).toHaveLength(2);
  // The engine test clears the flag in the state; an up that only unprotects does that here.
  expect((await engine.up(program("foo", false))).operations).toEqual([]);
  const result = await engine.up(program("bar", false), DBR);
  expect(result.errors).toEqual([]);
  expect(engine.resources()).toHaveLength(2);
});

test("TestDeletedWithDependentReplacedOnDeleteBeforeReplace: a resource deleted with the replaced one is replaced, without a Delete call", async () => {
  const program = (foo: string) => () => {
    const resT = new R("resT", { foo });
    new R("resD", { fixed: "property" }, { deletedWith: resT });
  };
  await engine.up(program("bar"));
  takeJournal();
  const result = await engine.up(program("baz"), DBR);
  expect(result.errors).toEqual([]);
  expect(engine.resources().map((r) => [r.name, r.id])).toEqual([
    ["resT", "created-id-3"],
    ["resD", "created-id-4"],
  ]);
  expect(takeJournal().filter((e) => e.startsWith("delete"))).toEqual(["delete created-id-1"]);
});

test("TestDeletedWithTransitiveChain: a deletedWith chain is replaced whole; only the root's Delete is called", async () => {
  const program = (foo: string) => () => {
    const resT = new R("resT", { foo });
    const resD = new R("resD", { fixed: "property" }, { deletedWith: resT });
    new R("resD2", { fixed: "property" }, { deletedWith: resD });
  };
  await engine.up(program("bar"));
  takeJournal();
  expect((await engine.up(program("baz"), DBR)).errors).toEqual([]);
  expect(engine.resources().map((r) => r.id)).toEqual(["created-id-4", "created-id-5", "created-id-6"]);
  expect(takeJournal().filter((e) => e.startsWith("delete"))).toEqual(["delete created-id-1"]);
});

describe("taint", () => {
  test("TestTaintReplacement, TestTaintNoChanges: a tainted resource is replaced and the mark cleared", async () => {
    const program = () => void new R("resA", { foo: "bar" });
    await engine.up(program);
    expect((await engine.up(program)).operations).toEqual([]); // no taint, no change
    engine.taint("resA");
    takeJournal();
    expect((await engine.up(program)).errors).toEqual([]);
    expect(takeJournal()).toEqual(["create resA", "delete created-id-1"]);
    expect(engine.resource("resA")).toMatchObject({ id: "created-id-2" });
    expect(engine.resource("resA").taint).toBeUndefined();
  });

  test("TestTaintMultipleResources: only the tainted ones are replaced", async () => {
    const program = () => ["resA", "resB", "resC"].forEach((name) => new R(name, { foo: name }));
    await engine.up(program);
    const before = Object.fromEntries(engine.resources().map((r) => [r.name, r.id]));
    engine.taint("resA", "resC");
    takeJournal();
    const result = await engine.up(program);
    expect(names(result.steps.replace)).toEqual(["resA", "resC"]);
    expect(engine.resource("resB").id).toBe(before.resB);
    const deletes = takeJournal().filter((e) => e.startsWith("delete"));
    expect(deletes.sort()).toEqual([`delete ${before.resA}`, `delete ${before.resC}`].sort());
    expect(engine.resources().filter((r) => r.taint)).toEqual([]);
  });

  test("TestTaintWithPendingDelete: the tainted resource is replaced, the pending delete deleted, one state left", async () => {
    const program = () => void new R("resA", { foo: "bar" });
    await engine.up(program);
    engine.taint("resA");
    const checkpoint = engine.checkpoint() as { deployment: { resources: Array<Record<string, unknown>> } };
    const current = checkpoint.deployment.resources.find((r) => r.urn === engine.resource("resA").urn)!;
    checkpoint.deployment.resources.push({ ...current, id: "old-id", delete: true, taint: true });
    const { file, key } = writeLoadableCheckpoint(checkpoint, engine);
    const restored = await engines.create({ cwd: repoRoot, env: { REPLACEMENT_JOURNAL: journalFile } });
    await restored.loadState(file, key);
    takeJournal();
    expect((await restored.up(program)).errors).toEqual([]);
    expect(takeJournal().sort()).toEqual(["create resA", "delete created-id-1", "delete old-id"]);
    expect(restored.resources().map((r) => [r.id, r.taint, r.pendingDelete])).toEqual([
      ["created-id-2", undefined, undefined],
    ]);
  });
});
