/**
 * Creates this machine ran for a resource whose result the stack's state may not hold: what a killed
 * `pulumi up` leaves behind.
 *
 * Why a journal: the engine records a create only when the provider's answer reaches its checkpoint. A run killed
 * at any moment from the create's first write until that checkpoint (the write sent, its answer lost, or the
 * answer given and the checkpoint not yet written) leaves an object the state does not know, and the next `up`
 * calls create again, which meets the object and, by the no-silent-takeover rule, would refuse and ask a human for
 * `adoptId`. The API has no marker that says "this stack made it" (a theme or a tag has no free field, a group's
 * files cannot even be listed), and the plugin sees neither the state nor the engine's pending operations.
 *
 * So, just before a create writes, the plugin notes on disk which resource (project, stack, resource name) is
 * creating which object (kind, organization, natural key), and when the create answers it records the id in the
 * note. A note found by the same resource's next create says which object it meets is its own: exactly the
 * recorded id, or, while no id is recorded (or a later create started and has not answered), the object no older
 * than that create. It is taken over instead of refused. Without the note (another machine, another resource,
 * another stack) the refusal stands.
 *
 * What ends a note: the clean end of the run whose create answered (the engine shuts its plugins down with SIGINT
 * once the run is over, and by then it has written the checkpoint of every step that answered; a killed run's
 * plugin gets no SIGINT, so its notes stay for the next run); a later operation on the recorded id in the same
 * stack (diff, read, update, delete: the engine passes only ids its state holds, so the state holds the object);
 * a refused create (the object it met is not the resource's, and must not be taken on the next run); a failure that
 * left nothing new to find (the note goes back to what it was before that create); and age: a note not written for
 * `NOTE_LIFETIME_MS` (a resource that left the program, a stack removed) is dropped unread, and its object is then
 * refused like any other.
 *
 * Why the note is not ended by the answer alone: a run killed after the answer and before the checkpoint (or
 * killed while the file backend writes it) leaves the object outside the state. Why it must end at the clean end:
 * a note that outlived a clean run would let a create-first replacement (`pulumi up --replace`, a taint: the engine
 * calls neither diff nor check with old inputs for those) take over the very object it replaces, which the engine
 * then deletes. A note left by a killed run can still meet that case (killed after the checkpoint, then replaced):
 * claims.ts then turns the run's later delete of the object such a create answered with into a forget
 * (runLedger.ts, `recordRepair`).
 *
 * The notes hold no secret: names, ids and times. They live under `$PULUMI_HOME` (default `~/.pulumi`), in
 * `devicemgmt/creates-in-flight/`, one small file per create, named by a hash of what identifies it.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { AmbiguousWriteError, ProcessingTimeoutError } from "../client";
import { DuplicateClaimError, NotCreatedHereError } from "../errors";
import { PartialFailureError } from "./protocol";

/** Who creates what: enough to tell one resource's create from every other one. */
export interface CreateIdentity {
  project: string;
  stack: string;
  /** The resource's name. */
  claimant: string;
  kind: string;
  organizationId: string;
  /** The object's natural key (claims.ts). */
  key: string;
}

/** What a resource's earlier creates left that its state may not hold: what its next create takes over. */
export interface UnfinishedCreate {
  /** When the earliest of those creates started (ms since the epoch). */
  startedAt: number;
  /** The object the last create that answered made or took over: exactly this one is the resource's. */
  id?: string;
  /**
   * With a recorded id: a create started then (ms since the epoch) and has not answered, so an object made since
   * may be the resource's too. (Without a recorded id, any object no older than `startedAt` may be.)
   */
  since?: number;
}

interface Note extends CreateIdentity, UnfinishedCreate {
  /** When the note was last written: what its lifetime counts from. */
  writtenAt?: number;
}

/**
 * How much older than the note an object may be and still be the note's: the service's clock and this
 * machine's may differ a little.
 */
export const CLOCK_SKEW_MS = 5 * 60_000;

/**
 * How long a note is kept without being written again: far longer than between a killed run and the next one,
 * short enough that a note whose resource left the program (or whose stack was removed) does not stay forever.
 */
export const NOTE_LIFETIME_MS = 30 * 24 * 60 * 60_000;

