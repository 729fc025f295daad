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
 */
import { DeviceMgmtProblem } from "../errors";

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

/** The objects of one run for which a create was refused because they already exist (by object id). */
export class RunLedger {
  private readonly refusedFor = new Set<string>();

  /** A create met `objectId`, an object it did not make, and was refused. */
  recordRefusedCreate(objectId: string): void {
    this.refusedFor.add(objectId);
  }

  /** Whether a create of this run was refused because `objectId` exists. */
  createWasRefusedFor(objectId: string): boolean {
    return this.refusedFor.has(objectId);
  }

  /** Throws ClaimedObjectDeleteError when deleting `objectId` would undo what a refused create protected. */
  assertDeletable(what: string, objectId: string): void {
    if (this.createWasRefusedFor(objectId)) throw new ClaimedObjectDeleteError(what, objectId);
  }
}

/** The ledger of this process, which is one engine run. */
export const runLedger = new RunLedger();
