// A GroupCopy as a whole program on the real Pulumi CLI (test/engine), the emulator as the organization,
// asserted through its API afterwards: the copy is made from a Group of the same program, `up` again changes
// nothing, a portal rename is seen by the drift report (as a changed Group, never an unmanaged one) and by
// refresh, and `up` puts the name back; destroy deletes the copy and the original. Then an `up` killed while
// copying: after the API answered but before the CLI's checkpoint (the CLI frozen, then killed), and with the
// answer lost; the next `up` takes over the copy the killed run made instead of copying again.
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { createEngine, type Engine } from "../../engine";
import { brief } from "../../drift/support";
import { driftReport, expectUpChangesNothing, repoRoot, useProgramStack } from "../../harness/programStack";
import * as dm from "../../../provider";

describe("a GroupCopy program", () => {
  const org = useProgramStack({ project: "devicemgmt-group-copy" });
  let labId: string;
  let copyId: string;

  function program() {
    const lab = new dm.Group("lab", { name: "Lab", configured: true });
    const copy = new dm.GroupCopy("lab-b", { sourceGroupId: lab.id, name: "Lab B" });
    return { labId: lab.id, copyId: copy.id };
  }

  test("up copies the group the program configures: a second configured group", async () => {
    const result = await org.engine.up(program);
    expect(result.errors).toEqual([]);
    expect(result.steps.create.map((s) => s.name).sort()).toEqual(["lab", "lab-b"]);
    labId = result.outputs.labId as string;
    copyId = result.outputs.copyId as string;
    expect(copyId).not.toBe(labId);
    expect(await org.admin.groups.get(copyId)).toMatchObject({ name: "Lab B", isConfigured: true });
    expect(await org.admin.groups.get(labId)).toMatchObject({ name: "Lab", isConfigured: true });
  });

  test("up again changes nothing; the drift report finds the copy managed, not an unmanaged group", async () => {
    await expectUpChangesNothing(org, program);
    expect((await driftReport(org, "group")).report.findings).toEqual([]);
  });

  test("a rename made in the portal is a changed Group in the drift report and on refresh; up repairs it", async () => {
    await org.admin.groups.update(copyId, { name: "Lab B (portal)", parentId: null });
    const drift = await driftReport(org, "group");
    expect(drift.report.findings.map((f) => [brief(f), f.differences])).toEqual([
      [
        'changed group "Lab B (portal)" (configured)',
        [{ field: "name", state: "Lab B", live: "Lab B (portal)" }],
      ],
    ]);
    const refreshed = await org.engine.refresh();
    expect(refreshed.errors).toEqual([]);
    expect(refreshed.steps.update.map((s) => s.name)).toEqual(["lab-b"]);
    const repaired = await org.engine.up(program);
    expect(repaired.errors).toEqual([]);
    expect(repaired.steps.replace).toEqual([]);
    expect(await org.admin.groups.get(copyId)).toMatchObject({ name: "Lab B" });
  });

  test("destroy deletes the copy and the original", async () => {
    const destroyed = await org.engine.destroy();
    expect(destroyed.errors).toEqual([]);
    const names = (await org.admin.groups.all()).map((g) => g.name);
    expect(names.filter((n) => n === "Lab" || n === "Lab B")).toEqual([]);
  });
});

