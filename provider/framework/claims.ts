/**
 * One live object, one claimant. All dynamic resources of one deployment run in one plugin process, so this
 * process sees every resource of the run: a second resource that would create, adopt or configure an object
 * another resource of the run already holds is refused, with both names and the fix, instead of both writing
 * (every run rewriting the other's values) or both recording one id (removing one declaration would then
 * delete what the other still declares).
 *
 * Who is who: the dynamic-provider plugin passes neither the URN nor the name to the handler, so each class
 * registers its resource name as the hidden input `__claimant` (see `registration`); a call without one (old
 * harnesses, a read or a delete from state) claims nothing.
 *
 * Two moments:
 * - `check` (preview too): the object's natural key from literal inputs (a theme's name, a TagSet's owner, a
 *   channel), per declared connection; a duplicate is a check failure naming the property.
 * - `create`: the same keys per organization (two connections may reach one organization);
 * - `create`, `diff`, `update`: the object's id (two resources recording one id, e.g. one device named by id in
 *   one and by serial number in the other).
 */
import { DuplicateClaimError } from "../errors";
import { type Props, type ResourceHandler } from "./protocol";
import { containsUnknown } from "./protocol";
import { clientForProps } from "./context";
import { runLedger } from "./runLedger";
import {
  CLOCK_SKEW_MS,
  journaled,
  recordedInState,
  unfinishedCreateOf,
  type CreateIdentity,
  type UnfinishedCreate,
} from "./interruptedCreates";

/** The hidden input that carries the resource's name from the class to the handler. */
export const CLAIMANT_KEY = "__claimant";

/**
 * How a kind's object is named by its inputs (each kind declares its own: `claim` in its identity, in properties.ts): the
 * property a duplicate is reported on, and the key.
 */
export interface ClaimSpec {
  property: string | ((props: Props) => string);
  /** The natural key(s) from inputs, or undefined while one is unknown (or not declared). */
  keys(props: Props): string[] | undefined;
  describe(props: Props): string;
  /**
   * False: two resources may declare this key on purpose (same-named groups numbered by `sameNameOrdinal`,
   * refused by kinds/group/create.ts otherwise); the key only names the object for the repair after a killed run.
   */
  refuses?: false;
}

/** What the claims of a kind's calls need of its identity: its key, its type, and its claim. */
export interface ClaimedKind {
  kind: string;
  type: string;
  claim: ClaimSpec | null;
}

/** A known string input (not the engine's unknown sentinel), or undefined: what claim keys are made of. */
export const knownText = (value: unknown): string | undefined =>
  typeof value === "string" && !containsUnknown(value) ? value : undefined;

const str = knownText;

/** The key from these properties, joined, when all are known strings (ids compare without case). */
export function byProperties(names: string[]): (props: Props) => string[] | undefined {
  return (props) => {
    const values = names.map((name) => str(props[name])?.toLowerCase());
    return values.every((v) => v !== undefined) ? [values.join("/")] : undefined;
  };
}

/**
 * What the classes register as `__claimant` (see `registration`): the resource's name, and its stack (which
 * tells one stack's unfinished creates from another's, interruptedCreates.ts).
 */
export interface Claimant {
  name: string;
  stack: string;
  /** The resource's URN, for kinds whose messages show on the resource (resourceLog.ts). */
  urn?: string;
}

/** The resource's URN a call carries, if its kind registers one (resourceLog.ts). */
export function urnOf(props: Props | undefined): string | undefined {
  return str((props?.[CLAIMANT_KEY] as Partial<Claimant> | null | undefined)?.urn);
}

/** The resource name a call carries, if any. */
export function claimantOf(props: Props): string | undefined {
  const value = props[CLAIMANT_KEY];
  return str(value) ?? str((value as Partial<Claimant> | null | undefined)?.name);
}

const stackOf = (props: Props) => str((props[CLAIMANT_KEY] as Partial<Claimant> | undefined)?.stack) ?? "";

/**
 * The claims of this process (one engine run). A claimant moves its claim when its key changes (the same
 * resource checked again), and releases the object when it deletes it.
 */
class ClaimRegistry {
  private readonly holders = new Map<string, string>();
  private readonly byClaimant = new Map<string, Set<string>>();

  /** Takes `slot` for `claimant`; the claimant that already holds it, when another does. */
  take(claimant: string, slot: string): string | undefined {
    const holder = this.holders.get(slot);
    if (holder !== undefined && holder !== claimant) return holder;
    this.holders.set(slot, claimant);
    let slots = this.byClaimant.get(claimant);
    if (!slots) this.byClaimant.set(claimant, (slots = new Set()));
    slots.add(slot);
    return undefined;
  }

  /** Drops the claimant's slots that start with `prefix` and are not in `keep` (a changed key). */
  releaseOthers(claimant: string, prefix: string, keep: string[]): void {
    for (const slot of this.byClaimant.get(claimant) ?? []) {
      if (slot.startsWith(prefix) && !keep.includes(slot)) {
        this.holders.delete(slot);
        this.byClaimant.get(claimant)?.delete(slot);
      }
    }
  }

