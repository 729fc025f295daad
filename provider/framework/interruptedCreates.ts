/**
 * Creates this machine started for a resource and never saw finish: what a killed `pulumi up` leaves behind.
 *
 * Why a journal: the engine records a create only when the provider answers it. When the CLI and its plugin
 * are killed after the write reached the service, the state has no id and the next `up` calls create again,
 * which meets the object and, by the no-silent-takeover rule, would refuse and ask a human for `adoptId`. The
 * API has no marker that says "this stack made it" (a theme or a tag has no free field, a group's files cannot
 * even be listed), and the plugin sees neither the state nor the engine's pending operations. So, just before a
 * create writes, the plugin notes on disk which resource (project, stack, resource name) is creating which
 * object (kind, organization, natural key), and removes the note when the create has answered. A note found
 * by the same resource's next create says that the object it meets may be its own: it is taken over (when it
 * is no older than the note) instead of refused. Without the note (another machine, another resource, another
 * stack) the refusal stands.
 *
 * The notes hold no secret: names, ids and a time. They live under `$PULUMI_HOME` (default `~/.pulumi`), in
 * `devicemgmt/creates-in-flight/`, one small file per create, named by a hash of what identifies it.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { AmbiguousWriteError, ProcessingTimeoutError } from "../client";

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

interface Note extends CreateIdentity {
  /** When the first unfinished create of this object by this resource started (ms since the epoch). */
  startedAt: number;
}

/**
 * How much older than the note an object may be and still be the note's: the service's clock and this
 * machine's may differ a little.
 */
export const CLOCK_SKEW_MS = 5 * 60_000;

function journalDirectory(): string {
  const home = process.env.PULUMI_HOME || path.join(os.homedir(), ".pulumi");
  return path.join(home, "devicemgmt", "creates-in-flight");
}

function notePath(identity: CreateIdentity): string {
  const { project, stack, claimant, kind, organizationId, key } = identity;
  const name = createHash("sha256")
    .update(JSON.stringify([project, stack, claimant, kind, organizationId, key]))
    .digest("hex");
  return path.join(journalDirectory(), `${name}.json`);
}

function readNote(file: string): Note | undefined {
  try {
    const note = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<Note>;
    return typeof note.startedAt === "number" ? (note as Note) : undefined;
  } catch {
    return undefined; // none, or unreadable: no claim to an earlier create
  }
}

/** What this process learnt at the start of each create: the note an earlier, unfinished create left. */
const earlier = new Map<string, Note>();
const memoryKey = (identity: CreateIdentity) => JSON.stringify(identity);

/**
 * Runs `create` between a note written before it and removed once it has answered: with success, or with a
 * failure that says what happened (a refusal, a partial failure the engine records). Two failures keep the note,
 * as a kill does: one that leaves open whether the write was applied (`AmbiguousWriteError`), and a wait for
 * processing that gave up (`ProcessingTimeoutError`: the object exists and is still on its way to available, and
 * the next create must wait for it, not upload a second one). A note left by an
 * earlier, unfinished create of the same object by the same resource is kept (its time stays the earliest) and
 * is what `unfinishedCreateOf` answers during `create`.
 */
export async function journaled<T>(identity: CreateIdentity, create: () => Promise<T>): Promise<T> {
  const file = notePath(identity);
  const previous = readNote(file);
  if (previous) earlier.set(memoryKey(identity), previous);
  const note: Note = { ...identity, startedAt: previous?.startedAt ?? Date.now() };
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(note));
  } catch {
    // No writable home: the create still runs; only the repair after a kill is lost.
  }
  try {
    const result = await create();
    fs.rmSync(file, { force: true });
    return result;
  } catch (error) {
    // A refused (or failed) create must leave no note: the next run would take the object it refused as its own.
    if (!(error instanceof AmbiguousWriteError || error instanceof ProcessingTimeoutError))
      fs.rmSync(file, { force: true });
    throw error;
  } finally {
    earlier.delete(memoryKey(identity));
  }
}

/** The time an earlier create of this object by this resource started and never answered, if one did. */
export function unfinishedCreateOf(identity: CreateIdentity): number | undefined {
  return earlier.get(memoryKey(identity))?.startedAt;
}