describe("an up killed while copying", () => {
  let emulator: RunningEmulator;
  let engine: Engine;
  /** The notes of creates the plugin keeps (framework/interruptedCreates.ts), in the engine's PULUMI_HOME. */
  let journal: string;

  beforeEach(async () => {
    emulator = await startEmulator({ port: 0 });
    engine = await createEngine({
      cwd: repoRoot,
      config: { "devicemgmt:baseUrl": emulator.baseUrl },
      secretConfig: { "devicemgmt:apiToken": emulator.tokens.admin },
    });
    journal = path.join(engine.folder, "pulumi-home", "devicemgmt", "creates-in-flight");
  });
  afterEach(async () => {
    await engine?.close();
    await emulator?.close();
  });

  const site = () => new dm.Group("site", { name: "Site", configured: true });
  const program = () => void new dm.GroupCopy("site-b", { sourceGroupId: site().id, name: "Site B" });
  const copies = () => emulator.snapshot().groups.filter((g) => g.name === "Site B");
  const duplicates = () => emulator.stats().byRoute["POST /groups/{groupId}/duplicate"] ?? 0;
  const notes = (): { claimant: string; id?: string }[] =>
    fs.existsSync(journal)
      ? fs.readdirSync(journal).flatMap((name) => {
          try {
            return [JSON.parse(fs.readFileSync(path.join(journal, name), "utf8"))];
          } catch {
            return []; // being written
          }
        })
      : [];
  const until = async (condition: () => boolean, what: string) => {
    const givenUp = Date.now() + 30_000;
    while (!condition()) {
      if (Date.now() > givenUp) throw new Error(`gave up waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  };

  /** The next `up` (no faults) takes over the one copy, records it, and a third `up` has nothing to do. */
  async function repairedByTheNextUp() {
    expect(copies()).toHaveLength(1);
    expect(engine.resources().map((r) => r.name)).not.toContain("site-b");
    expect(engine.pending()).toEqual([expect.objectContaining({ type: "creating" })]);
    const before = duplicates();
    const next = await engine.up(program);
    expect(next.errors).toEqual([]);
    expect(duplicates()).toBe(before); // taken over, not copied again
    expect(copies()).toHaveLength(1);
    expect(copies()[0]).toMatchObject({ isConfigured: true });
    expect(engine.resource("site-b").id).toBe(copies()[0].id);
    expect(engine.resource("site-b").outputs).toMatchObject({ name: "Site B", configured: true });
    // The clean end of that run settled the note; nothing is left to take over by a later `--replace`.
    expect(notes()).toEqual([]);
    expect((await engine.up(program)).operations).toEqual([]);
  }

  test("after the API answered, before the checkpoint: the next up takes over exactly that copy", async () => {
    expect((await engine.up(() => void site())).errors).toEqual([]);
    // Every request waits 500 ms before it runs: the CLI is frozen (SIGSTOP; its plugin runs on) as the copy's
    // request arrives, so the plugin gets the answer and notes its id, and the CLI can checkpoint none of it.
    emulator.setFaults({ latencyMs: 500 });
    let missed: unknown;
    const killed = await engine.up(program, {
      interruptAfter: 1,
      interruptWhen: async () => {
        try {
          await until(() => duplicates() > 0, "the copy's request");
          for (const child of engine.cli.running())
            if (child.pid !== undefined) process.kill(child.pid, "SIGSTOP");
          await until(() => copies().length > 0 && notes().some((n) => n.id === copies()[0].id), "the note");
        } catch (error) {
          missed = error; // killed all the same (a frozen CLI is never left behind), and reported below
        }
      },
    });
    emulator.setFaults({ latencyMs: 0 });
    expect(missed).toBeUndefined();
    expect(killed.interrupted).toBe(true);
    expect(notes()).toEqual([expect.objectContaining({ claimant: "site-b", id: copies()[0].id })]);
    await repairedByTheNextUp();
  }, 300_000);

  test("with the answer lost: the next up takes over the one copy no older than the killed create", async () => {
    expect((await engine.up(() => void site())).errors).toEqual([]);
    emulator.setFaults({ latencyMs: 300, dropAfterWriteRate: 1 });
    const killed = await engine.up(program, {
      interruptAfter: 1,
      interruptWhen: () => until(() => copies().length > 0, "the copy").catch(() => undefined),
    });
    emulator.setFaults({ latencyMs: 0, dropAfterWriteRate: 0 });
    expect(killed.interrupted).toBe(true);
    expect(notes().map((n) => n.id)).toEqual([undefined]);
    await repairedByTheNextUp();
  }, 300_000);
});
