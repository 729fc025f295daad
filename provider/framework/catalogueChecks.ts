/**
 * How `check` asks the live organization about names and ids that must already exist there (each kind's own
 * checks are in its folder, `catalogue.ts`: a tag name unless a `Tag` of this program declares it, the owner of
 * a tag set, the group or device of an attachment, …). Each failure names the property, the value, and the
 * closest existing name where there is one, so a typo is caught at preview instead of creating a catalogue tag
 * or failing at `up` with a bare 404.
 *
 * Only values that are known and new or changed since the inputs last checked (`olds`) are looked up: an
 * unchanged program costs no request at preview. A read that cannot be made (a connection not known yet, a
 * network error, a refused token) lets the value pass: create and update still report what the API refuses.
 */
import type * as pulumi from "@pulumi/pulumi";
import { NotFoundError, type DeviceMgmtClient } from "../client";
import { NotPossibleError } from "../errors";
import { clientForProps } from "./context";
import { containsUnknown, type Props } from "./protocol";

export type Failure = pulumi.dynamic.CheckFailure;

/**
 * At create, for a 404 that check could not foresee (the value was not known then, or the object went since):
 * the same look-up as check, so the error names the property and the fix instead of a bare `GET … 404`.
 * Any other error, or a 404 the look-up cannot explain, is returned as it is.
 */
export async function explainedNotFound(
  kind: string,
  error: unknown,
  failures: () => Promise<Failure[]>,
): Promise<unknown> {
  if (!(error instanceof NotFoundError)) return error;
  const [failure] = await failures().catch((): Failure[] => []);
  if (failure === undefined) return error;
  return new NotPossibleError(`${failure.reason} (${error.message})`, {
    kind,
    property: failure.property,
    fix: `correct ${failure.property}`,
  });
}

// ---- Closest name -------------------------------------------------------------------------------------------

/** Levenshtein distance (insert, delete, substitute), without case: tag names compare so. */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const current = [i];
    for (let j = 1; j <= t.length; j++) {
      const substitution = previous[j - 1] + (s[i - 1] === t[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j] + 1, current[j - 1] + 1, substitution));
    }
    previous = current;
  }
  return previous[t.length];
}

/**
 * The candidate nearest to `value`, when near enough to be what was meant (at most a third of the name's
 * length, and at least one edit, apart); undefined otherwise, so a message never suggests an unrelated name.
 * Hand-written rather than a package: twenty lines, and the provider's dependencies are kept few.
 */
export function closestName(value: string, candidates: Iterable<string>): string | undefined {
  const limit = Math.max(1, Math.floor(value.length / 3));
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = editDistance(value, name);
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** " (the closest existing name is …)", or nothing when no candidate is near. */
export const didYouMean = (value: string, candidates: Iterable<string>) => {
  const closest = closestName(value, candidates);
  return closest === undefined ? "" : ` (the closest existing name is "${closest}")`;
};

/** A string input known at this moment (not the engine's unknown sentinel of a preview). */
export const known = (value: unknown): value is string =>
  typeof value === "string" && !containsUnknown(value);

/** The client for `props`, or undefined while the connection is not known (preview) or cannot be resolved. */
export function clientOf(props: Props): DeviceMgmtClient | undefined {
  if (containsUnknown(props.connection)) return undefined;
  try {
    return clientForProps(props);
  } catch {
    return undefined;
  }
}

/** A read whose 404 is an answer (undefined) and whose other failures are no answer (null). */
export async function look<T>(read: () => Promise<T>): Promise<T | undefined | null> {
  try {
    return await read();
  } catch (error) {
    return error instanceof NotFoundError ? undefined : null;
  }
}

/**
 * Answers of `look` kept for a short while, by client and key: a first preview of 200 GroupFiles of one group
 * and one file reads that group and file once, not 200 times. What this run itself changes meanwhile is in the
 * run's declarations (`RunDeclarations`: a group configured, a device ungrouped), and the API still has the last word at `up`.
 */
const remembered = new WeakMap<DeviceMgmtClient, Map<string, { at: number; answer: Promise<unknown> }>>();
const REMEMBER_MS = 30_000;

export function lookRemembered<T>(
  client: DeviceMgmtClient,
  key: string,
  read: () => Promise<T>,
): Promise<T | undefined | null> {
  const answers = remembered.get(client) ?? new Map<string, { at: number; answer: Promise<unknown> }>();
  remembered.set(client, answers);
  const kept = answers.get(key);
  if (kept && Date.now() - kept.at < REMEMBER_MS) return kept.answer as Promise<T | undefined | null>;
  const answer = look(read);
  answers.set(key, { at: Date.now(), answer });
  return answer;
}

// ---- What this run declares -----------------------------------------------------------------------------------

/**
 * What the resources of this run (one engine run, one process) declare that the organization may not show yet,
 * by the client of their organization: a kind notes its own declarations into its registry (its check or diff
 * runs before the check of a resource that takes its output, its update before that resource's create), and the
 * checks of other kinds ask it, so a name or a state the same change brings about is not refused at preview.
 * `withoutConnection`: what becomes of a declaration whose connection is not known yet: it counts for every
 * organization, or it is dropped.
 */
export class RunDeclarations {
  private readonly byClient = new WeakMap<DeviceMgmtClient, Set<string>>();
  private readonly anyOrganization = new Set<string>();

  constructor(private readonly withoutConnection: "anyOrganization" | "dropped") {}

  note(inputs: Props, value: string): void {
    const client = clientOf(inputs);
    if (client === undefined) {
      if (this.withoutConnection === "anyOrganization") this.anyOrganization.add(value);
      return;
    }
    const values = this.byClient.get(client) ?? new Set<string>();
    this.byClient.set(client, values.add(value));
  }

  has(client: DeviceMgmtClient, value: string): boolean {
    return this.byClient.get(client)?.has(value) === true || this.anyOrganization.has(value);
  }
}

/** "Group", for "see getGroup". */
export const capital = (word: string) => word[0].toUpperCase() + word.slice(1);

/** "a group", "an app". */
export const withArticle = (noun: string) => `${/^[aeiou]/.test(noun) ? "an" : "a"} ${noun}`;