function journalDirectory(): string {
  const home = process.env.PULUMI_HOME || path.join(os.homedir(), ".pulumi");
  return path.join(home, "devicemgmt", "creates-in-flight");
}

function notePath(directory: string, identity: CreateIdentity): string {
  const { project, stack, claimant, kind, organizationId, key } = identity;
  const name = createHash("sha256")
    .update(JSON.stringify([project, stack, claimant, kind, organizationId, key]))
    .digest("hex");
  return path.join(directory, `${name}.json`);
}

const expired = (note: Note, now: number) => now - (note.writtenAt ?? note.startedAt) > NOTE_LIFETIME_MS;

function readNote(file: string): Note | undefined {
  try {
    const note = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<Note>;
    return typeof note.startedAt === "number" ? (note as Note) : undefined;
  } catch {
    return undefined; // none, or unreadable: no claim to an earlier create
  }
}

/**
 * The notes of each journal directory, read once per process (expired ones removed) and kept up to date with
 * what this process writes: what `recordedInState` looks through on every diff without reading the disk.
 */
const notesByDirectory = new Map<string, Map<string, Note>>();

function notesIn(directory: string): Map<string, Note> {
  let notes = notesByDirectory.get(directory);
  if (notes) return notes;
  notes = new Map();
  notesByDirectory.set(directory, notes);
  let files: string[] = [];
  try {
    files = fs.readdirSync(directory).filter((name) => name.endsWith(".json"));
  } catch {
    return notes; // no journal yet
  }
  const now = Date.now();
  for (const name of files) {
    const file = path.join(directory, name);
    const note = readNote(file);
    if (note && expired(note, now)) fs.rmSync(file, { force: true });
    else if (note) notes.set(file, note);
  }
  return notes;
}

function writeNote(directory: string, file: string, note: Note): void {
  notesIn(directory).set(file, note);
  try {
    fs.mkdirSync(directory, { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ ...note, writtenAt: Date.now() }));
  } catch {
    // No writable home: the create still runs; only the repair after a kill is lost.
  }
}

function removeNote(directory: string, file: string): void {
  notesIn(directory).delete(file);
  fs.rmSync(file, { force: true });
}

/** The note's view for the create: only what identifies and what it says. */
const viewOf = ({ startedAt, id, since }: Note): UnfinishedCreate => ({ startedAt, id, since });

/**
 * The notes whose create answered in this process (file → the id it answered with): what the clean end of the run
 * ends (`settleAnsweredCreates`). Notes this process only read (a killed run's) are not among them.
 */
const answeredHere = new Map<string, string>();

/**
 * The end of a run that was not killed: the engine has written the checkpoint of every create that answered, so
 * their notes have done their work. A note whose create has not answered (the run gave up on it) stays.
 */
export function settleAnsweredCreates(): void {
  const directory = journalDirectory();
  for (const [file, id] of answeredHere) {
    if (notesIn(directory).get(file)?.id === id) removeNote(directory, file);
  }
  answeredHere.clear();
}

/**
 * Whether this process is a plugin the engine started: the dynamic-provider plugin (`pulumi-resource-pulumi-nodejs`
 * runs the SDK's `cmd/dynamic-provider`) or this package's own (`pulumi-resource-devicemgmt` runs
 * `plugin/main.js`). Only there does SIGINT mean "the run is over" (the engine's plugin Close sends it to the
 * plugin's own process group, which a terminal's Ctrl+C does not reach). A program or a test process keeps its own
 * SIGINT behaviour.
 */
const isEnginePlugin = () =>
  /[\\/]cmd[\\/]dynamic-provider([\\/]index\.js)?$|[\\/]provider[\\/]plugin[\\/]main\.[jt]s$/.test(
    process.argv[1] ?? "",
  );

/**
 * Whether an answered create's note waits for the end of the run (the engine's plugin, whose answer reaches the
 * state only with the engine's checkpoint) or ends with the answer (any other process: a harness calling the
 * handlers in-process holds the answer itself, and has no SIGINT that would end the notes later). Tests of the
 * journal set it.
 */
export const journalOptions = { notesOutliveAnswers: isEnginePlugin() };

let settlesOnShutdown = false;

