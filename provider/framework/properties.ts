/**
 * Each kind declares each of its properties once, here-shaped: its schema (type, default, the error a bad value
 * gets), how a change is applied (in place or by a new object), whether it is secret, how the API shows it, and
 * the equality that keeps a read from showing a change that is not there. The input schema `check` applies,
 * the diff spec, the outputs, the inputs a refresh reports and the object the resource class registers all come
 * from that one declaration; the public `Args` interface (written out for its TSDoc) is checked against it at
 * compile time (`ArgsMatch` in kind.ts).
 */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { adoptIdSchema, connectionSchema } from "./schemas";
import { jsonClean, type Props } from "./protocol";
import { guardedInput } from "./inputIntegrity";

/** How a change to a property reaches the object. */
export type Change =
  /** Applied to the live object in place. */
  | "update"
  /** Needs a new object (delete first for a natural key: see the kind table). */
  | "replace"
  /** Read only by create (an adoption id, an ordinal): later changes are recorded, never sent. */
  | "createOnly";

export interface PropertySpec<Live = never, T = unknown> {
  /** Validates and normalises the declared value at `check`; its messages name the property and the fix. */
  schema: z.ZodType<T, unknown>;
  change: Change;
  /** Where the API shows it, for outputs and refresh; absent: the declared value travels as it is. */
  fromLive?: (live: Live) => T;
  /** The value an absent property counts as in a diff (so `parentId: undefined` equals `parentId: null`). */
  default?: T;
  /** Equality where plain equality would report a change that is not there (case, order). */
  equal?: (a: unknown, b: unknown) => boolean;
  /** Registered as a secret: the engine then keeps it, and the output of the same name, encrypted. */
  secret?: boolean;
  /** What the property is, in a sentence or two: the plugin's schema and the SDKs generated from it show it. */
  description?: string;
}

export type PropertySpecs<Live> = Record<string, PropertySpec<Live, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A property's value after `check`. */
export type ValueOf<S> = S extends PropertySpec<any, infer T> ? T : never; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The properties whose value after `check` may be absent (optional, without a default). */
type OptionalKeys<P> = { [K in keyof P]: undefined extends ValueOf<P[K]> ? K : never }[keyof P];

/**
 * The declared state of a kind: every property after `check`, a property that may be absent as an optional key.
 * One object type (not an intersection), so editors show it and it stays assignable to `Props`.
 */
export type StateOf<P> = Flat<
  { [K in Exclude<keyof P, OptionalKeys<P>>]: ValueOf<P[K]> } & { [K in OptionalKeys<P>]?: ValueOf<P[K]> }
>;
type Flat<T> = { [K in keyof T]: T[K] };

/**
 * A property's value as `check` leaves it: what its schema produces. Narrower than `ValueOf` where the API can
 * show a value no declaration may give (a user without an organization-wide role has no defaultRoleId).
 */
export type CheckedValueOf<S> = S extends { schema: infer Z extends z.ZodType } ? z.output<Z> : never;

type OptionalCheckedKeys<P> = { [K in keyof P]: undefined extends CheckedValueOf<P[K]> ? K : never }[keyof P];

/** The declared state as `check` returns it: every property as its schema produced it. */
export type CheckedStateOf<P> = Flat<
  { [K in Exclude<keyof P, OptionalCheckedKeys<P>>]: CheckedValueOf<P[K]> } & {
    [K in OptionalCheckedKeys<P>]?: CheckedValueOf<P[K]>;
  }
>;

/**
 * The two properties every kind has: adoption of an existing object, and its own connection. The whole
 * connection is secret, not just its token: the engine marks an output secret only when the input of the same
 * name is secret, and the connection travels to outputs (delete needs it).
 */
export const carried = {
  adoptId: {
    schema: adoptIdSchema,
    change: "createOnly",
    description:
      "The id of an existing object to take over instead of creating one (read by create only; the error of a " +
      "create that met the object gives it).",
  },
  connection: {
    schema: connectionSchema,
    change: "update",
    secret: true,
    description:
      "This resource's own connection to another organization's API (default: the provider's configuration). " +
      "Kept secret.",
  },
} as const satisfies PropertySpecs<never>;

/** The zod shape `check` validates, property by property, in declaration order. */
export function schemaShape(properties: PropertySpecs<never>): Record<string, z.ZodType> {
  return Object.fromEntries(Object.entries(properties).map(([key, spec]) => [key, spec.schema]));
}

