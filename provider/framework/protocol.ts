/**
 * The dynamic-provider protocol as the handlers meet it: the engine's unknown value, the untyped CRUD the plugin
 * calls, what a partial failure hands back, and values made encodable.
 */
import type * as pulumi from "@pulumi/pulumi";

/** What the engine sends for a value it does not know yet (during preview). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value !== null && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}

export type Props = Record<string, unknown>;

/** The CRUD a resource kind implements; the plugin calls it through the thin serialized provider. */
export interface ResourceHandler {
  check(olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult>;
  diff(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult>;
  create(inputs: Props): Promise<pulumi.dynamic.CreateResult>;
  read(id: string, props: Props): Promise<pulumi.dynamic.ReadResult>;
  update(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult>;
  delete(id: string, props: Props): Promise<void>;
}

/**
 * Thrown when an operation changed the live object but could not finish. The dynamic-provider plugin turns an
 * error carrying `id` and `properties` into the engine's "resource initialization failed" answer, so the engine
 * records what exists (instead of forgetting a created object) and the next `up` diffs against it and repairs.
 */
export class PartialFailureError extends Error {
  readonly reasons: string[];
  constructor(
    readonly id: string,
    readonly properties: Props,
    cause: Error,
  ) {
    super(cause.message);
    this.name = "PartialFailureError";
    this.reasons = [cause.message];
  }
}

/** The plugin needs `__provider` in recorded properties to find the provider again on later operations. */
export function partialFailure(
  id: string,
  outputs: object,
  inputs: Props,
  cause: unknown,
): PartialFailureError {
  return new PartialFailureError(id, { ...outputs, __provider: inputs.__provider }, asError(cause));
}

/** A value thrown that is not an Error (a string, an object), wrapped so that it carries a message and a stack. */
export class NonErrorThrown extends Error {
  constructor(readonly value: unknown) {
    super(String(value));
    this.name = "NonErrorThrown";
  }
}

export function asError(value: unknown): Error {
  return value instanceof Error ? value : new NonErrorThrown(value);
}

/** Drops `undefined` everywhere: the plugin cannot encode it ("Unexpected struct type"). */
export function jsonClean<T>(value: T): T {
  if (Array.isArray(value)) return value.map(jsonClean) as T;
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) if (v !== undefined) out[key] = jsonClean(v);
    return out as T;
  }
  return value;
}