  release(slot: string): void {
    const holder = this.holders.get(slot);
    if (holder === undefined) return;
    this.holders.delete(slot);
    this.byClaimant.get(holder)?.delete(slot);
  }

  holderOf(slot: string): string | undefined {
    return this.holders.get(slot);
  }
}

/** The registry of this process. */
const claims = new ClaimRegistry();

const slotOf = (...parts: string[]) => parts.join("\0");

const propertyOf = (spec: ClaimSpec, props: Props) =>
  typeof spec.property === "string" ? spec.property : spec.property(props);

/** The claimant's name for the object `id` of `kind`: refused when another resource of the run records it. */
export function holdObject({ kind, type, claim: spec }: ClaimedKind, id: string, props: Props): void {
  const claimant = claimantOf(props);
  if (claimant === undefined) return;
  const holder = claims.take(claimant, slotOf("id", kind, id));
  if (holder !== undefined) {
    throw new DuplicateClaimError(
      type,
      spec ? propertyOf(spec, props) : "id",
      spec?.describe(props) ?? `${type} ${id}`,
      claimant,
      holder,
    );
  }
}

/** Whether another resource of this run records `id` (a lost answer's look-up must not take its object). */
export function heldByAnother(kind: string, id: string, props: Props): boolean {
  const holder = claims.holderOf(slotOf("id", kind, id));
  return holder !== undefined && holder !== claimantOf(props);
}

/**
 * Whether the resource making this call records `id` itself: what a create-first replacement of it meets (the
 * object being replaced, still there), which is neither someone else's object nor a killed run's.
 */
export function heldBySelf(kind: string, id: string, props: Props): boolean {
  const claimant = claimantOf(props);
  return claimant !== undefined && claims.holderOf(slotOf("id", kind, id)) === claimant;
}

/** Takes the kind's natural keys in `scope`; the refusal when another claimant holds one. */
function takeKeys(
  { kind, type, claim: spec }: ClaimedKind,
  scope: string,
  props: Props,
): DuplicateClaimError | undefined {
  const claimant = claimantOf(props);
  if (!spec || spec.refuses === false || claimant === undefined) return undefined;
  const keys = spec.keys(props);
  if (keys === undefined) return undefined;
  const prefix = slotOf("key", scope, kind, "");
  const slots = keys.map((key) => prefix + key);
  claims.releaseOthers(claimant, prefix, slots);
  for (const slot of slots) {
    const holder = claims.take(claimant, slot);
    if (holder !== undefined)
      return new DuplicateClaimError(type, propertyOf(spec, props), spec.describe(props), claimant, holder);
  }
  return undefined;
}

/** The create each claimant is running, by kind and claimant: what `leftByUnfinishedCreate` asks about. */
const creating = new Map<string, CreateIdentity>();

/**
 * The objects `leftByUnfinishedCreate` gave each running create to take over (ids in lower case), by kind and
 * claimant: a create that answers with one of them repaired a killed run's create (runLedger.ts, `recordRepair`).
 */
const offered = new Map<string, Set<string>>();

/** What an earlier create of this very resource (the one now creating) left that its state may not hold. */
function unfinishedCreateFor(kind: string, inputs: Props): UnfinishedCreate | undefined {
  const claimant = claimantOf(inputs);
  const identity = claimant === undefined ? undefined : creating.get(slotOf(kind, claimant));
  return identity && unfinishedCreateOf(identity);
}

/**
 * When an earlier create of this very resource (the one now creating) started whose object the state may not
 * hold: what a killed run left. For what cannot be listed as an object (a pending invitation), the time alone.
 */
export function unfinishedCreateStartedAt(kind: string, inputs: Props): number | undefined {
  return unfinishedCreateFor(kind, inputs)?.startedAt;
}

/**
 * Of the objects a create met (same natural key), the one an earlier create of this very resource made or took
 * over and the state may not hold (interruptedCreates.ts), recorded by no other resource of the run: exactly the
 * id that create answered with, when it answered; else the only one no older than the create that has not
 * answered. Such an object is taken over instead of refused. `namesObject`: whether a recorded id is an object's
 * (a User recorded as a pending invitation is not: the user it becomes is found by time).
 */
export function leftByUnfinishedCreate<T extends { id: string; createdAt?: string | null }>(
  kind: string,
  inputs: Props,
  met: T[],
  namesObject: (recordedId: string) => boolean = () => true,
): T | undefined {
  const unfinished = unfinishedCreateFor(kind, inputs);
  if (unfinished === undefined) return undefined;
  const candidates = met.filter((object) => !heldByAnother(kind, object.id, inputs));
  const recorded = unfinished.id !== undefined && namesObject(unfinished.id) ? unfinished.id : undefined;
  const exact = candidates.find((object) => object.id.toLowerCase() === recorded?.toLowerCase());
  const since = recorded === undefined ? unfinished.startedAt : unfinished.since;
  const ours =
    since === undefined
      ? []
      : candidates.filter(
          (object) =>
            typeof object.createdAt !== "string" || Date.parse(object.createdAt) >= since - CLOCK_SKEW_MS,
        );
  const found = exact ?? (ours.length === 1 ? ours[0] : undefined);
  const claimant = claimantOf(inputs);
  if (found && claimant !== undefined) offered.get(slotOf(kind, claimant))?.add(found.id.toLowerCase());
  return found;
}