/**
 * The diff spec. `connection` is left to `diffProperties`, which asks whether a changed connection still reaches
 * the same organization.
 */
export function diffSpecOf(properties: PropertySpecs<never>, naturalKey: boolean) {
  const entries = Object.entries(properties).filter(([key]) => key !== "connection");
  const keysWith = (change: Change) =>
    entries.filter(([, spec]) => spec.change === change).map(([key]) => key);
  const defaults: Record<string, unknown> = {};
  const equal: Record<string, (a: unknown, b: unknown) => boolean> = {};
  for (const [key, spec] of entries) {
    if (spec.default !== undefined) defaults[key] = spec.default;
    if (spec.equal) equal[key] = spec.equal;
  }
  return { updatable: keysWith("update"), replaceOn: keysWith("replace"), defaults, equal, naturalKey };
}

/** The state a live object is in, by the declared mappings; declared-only properties come from `props`. */
export function stateFrom<Live, P extends PropertySpecs<Live>>(
  properties: P,
  live: Live,
  props: Props,
): Props {
  const state: Props = {};
  for (const [key, spec] of Object.entries(properties)) {
    state[key] = spec.fromLive ? spec.fromLive(live) : props[key];
  }
  return jsonClean(state);
}

/** The keys of the properties the API shows (those with `fromLive`). */
export type LiveKeys<P> = {
  [K in keyof P]: P[K] extends { fromLive: (live: never) => unknown } ? K : never;
}[keyof P];

/**
 * What the API shows of a live object, by the declared mappings only: the one live → state mapping of a kind,
 * which its handlers' outputs (`stateFrom`), the drift report's compared fields and the exporter's model share.
 */
export function liveStateOf<Live, P extends PropertySpecs<Live>>(
  properties: P,
  live: Live,
): Pick<StateOf<P>, LiveKeys<P> & keyof StateOf<P>> {
  const state: Props = {};
  for (const [key, spec] of Object.entries(properties)) if (spec.fromLive) state[key] = spec.fromLive(live);
  return jsonClean(state) as Pick<StateOf<P>, LiveKeys<P> & keyof StateOf<P>>;
}

/**
 * How the drift report compares a recorded output with the live value, per property the API shows: the
 * property's own `equal` (the one that keeps a read from showing a change that is not there), else equality of
 * values with absent and null alike.
 */
export function comparedOf(
  properties: PropertySpecs<never>,
): Record<string, (a: unknown, b: unknown) => boolean> {
  const compared: Record<string, (a: unknown, b: unknown) => boolean> = {};
  for (const [key, spec] of Object.entries(properties)) {
    if (!spec.fromLive) continue;
    const fallback = spec.default;
    const equal = spec.equal ?? sameValue;
    compared[key] = (a, b) => equal(a ?? fallback ?? null, b ?? fallback ?? null);
  }
  return compared;
}

/** Deep equality with absent and null alike, and object keys in any order. */
function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

/** A value with its objects' keys sorted and absent as null: JSON text that is equal exactly when the values are. */
export function canonical(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== undefined && v !== null)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => [k, canonical(v)]),
    );
  }
  return value;
}

/** What refresh reports as the inputs that would produce a recorded output: the declared properties only. */
export function liveInputsOf(properties: PropertySpecs<never>, outputs: Props): Props {
  return jsonClean(Object.fromEntries(Object.keys(properties).map((key) => [key, outputs[key]])));
}

/**
 * The object a resource class registers: each declared argument (secret ones wrapped, so the engine encrypts
 * them and the outputs of the same name), and every output as undefined so the class's output properties exist.
 */
export function registeredInputs(
  properties: PropertySpecs<never>,
  outputs: readonly string[],
  args: object,
): pulumi.Inputs {
  const inputs: pulumi.Inputs = {};
  for (const [key, spec] of Object.entries(properties)) {
    // An absent adoption id or connection is not registered: no class shows either as an output, and the SDK
    // makes an output (four promises) of every registered key; absent and undefined reach the engine alike.
    if (key in carried && (args as Record<string, unknown>)[key] === undefined) continue;
    // Never sent altered: a value the engine's protocol would change silently becomes a check failure.
    const value = guardedInput((args as Record<string, unknown>)[key], key);
    inputs[key] = spec.secret && value !== undefined ? pulumi.secret(value) : value;
  }
  for (const key of ["organizationId", ...outputs]) inputs[key] = undefined;
  return inputs;
}
