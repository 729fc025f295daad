/**
 * What one engine run (one plugin process: the engine starts the plugin afresh for every `pulumi up`, `destroy`
 * or `refresh`) has learned about live objects, so that a later step of the same run does not undo it.
 *
 * Why: a create that meets an object it did not make is refused (`notCreatedHere`), and normally that failure
 * stops the run before the engine deletes anything. Under `pulumi up --continue-on-error` the engine goes on and,
 * after the program, deletes what the program no longer declares (pulumi/pulumi
 * pkg/resource/deploy/deployment_executor.go, performPostSteps; step_executor.go, cancelDueToError). When a
 * resource was renamed in code without `aliases`, the "no longer declared" old name is the very object the
 * refused create met: the live object the program still declares. The engine leaves that choice to the
 * provider, and the provider refuses the delete.
 *
 * The same holds for what refers to that object. A resource whose input is the refused resource's output (an
 * attachment's `groupId`, a user's `groupRoles`) is never registered: the SDK rejects its inputs. Its old state
 * is then "no longer declared" too, and the engine deletes it in the same run, after the program: the real
 * engine does so even when the program fails, since the Node.js SDK reports the rejections only after it has
 * signalled the end of the program (pulumi/pulumi pkg/resource/deploy/source_eval.go, SignalAndWaitForShutdown).
 * Such a delete would detach or remove what the program still declares, so it is refused as well.
 *
 * Some creates do not meet a refusal: configuring an experience or attaching a set's tags succeeds over what is
 * there. Renamed in code without `aliases`, the new name's create writes the object, then the old name's delete
 * (after the creates) would reset or detach what the new name now holds. Such writes are recorded by object
 * (`recordWrite`), and the delete of another resource that records the same object leaves it alone.
 *
 * A create that repairs what a killed run left (it found a note of an earlier, unfinished create of the same
 * resource: interruptedCreates.ts) may answer with an object the state already holds under an older instance: the
 * killed run's checkpoint recorded it, and this run replaces that resource create-first (`pulumi up --replace`, a
 * taint), for which the engine asks the provider no diff that would have shown it. The engine then deletes the
 * old instance, which is the object the new one now records: that delete only forgets it (`recordRepair`).
 *
 * And a Tag renamed in the run while a TagSet or Device writes tags by name, with no dependency between them,
 * must give the same result in whichever order the engine runs the two: `tagNames`.
 */
import { randomUUID } from "node:crypto";
import { DeviceMgmtProblem } from "../errors";
import { TagNames } from "./tagNames";

/** A delete refused because, in this run, a create of a declared resource was refused for the same object. */
export class ClaimedObjectDeleteError extends DeviceMgmtProblem {
  constructor(
    readonly what: string,
    readonly objectId: string,
  ) {
    super(
      `${what} ${objectId} was not deleted: in this run a resource of the program tried to create the same ` +
        `object and was refused because ${objectId} already exists, so the program still declares it. If you ` +
        `renamed or moved that resource in code, add the resource option aliases: [{ name: "<old name>" }] (or ` +
        `{ parent: <old parent> }) to it; to have it take the object over, set adoptId: "${objectId}". To remove ` +
        `the object, remove both declarations.`,
      { property: "aliases", fix: `aliases on the renamed resource, or adoptId: "${objectId}"` },
    );
  }
}

/**
 * A delete refused because the object refers to one for which, in this run, a create of a declared resource was
 * refused: the program most likely still declares this object too, with an input from that resource.
 */
export class ClaimedDependentDeleteError extends DeviceMgmtProblem {
  constructor(
    readonly what: string,
    readonly objectId: string,
    readonly claimedId: string,
  ) {
    super(
      `${what} ${objectId} was not deleted: it refers to ${claimedId}, which in this run a resource of the ` +
        `program tried to create and was refused because ${claimedId} already exists, so the program still ` +
        `declares it; a resource whose inputs come from that resource could not be registered, and is most ` +
        `likely this one. Fix the refused resource first (the resource option aliases: [{ name: "<old name>" }] ` +
        `if you renamed it in code, or adoptId: "${claimedId}"), then run again. To remove this object, remove ` +
        `its declaration.`,
      { property: "aliases", fix: `aliases on the refused resource, or adoptId: "${claimedId}"` },
    );
  }
}

/** Every string in `value` (nested objects and arrays included). */
function stringsIn(value: unknown, found: string[] = []): string[] {
  if (typeof value === "string") found.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsIn(item, found);
  else if (value !== null && typeof value === "object")
    for (const item of Object.values(value)) stringsIn(item, found);
  return found;
}

/** The objects of one run for which a create was refused because they already exist (by object id). */
export class RunLedger {
  private readonly refusedFor = new Set<string>();
  private readonly written = new Set<string>();
  private readonly repaired = new Set<string>();
  /**
   * This run's id. A resource whose write is recorded keeps it in its outputs, so its own delete later in the same
   * process (a test harness drives one plugin through a whole lifecycle) tells itself apart from the old name of
   * a renamed resource, whose state an earlier run wrote.
   */
  readonly runId = randomUUID();
  /** Tag renames of this run and the owners' tag writes, kept from overlapping (see tagNames.ts). */
  readonly tagNames = new TagNames();

  /** A create met `objectId`, an object it did not make, and was refused. */
  recordRefusedCreate(objectId: string): void {
    this.refusedFor.add(objectId);
  }

  /** Whether a create of this run was refused because `objectId` exists. */
  createWasRefusedFor(objectId: string): boolean {
    return this.refusedFor.has(objectId);
  }

  /**
   * A create of this run wrote `object` (a key naming the kind and the object, e.g. `HeadsetExperience:group
   * <id>`): it now holds what it wrote, so a delete of another resource for the same object must not undo it.
   */
  recordWrite(object: string): void {
    this.written.add(object);
  }

  /**
   * A create of this run that repaired a killed run's create answered with `object` (a key naming the kind and the
   * object id): no delete of this run may remove it, since the resource that create was for records it now.
   */
  recordRepair(object: string): void {
    this.repaired.add(object);
  }

  /** Whether a repairing create of this run answered with `object` (see recordRepair). */
  wasRepaired(object: string): boolean {
    return this.repaired.has(object);
  }

  /** Whether a create of this run wrote `object` (see recordWrite). */
  wasWritten(object: string): boolean {
    return this.written.has(object);
  }

  /**
   * Throws ClaimedObjectDeleteError when deleting `objectId` would undo what a refused create protected, and
   * ClaimedDependentDeleteError when its recorded properties (`props`, the connection left out) refer to such an
   * object.
   */
  assertDeletable(what: string, objectId: string, props: Record<string, unknown> = {}): void {
    if (this.createWasRefusedFor(objectId)) throw new ClaimedObjectDeleteError(what, objectId);
    if (this.refusedFor.size === 0) return;
    const { connection: _connection, ...recorded } = props;
    const claimed = stringsIn(recorded).find((value) => this.createWasRefusedFor(value));
    if (claimed !== undefined) throw new ClaimedDependentDeleteError(what, objectId, claimed);
  }
}

/** The ledger of this process, which is one engine run. */
export const runLedger = new RunLedger();
