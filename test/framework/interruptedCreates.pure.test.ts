// The notes of creates (interruptedCreates.ts), in a throwaway PULUMI_HOME, through their whole life as the engine's
// plugin keeps them: written before the create, given the id once it answers and kept (a kill may still come before
// the engine's checkpoint), shown to the same resource's next create only, and ended by the clean end of the run
// that answered, by a later operation on that id in the same stack, by a refused create, or by age. A failure that
// made nothing new puts the note back as it was. In any other process the answer ends the note.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  AmbiguousWriteError,
  ContentProcessingFailedError,
  ContentProcessingTimeoutError,
} from "../../provider/client";
import { NotCreatedHereError } from "../../provider/errors";
import {
  journaled,
  journalOptions,
  NOTE_LIFETIME_MS,
  PartialFailureError,
  settleAnsweredCreates,
  recordedInState,
  unfinishedCreateOf,
  type CreateIdentity,
} from "../../provider/framework";

const identity: CreateIdentity = {
  project: "p",
  stack: "dev",
  claimant: "brand",
  kind: "theme",
  organizationId: "org-1",
  key: "Brand",
};
const scope = { project: "p", stack: "dev", kind: "theme" };
let home: string;
const directory = () => path.join(home, "devicemgmt", "creates-in-flight");
const notes = () => (fs.existsSync(directory()) ? fs.readdirSync(directory()) : []);
const noteContent = () => JSON.parse(fs.readFileSync(path.join(directory(), notes()[0]), "utf8"));
const lost = () => new AmbiguousWriteError({ method: "POST", path: "/themes", cause: new Error("reset") });
/** A create that answers with `id`. */
const makes = (id: string) => async () => ({ id });
/** A create that reports what the earlier creates left, then answers with `id`. */
const looksThenMakes =
  (id: string, seen: unknown[], who = identity) =>
  async () => {
    seen.push(unfinishedCreateOf(who));
    return { id };
  };

const pulumiHome = process.env.PULUMI_HOME;
// The engine's plugin keeps answered notes until the run ends; this jest process is not that plugin.
beforeAll(() => (journalOptions.notesOutliveAnswers = true));
afterAll(() => (journalOptions.notesOutliveAnswers = false));
beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), "devicemgmt-notes-"));
  process.env.PULUMI_HOME = home;
});
afterEach(() => {
  if (pulumiHome === undefined) delete process.env.PULUMI_HOME;
  else process.env.PULUMI_HOME = pulumiHome;
  fs.rmSync(home, { recursive: true, force: true });
});

test("a note is on disk before the create writes, and keeps the id it answered until the state holds it", async () => {
  const seen = await journaled(identity, async () => ({ id: "t-1", notes: notes().length }));
  expect(seen.notes).toBe(1);
  // Answered, but the engine's checkpoint may still be lost: the note stays, with the id.
  expect(notes()).toHaveLength(1);
  expect(noteContent()).toMatchObject({ id: "t-1" });
  // Operations on other ids, kinds or stacks say nothing about this object.
  recordedInState(scope, "t-2");
  recordedInState({ ...scope, kind: "tag" }, "t-1");
  recordedInState({ ...scope, stack: "prod" }, "t-1");
  recordedInState({ ...scope, project: "q" }, "t-1");
  expect(notes()).toHaveLength(1);
  // A diff, read, update or delete of this stack got t-1 from the engine: the state holds it.
  recordedInState(scope, "t-1");
  expect(notes()).toEqual([]);
});

test("killed after the answer: the next create takes exactly the recorded object, and is then recorded again", async () => {
  await journaled(identity, makes("t-1"));
  const seen: unknown[] = [];
  await journaled(identity, looksThenMakes("t-1", seen));
  expect(seen).toEqual([{ startedAt: expect.any(Number), id: "t-1", since: undefined }]);
  expect(noteContent()).toMatchObject({ id: "t-1" });
});

test("killed before the answer: the next create sees when the unanswered create started, and no id", async () => {
  const before = Date.now();
  await expect(journaled(identity, () => Promise.reject(lost()))).rejects.toBeInstanceOf(AmbiguousWriteError);
  expect(notes()).toHaveLength(1);
  const seen: unknown[] = [];
  await journaled(identity, looksThenMakes("t-1", seen));
  expect(seen).toEqual([{ startedAt: expect.any(Number), id: undefined, since: undefined }]);
  expect((seen[0] as { startedAt: number }).startedAt).toBeGreaterThanOrEqual(before);
});

test("a create after an answered one that is killed before its own answer leaves both: the id and since when", async () => {
  await journaled(identity, makes("t-1"));
  const retried = Date.now();
  await journaled(identity, () => Promise.reject(lost())).catch(() => undefined);
  const seen: unknown[] = [];
  await journaled(identity, looksThenMakes("t-2", seen));
  expect(seen).toEqual([{ startedAt: expect.any(Number), id: "t-1", since: expect.any(Number) }]);
  expect((seen[0] as { since: number }).since).toBeGreaterThanOrEqual(retried);
  // Answered again: the new id alone.
  expect(noteContent()).toMatchObject({ id: "t-2" });
  expect(noteContent().since).toBeUndefined();
});

test("a partial failure records the id the engine is given, and keeps the note", async () => {
  const partial = new PartialFailureError("t-1", {}, new Error("PUT failed"));
  await expect(journaled(identity, () => Promise.reject(partial))).rejects.toBe(partial);
  expect(noteContent()).toMatchObject({ id: "t-1" });
});

