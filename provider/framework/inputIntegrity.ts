/**
 * Inputs that would reach the provider altered: an object key `__proto__` (the SDK's serializer and the
 * provider's schema copy objects by assignment, which drops it) and text with an unpaired UTF-16 surrogate
 * (the engine's protocol carries UTF-8, which cannot encode it: the character is dropped). The provider's
 * `check` would see the altered value and accept it, and every later diff would compare altered with altered,
 * so the change would never show. They are found where the program still holds the real value, in the
 * resource's constructor (for an Output, once it resolves), and the property's value is replaced by a refusal
 * that `check` reports as that property's failure, so the preview fails with the property and the fix.
 *
 * The refusal never carries the value (it may be secret): only where in the property the problem is.
 */
import * as pulumi from "@pulumi/pulumi";

/** The key of the object that stands for a refused value on its way to `check`. */
export const REFUSED = "devicemgmt:refused-input";

const UNPAIRED = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null &&
  typeof value === "object" &&
  [Object.prototype, null].includes(Object.getPrototypeOf(value) as object | null);

const isDeferred = (value: unknown) =>
  pulumi.Output.isInstance(value) || (value instanceof Promise && typeof value.then === "function");

/** Pure: what in a resolved value would be altered on its way to the provider, with where; undefined if nothing. */
export function alteredInput(value: unknown, path: string): string | undefined {
  if (typeof value === "string") {
    const at = value.search(UNPAIRED);
    return at < 0
      ? undefined
      : `${path} has an unpaired UTF-16 surrogate at position ${at}, which the engine's protocol cannot carry ` +
          `(it would be stored without it): correct the text (a character cut in half, e.g. by slicing an emoji).`;
  }
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = alteredInput(item, `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (!isPlainObject(value)) return undefined;
  for (const key of Object.keys(value)) {
    const found = alteredKey(key, path) ?? alteredInput(value[key], `${path}.${key}`);
    if (found) return found;
  }
  return undefined;
}

function alteredKey(key: string, path: string): string | undefined {
  if (key === "__proto__")
    return (
      `${path} has the key "__proto__", which is reserved in JavaScript and would be dropped on the way to the ` +
      `provider: rename it (e.g. in the portal), or leave it out.`
    );
  if (UNPAIRED.test(key))
    return `${path} has a key with an unpaired UTF-16 surrogate, which the engine's protocol cannot carry: correct the key.`;
  return undefined;
}

const refusal = (reason: string) => ({ [REFUSED]: reason });

/**
 * The value to register for `property`: as given when nothing in it would be altered; a refusal in place of
 * what would be. Outputs and promises are looked at when they resolve (an unknown value in a preview is not).
 */
export function guardedInput(value: unknown, path: string): unknown {
  if (isDeferred(value))
    return (pulumi.output(value as pulumi.Input<string>) as pulumi.Output<unknown>).apply((resolved) => {
      const reason = alteredInput(resolved, path);
      return reason === undefined ? resolved : refusal(reason);
    });
  if (!containsDeferred(value)) {
    const reason = alteredInput(value, path);
    return reason === undefined ? value : refusal(reason);
  }
  if (Array.isArray(value)) return value.map((item, i) => guardedInput(item, `${path}[${i}]`));
  for (const key of Object.keys(value as object)) {
    const reason = alteredKey(key, path);
    if (reason !== undefined) return refusal(reason);
  }
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, guardedInput(v, `${path}.${k}`)]),
  );
}

function containsDeferred(value: unknown): boolean {
  if (isDeferred(value)) return true;
  if (Array.isArray(value)) return value.some(containsDeferred);
  if (isPlainObject(value)) return Object.values(value).some(containsDeferred);
  return false;
}

/** At `check`: the reason of a refusal anywhere in a property's value, or undefined. */
export function refusalIn(value: unknown): string | undefined {
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = refusalIn(item);
      if (found) return found;
    }
    return undefined;
  }
  if (value === null || typeof value !== "object") return undefined;
  const record = value as Record<string, unknown>;
  if (typeof record[REFUSED] === "string") return record[REFUSED];
  for (const item of Object.values(record)) {
    const found = refusalIn(item);
    if (found) return found;
  }
  return undefined;
}
