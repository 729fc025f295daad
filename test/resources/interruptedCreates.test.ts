// The notes of creates in flight (interruptedCreates.ts), in a throwaway PULUMI_HOME: written before the create,
// removed once it answers (success or refusal), kept by an ambiguous failure (as by a kill), and shown to the
// same resource's next create only.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  AmbiguousWriteError,
  ContentProcessingFailedError,
  ContentProcessingTimeoutError,
} from "../../provider/client";
import { NotCreatedHereError } from "../../provider/errors";
import { journaled, unfinishedCreateOf, type CreateIdentity } from "../../provider/framework";

const identity: CreateIdentity = {
  project: "p",
  stack: "dev",
  claimant: "brand",
  kind: "theme",
  organizationId: "org-1",
  key: "Brand",
};
let home: string;
const notes = () => {
  const dir = path.join(home, "devicemgmt", "creates-in-flight");
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
};
const lost = () => new AmbiguousWriteError({ method: "POST", path: "/themes", cause: new Error("reset") });

const pulumiHome = process.env.PULUMI_HOME;
beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), "devicemgmt-notes-"));
  process.env.PULUMI_HOME = home;
});
afterEach(() => {
  if (pulumiHome === undefined) delete process.env.PULUMI_HOME;
  else process.env.PULUMI_HOME = pulumiHome;
  fs.rmSync(home, { recursive: true, force: true });
});

test("a note is on disk while the create runs and gone once it succeeded", async () => {
  const seen = await journaled(identity, async () => notes().length);
  expect(seen).toBe(1);
  expect(notes()).toEqual([]);
});

test("an ambiguous failure keeps the note; the same resource's next create sees when it started", async () => {
  const before = Date.now();
  await expect(journaled(identity, () => Promise.reject(lost()))).rejects.toBeInstanceOf(AmbiguousWriteError);
  expect(notes()).toHaveLength(1);
  const startedAt = await journaled(identity, async () => unfinishedCreateOf(identity));
  expect(startedAt).toBeGreaterThanOrEqual(before);
  expect(notes()).toEqual([]);
});

test("a processing wait that timed out keeps the note (the object exists); a failed processing removes it", async () => {
  const timedOut = new ContentProcessingTimeoutError("Image", "img-1", 1000);
  await expect(journaled(identity, () => Promise.reject(timedOut))).rejects.toBe(timedOut);
  expect(notes()).toHaveLength(1);
  expect(await journaled(identity, async () => unfinishedCreateOf(identity))).toEqual(expect.any(Number));
  const failed = new ContentProcessingFailedError("Image", "img-2", "failed", undefined);
  await expect(journaled(identity, () => Promise.reject(failed))).rejects.toBe(failed);
  expect(notes()).toEqual([]);
});

test("another resource, stack or object does not see the note", async () => {
  await journaled(identity, () => Promise.reject(lost())).catch(() => undefined);
  for (const other of [{ claimant: "brand-2" }, { stack: "prod" }, { key: "Other" }]) {
    const theirs = { ...identity, ...other };
    expect(await journaled(theirs, async () => unfinishedCreateOf(theirs))).toBeUndefined();
  }
});

test("a refused create removes the note, so the next run does not take the refused object", async () => {
  await journaled(identity, () => Promise.reject(lost())).catch(() => undefined);
  const refusal = new NotCreatedHereError("exists", "id-1");
  await expect(journaled(identity, () => Promise.reject(refusal))).rejects.toBe(refusal);
  expect(notes()).toEqual([]);
  expect(await journaled(identity, async () => unfinishedCreateOf(identity))).toBeUndefined();
});

test("a note holds names, ids and a time, nothing else", async () => {
  await journaled(identity, () => Promise.reject(lost())).catch(() => undefined);
  const [file] = notes();
  const note = JSON.parse(fs.readFileSync(path.join(home, "devicemgmt", "creates-in-flight", file), "utf8"));
  expect(Object.keys(note).sort()).toEqual([...Object.keys(identity), "startedAt"].sort());
});
