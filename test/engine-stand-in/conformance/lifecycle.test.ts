/**
 * Conformance (issue 22): the engine's lifecycle tests named in the issue (pulumi/pulumi
 * pkg/engine/lifecycletest), each re-expressed as a program and a provider whose behaviour between runs comes
 * from the plugin's environment (lifecycle.ts), run through the stand-in with the result the engine test asserts.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type { Engine } from "../../../engine-stand-in";
import { engineTracker, repoRoot } from "../fixtures/item-fixture";
import { LifecycleResource } from "./lifecycle";

const engines = engineTracker();
let engine: Engine;
let journalFile: string;

beforeEach(async () => {
  journalFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "conformance-lifecycle-")), "journal");
  fs.writeFileSync(journalFile, "");
  engine = await engines.create({ cwd: repoRoot, env: { LIFECYCLE_JOURNAL: journalFile } });
});
afterEach(() => engines.closeAll());

/** The provider calls since the last look. */
function takeJournal(): string[] {
  const entries = fs.readFileSync(journalFile, "utf8").split("\n").filter(Boolean);
  fs.writeFileSync(journalFile, "");
  return entries;
}

test("TestMultipleProtectedDeletes: a preview and an up each report every protected delete", async () => {
  const creating = { both: true };
  const program = () => {
    if (!creating.both) return;
    new LifecycleResource("resA", "a", { protect: true });
    new LifecycleResource("resB", "b", { protect: true });
  };
  const first = await engine.up(program);
  expect(first.errors).toEqual([]);
  expect(engine.resources().map((r) => r.name)).toEqual(["resA", "resB"]);
  takeJournal();

  creating.both = false;
  for (const run of [() => engine.preview(program), () => engine.up(program)]) {
    const result = await run();
    expect(result.ok).toBe(false);
    const messages = result.errors.map((e) => e.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringContaining('resA" cannot be deleted'),
        expect.stringContaining('resB" cannot be deleted'),
      ]),
    );
  }
  expect(takeJournal()).toEqual([]);
  expect(engine.resources().map((r) => r.name)).toEqual(["resA", "resB"]);
});

test("TestPendingReplaceResumeWithSameGoals: a resumed delete-first replacement creates without a second delete", async () => {
  const program = () => void new LifecycleResource("resA", "key");
  const first = await engine.up(program);
  expect(first.errors).toEqual([]);
  expect(engine.resource("resA").id).toBe("key-first");
  takeJournal();

  // Same program; the provider now asks for a delete-first replacement and its create fails.
  const interrupted = await engine.up(program, {
    env: { LIFECYCLE_DIFF: "replace-delete-first", LIFECYCLE_CREATE: "fail" },
  });
  expect(interrupted.ok).toBe(false);
  expect(interrupted.errors.map((e) => e.message).join("\n")).toContain("interrupt replace");
  expect(takeJournal()).toEqual(["delete key-first", "create key"]);
  expect(engine.resources().map((r) => r.name)).toEqual(["resA"]);
  expect(engine.resource("resA").pendingReplacement).toBe(true);

  // Same program again, the create now works: no second delete, one create, the flag cleared.
  const resumed = await engine.up(program, {
    env: { LIFECYCLE_DIFF: "replace-delete-first", LIFECYCLE_ID_SUFFIX: "replaced" },
  });
  expect(resumed.errors).toEqual([]);
  expect(takeJournal()).toEqual(["create key"]);
  expect(engine.resources().map((r) => r.name)).toEqual(["resA"]);
  expect(engine.resource("resA")).toMatchObject({ id: "key-replaced" });
  expect(engine.resource("resA").pendingReplacement).toBeUndefined();
});
