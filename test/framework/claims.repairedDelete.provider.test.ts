// A create that repairs a killed run's create by taking its object over, and the same run's delete of that object
// (claims.ts, runLedger.ts `recordRepair`): the runtime's handlers called in-process against the emulator, with the
// journal kept as the engine's plugin keeps it (notes outlive answers) in a throwaway PULUMI_HOME.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { configure, handler } from "../../provider/runtime";
import { DeviceMgmtClient } from "../../provider/client";
import { journalOptions } from "../../provider/framework/interruptedCreates";

let emulator: RunningEmulator;
let admin: DeviceMgmtClient;
let home: string;
const pulumiHome = process.env.PULUMI_HOME;

beforeAll(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), "repaired-delete-"));
  process.env.PULUMI_HOME = home;
  journalOptions.notesOutliveAnswers = true;
  emulator = await startEmulator({ port: 0 });
  admin = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
  const config = new Map([
    ["devicemgmt:baseUrl", emulator.baseUrl],
    ["devicemgmt:apiToken", emulator.tokens.admin],
  ]);
  await configure({ config: { get: (key: string) => config.get(key) } } as never);
});
afterAll(async () => {
  journalOptions.notesOutliveAnswers = false;
  if (pulumiHome === undefined) delete process.env.PULUMI_HOME;
  else process.env.PULUMI_HOME = pulumiHome;
  fs.rmSync(home, { recursive: true, force: true });
  await emulator.close();
});

const tagsNamed = async (name: string) => (await admin.tags.all()).filter((t) => t.name === name);

test("the run's delete of an object its repairing create took over only forgets the old instance", async () => {
  const tag = handler("tag");
  // A killed run: its create answered (the note records the id), and its checkpoint recorded the tag too.
  const killed = await tag.create({ name: "Kept Kit", __claimant: "kit" });
  // This run replaces the tag create-first (`up --replace`: no diff), and the create finds that note.
  const replacement = await tag.create({ name: "Kept Kit", __claimant: "kit" });
  expect(replacement.id).toBe(killed.id);
  // The engine then deletes the old instance: the same object, which the new instance records.
  await tag.delete(killed.id, killed.outs ?? {});
  expect((await tagsNamed("Kept Kit")).map((t) => t.id)).toEqual([killed.id]);
});

test("a create that made its object (no note to repair) leaves the run's delete of it a delete", async () => {
  const tag = handler("tag");
  const made = await tag.create({ name: "Gone Kit", __claimant: "gone" });
  await tag.delete(made.id, made.outs ?? {});
  expect(await tagsNamed("Gone Kit")).toEqual([]);
});
