/**
 * What creates, updates and reads share around their writes: carried inputs, retired outputs, a 404 as "gone",
 * adoption, a create that met an object it did not make, and a write whose answer was lost.
 */
import { AdoptionError, NotCreatedHereError } from "../errors";
import { AmbiguousWriteError, NotFoundError } from "../client";
import { runLedger } from "./runLedger";
import { jsonClean, type Props } from "./protocol";

/** Inputs that are not about the remote object but travel with it in state. */
export function carriedInputs(props: Props): Props {
  return jsonClean({ adoptId: props.adoptId, connection: props.connection });
}

/**
 * Outputs state written by an older version has, which are no longer recorded because the organization changes
 * them by itself (a group's device count, the name of a device's group), so refresh right after `up` would
 * show them changed. A read keeps the recorded values as they are: refresh of such state shows no change either.
 */
export function retiredOutputs(props: Props, keys: readonly string[]): Props {
  return Object.fromEntries(keys.filter((key) => props[key] !== undefined).map((key) => [key, props[key]]));
}

/** Resolves to undefined when the API answers 404: on read that means the object is gone from the organization. */
export async function unlessGone<T>(request: Promise<T>): Promise<T | undefined> {
  try {
    return await request;
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

/** Adoption starts from the object with that id; none is an error that says what to do instead. */
export async function adoptable<T>(
  noun: string,
  adoptId: string,
  fetch: (id: string) => Promise<T>,
): Promise<T> {
  const found = await unlessGone(fetch(adoptId));
  if (found === undefined) {
    throw new AdoptionError(
      `adoptId: no ${noun} with id ${adoptId} exists in the organization, so there is nothing to adopt. ` +
        `Remove adoptId to create a new ${noun}, or correct the id.`,
      adoptId,
    );
  }
  return found;
}

/** How often a write whose answer was lost is tried again (after looking whether it was applied) before giving up. */
export const AMBIGUOUS_WRITE_ATTEMPTS = 5;

/**
 * The error of a create that met an object it did not make (`found` says what it met): nothing was changed, and
 * the fix is `aliases` when the resource was renamed or moved in code, `adoptId` to take the object over.
 */
export function notCreatedHere(found: string, noun: string, adoptId: string, more = ""): NotCreatedHereError {
  runLedger.recordRefusedCreate(adoptId); // this run must not delete the object the refused create met
  return new NotCreatedHereError(
    `${found} Nothing was changed. If you renamed this resource or moved it to another parent in code, add the ` +
      `resource option aliases: [{ name: "<old name>" }] (or { parent: <old parent> }) so Pulumi knows it is the ` +
      `same one. To manage ${noun} made outside this stack, or left by an interrupted run, set ` +
      `adoptId: "${adoptId}".${more}`,
    adoptId,
  );
}

/**
 * Runs a write that is not safe to repeat blindly (a POST) until it is known to be applied: after an ambiguous
 * failure (lost answer, 5xx) `applied()` looks for its effect, and only when there is none is it sent again.
 */
export async function untilApplied<T>(
  write: () => Promise<T>,
  applied: () => Promise<T | undefined>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (!(error instanceof AmbiguousWriteError)) throw error;
      // Even when no attempt is left (or retries are off), a write that was applied must be reported as done:
      // failing here would leave an object the state does not know, and the next run would make another.
      const found = await applied();
      if (found !== undefined) return found;
      if (attempt >= AMBIGUOUS_WRITE_ATTEMPTS) throw error;
    }
  }
}