test("a processing wait that timed out keeps the note (the object exists); a failed processing removes it", async () => {
  const timedOut = new ContentProcessingTimeoutError("Image", "img-1", 1000);
  await expect(journaled(identity, () => Promise.reject(timedOut))).rejects.toBe(timedOut);
  expect(notes()).toHaveLength(1);
  const seen: unknown[] = [];
  const failed = new ContentProcessingFailedError("Image", "img-2", "failed", undefined);
  await expect(
    journaled(identity, async () => {
      seen.push(unfinishedCreateOf(identity));
      throw failed;
    }),
  ).rejects.toBe(failed);
  expect(seen).toEqual([expect.objectContaining({ startedAt: expect.any(Number) })]);
  // The object it waited for failed: nothing is left to take over, the next create uploads again.
  expect(notes()).toEqual([]);
});

test("a failure that made nothing leaves no note, or puts back the one that recorded an id", async () => {
  await expect(journaled(identity, () => Promise.reject(new Error("400")))).rejects.toThrow("400");
  expect(notes()).toEqual([]);
  await journaled(identity, makes("t-1"));
  await expect(journaled(identity, () => Promise.reject(new Error("500")))).rejects.toThrow("500");
  expect(noteContent()).toMatchObject({ id: "t-1" });
  expect(noteContent().since).toBeUndefined();
});

test("another resource, stack or object does not see the note", async () => {
  await journaled(identity, makes("t-1"));
  for (const other of [{ claimant: "brand-2" }, { stack: "prod" }, { key: "Other" }]) {
    const theirs = { ...identity, ...other };
    const seen: unknown[] = [];
    await journaled(theirs, looksThenMakes("x", seen, theirs));
    expect(seen).toEqual([undefined]);
  }
});

test("a refused create removes the note, with or without a recorded id", async () => {
  const refusal = new NotCreatedHereError("exists", "id-1");
  await journaled(identity, () => Promise.reject(lost())).catch(() => undefined);
  await expect(journaled(identity, () => Promise.reject(refusal))).rejects.toBe(refusal);
  expect(notes()).toEqual([]);
  await journaled(identity, makes("t-1"));
  await expect(journaled(identity, () => Promise.reject(refusal))).rejects.toBe(refusal);
  expect(notes()).toEqual([]);
  const seen: unknown[] = [];
  await journaled(identity, looksThenMakes("t-2", seen));
  expect(seen).toEqual([undefined]);
});

test("a note not written for NOTE_LIFETIME_MS is dropped unread", async () => {
  await journaled(identity, makes("t-1"));
  const file = path.join(directory(), notes()[0]);
  const old = Date.now() - NOTE_LIFETIME_MS - 60_000;
  fs.writeFileSync(file, JSON.stringify({ ...noteContent(), startedAt: old, writtenAt: old }));
  const seen: unknown[] = [];
  await journaled(identity, looksThenMakes("t-2", seen));
  expect(seen).toEqual([undefined]);
});

test("expired notes of other resources and stacks are removed when the journal is first read", async () => {
  fs.mkdirSync(directory(), { recursive: true });
  const old = Date.now() - NOTE_LIFETIME_MS - 60_000;
  const stale = { ...identity, claimant: "gone", startedAt: old, writtenAt: old, id: "t-9" };
  fs.writeFileSync(path.join(directory(), "stale.json"), JSON.stringify(stale));
  const fresh = { ...identity, claimant: "kept", startedAt: Date.now(), writtenAt: Date.now(), id: "t-8" };
  fs.writeFileSync(path.join(directory(), "fresh.json"), JSON.stringify(fresh));
  recordedInState(scope, "unrelated");
  expect(notes()).toEqual(["fresh.json"]);
});

test("a note holds names, ids and times, nothing else", async () => {
  await journaled(identity, makes("t-1"));
  expect(Object.keys(noteContent()).sort()).toEqual(
    [...Object.keys(identity), "startedAt", "id", "writtenAt"].sort(),
  );
});

test("the clean end of the run ends the notes its creates answered, and no other", async () => {
  await journaled(identity, makes("t-1"));
  const unanswered = { ...identity, claimant: "pending" };
  await journaled(unanswered, () => Promise.reject(lost())).catch(() => undefined);
  // A killed run's note, which this process only reads (the next create, or an operation on its id, ends it).
  const killed = { ...identity, claimant: "killed", startedAt: Date.now(), writtenAt: Date.now(), id: "t-7" };
  fs.writeFileSync(path.join(directory(), "killed.json"), JSON.stringify(killed));
  expect(notes()).toHaveLength(3);
  settleAnsweredCreates();
  const left = notes().map((name) => JSON.parse(fs.readFileSync(path.join(directory(), name), "utf8")));
  expect(left.map((note) => [note.claimant, note.id]).sort()).toEqual([
    ["killed", "t-7"],
    ["pending", undefined],
  ]);
});

test("a killed run's note taken over by this run's create is ended by this run's clean end", async () => {
  await journaled(identity, makes("t-1")); // the killed run: answered, never settled
  await journaled(identity, looksThenMakes("t-1", []));
  settleAnsweredCreates();
  expect(notes()).toEqual([]);
});

test("outside the engine's plugin (a harness calling the handlers in-process) the answer ends the note", async () => {
  journalOptions.notesOutliveAnswers = false;
  try {
    const seen = await journaled(identity, async () => ({ id: "t-1", notes: notes().length }));
    expect(seen.notes).toBe(1);
    expect(notes()).toEqual([]);
  } finally {
    journalOptions.notesOutliveAnswers = true;
  }
});