/** The notes an operation with these properties (declared, or recorded: either carries `__claimant`) can end. */
const noteScope = (kind: string, ...props: Props[]) => ({
  project: process.env.PULUMI_PROJECT ?? "",
  stack: props.map(stackOf).find((stack) => stack !== "") ?? "",
  kind,
});

/** The run ledger's key for an object a repairing create answered with (ids compare without case). */
const repairedObject = (kind: string, id: string) => `repaired:${kind}/${id.toLowerCase()}`;

async function organizationOf(props: Props): Promise<string> {
  return (await clientForProps(props).assertV3Token()).organization_id;
}

/**
 * `__claimant` in what a call returns: outputs carry it because a refresh's read sees only the recorded
 * outputs, and inputs it reports without `__claimant` would show the hidden input as a change.
 */
function withClaimant<T extends object | undefined>(values: T, from: Props): T {
  return values === undefined || from[CLAIMANT_KEY] === undefined
    ? values
    : { ...values, [CLAIMANT_KEY]: from[CLAIMANT_KEY] };
}

/**
 * The kind's handler with claims: duplicates refused at check (literal keys, per declared connection) and at
 * create, diff and update (per organization, and by the object's id). `__claimant` is kept in the checked
 * inputs so that the later calls of the run see it, and in the outputs for refresh.
 */
export function claimed(definition: ClaimedKind, handler: ResourceHandler): ResourceHandler {
  const { kind } = definition;
  return {
    async check(olds, news) {
      const result = await handler.check(olds, news);
      if (claimantOf(news) === undefined) return result;
      const inputs = { ...(result.inputs ?? {}), [CLAIMANT_KEY]: news[CLAIMANT_KEY] };
      if (result.failures?.length || containsUnknown(news.connection)) return { ...result, inputs };
      const scope = `connection:${JSON.stringify(news.connection ?? null)}`;
      const refused = takeKeys(definition, scope, inputs);
      if (!refused) return { ...result, inputs };
      return {
        inputs,
        failures: [...(result.failures ?? []), { property: refused.property ?? "", reason: refused.message }],
      };
    },

    // An `up` checks resolved inputs, so check took the keys; diff adds the id the resource records.
    async diff(id, olds, news) {
      recordedInState(noteScope(kind, news, olds), id);
      holdObject(definition, id, news);
      return handler.diff(id, olds, news);
    },

    async create(inputs) {
      const claimant = claimantOf(inputs);
      const keys = definition.claim?.keys(inputs);
      if (claimant === undefined || keys === undefined) {
        const result = await handler.create(inputs);
        holdObject(definition, result.id, inputs);
        return { ...result, outs: withClaimant(result.outs, inputs) };
      }
      const organizationId = await organizationOf(inputs);
      const refused = takeKeys(definition, `organization:${organizationId}`, inputs);
      if (refused) throw refused;
      const identity: CreateIdentity = {
        project: process.env.PULUMI_PROJECT ?? "",
        stack: stackOf(inputs),
        claimant,
        kind,
        organizationId,
        key: keys.join("\0"),
      };
      const running = slotOf(kind, claimant);
      creating.set(running, identity);
      try {
        offered.set(running, new Set());
        const result = await journaled(identity, async () => {
          const made = await handler.create(inputs);
          holdObject(definition, made.id, inputs);
          if (offered.get(running)?.has(made.id.toLowerCase()))
            runLedger.recordRepair(repairedObject(kind, made.id));
          return made;
        });
        return { ...result, outs: withClaimant(result.outs, inputs) };
      } finally {
        creating.delete(running);
        offered.delete(running);
      }
    },

    async read(id, props) {
      recordedInState(noteScope(kind, props), id);
      const result = await handler.read(id, props);
      return {
        ...result,
        props: withClaimant(result.props, props),
        inputs: withClaimant(result.inputs, props),
      };
    },

    async update(id, olds, news) {
      recordedInState(noteScope(kind, news, olds), id);
      holdObject(definition, id, news);
      const result = await handler.update(id, olds, news);
      return { ...result, outs: withClaimant(result.outs, news) };
    },

    async delete(id, props) {
      recordedInState(noteScope(kind, props), id);
      // The old instance of a resource whose create in this run repaired a killed run's by taking this very
      // object over (runLedger.ts): the new instance records it, so the old one is only forgotten.
      if (runLedger.wasRepaired(repairedObject(kind, id))) return;
      await handler.delete(id, props);
      claims.release(slotOf("id", kind, id));
    },
  };
}