/** In the engine's plugin: ends the answered creates' notes when the engine shuts the plugin down, then exits. */
function settleOnShutdown(): void {
  if (settlesOnShutdown || !isEnginePlugin()) return;
  settlesOnShutdown = true;
  const onShutdown = () => {
    try {
      settleAnsweredCreates();
    } finally {
      // Exit as the signal would have without a listener: the engine waits for the plugin to go.
      process.removeListener("SIGINT", onShutdown);
      process.kill(process.pid, "SIGINT");
    }
  };
  process.on("SIGINT", onShutdown);
}

/** What this process learnt at the start of each create: what an earlier create of the object left. */
const earlier = new Map<string, UnfinishedCreate>();
const memoryKey = (identity: CreateIdentity) => JSON.stringify(identity);

/** A refusal: the object the create met is not the resource's, and the next run must not take it either. */
const refused = (error: unknown) =>
  error instanceof NotCreatedHereError || error instanceof DuplicateClaimError;

/** Failures that leave open what was made: the note stays as the create left it, as after a kill. */
const unresolved = (error: unknown) =>
  error instanceof AmbiguousWriteError || error instanceof ProcessingTimeoutError;

/**
 * Runs `create` with its note: written before it (keeping what an earlier create of the same object by the same
 * resource left, which `unfinishedCreateOf` answers during `create`), given the id once it has answered (also a
 * partial failure's id), and kept until the run ends cleanly (`settleAnsweredCreates`) or a later operation shows
 * the state holds that id (`recordedInState`).
 * A refused create removes the note. A failure that leaves open whether the write was applied
 * (`AmbiguousWriteError`), or a wait for processing that gave up (`ProcessingTimeoutError`: the object exists and
 * the next create must wait for it, not upload a second one), keeps it as a kill does. Any other failure made
 * nothing to take over: it removes the note, or puts back an earlier one that recorded an id (that object is still
 * the resource's, and the state may still lack it).
 */
export async function journaled<T extends { id: string }>(
  identity: CreateIdentity,
  create: () => Promise<T>,
): Promise<T> {
  const directory = journalDirectory();
  const file = notePath(directory, identity);
  const now = Date.now();
  let previous = readNote(file);
  if (previous && expired(previous, now)) previous = undefined;
  if (previous) earlier.set(memoryKey(identity), viewOf(previous));
  // Until this create answers, it may make an object of its own, besides the one an earlier create recorded.
  const running: Note = {
    ...identity,
    startedAt: previous?.startedAt ?? now,
    id: previous?.id,
    since: previous?.id === undefined ? undefined : (previous.since ?? now),
  };
  const answered = (id: string): Note => ({ ...identity, startedAt: running.startedAt, id });
  settleOnShutdown();
  answeredHere.delete(file);
  writeNote(directory, file, running);
  const answer = (id: string) => {
    if (!journalOptions.notesOutliveAnswers) return removeNote(directory, file);
    writeNote(directory, file, answered(id));
    answeredHere.set(file, id);
  };
  try {
    const result = await create();
    answer(result.id);
    return result;
  } catch (error) {
    if (error instanceof PartialFailureError) answer(error.id);
    else if (unresolved(error)) {
      // The note stays as the create left it.
    } else if (!refused(error) && previous?.id !== undefined) writeNote(directory, file, previous);
    // A refused create must leave no note: the next run would take the object it refused as its own.
    else removeNote(directory, file);
    throw error;
  } finally {
    earlier.delete(memoryKey(identity));
  }
}

/** What an earlier create of this object by this resource left that the state may not hold, if any. */
export function unfinishedCreateOf(identity: CreateIdentity): UnfinishedCreate | undefined {
  return earlier.get(memoryKey(identity));
}

/** Whose operation it is: the notes of that stack and kind. */
export interface NoteScope {
  project: string;
  stack: string;
  kind: string;
}

/**
 * An operation of the stack got the id `id` from the engine, which passes only ids its state holds: the object
 * is in the stack, and a note that recorded it (whatever resource's: one renamed with aliases holds it now) has
 * done its work.
 */
export function recordedInState(scope: NoteScope, id: string): void {
  const directory = journalDirectory();
  for (const [file, note] of notesIn(directory)) {
    if (
      note.id === id &&
      note.kind === scope.kind &&
      note.stack === scope.stack &&
      note.project === scope.project
    )
      removeNote(directory, file);
  }
}
