/**
 * Checks of the arguments a program passes to a lookup, made before any request: ids must be UUIDs (so an id
 * of ".." can never address another path) and names non-empty strings of at most 255 characters, as the v3 API
 * stores them. Every message names the lookup, the argument, what was given and how to call it.
 */
import { LookupArgumentError } from "../errors";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_NAME = 255;

/** A value safe and short enough to quote in a message. */
function shown(value: unknown): string {
  if (value === undefined) return "undefined";
  let text: string;
  try {
    text = typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

export class ArgumentChecker {
  constructor(
    private readonly lookup: string,
    private readonly args: Record<string, unknown>,
    /** How to call the lookup correctly, appended to every message. */
    private readonly usage: string,
  ) {}

  /** Refuses the call; `argument` names the argument at fault, when one is. */
  fail(problem: string, argument?: string): never {
    throw new LookupArgumentError(this.lookup, argument, problem, this.usage);
  }

  /** Refuses keys the lookup does not know (a misspelt `parentID` must not be silently ignored). */
  only(...known: string[]): void {
    for (const key of Object.keys(this.args)) {
      if (!known.includes(key)) {
        const close = known.find((k) => k.toLowerCase() === key.toLowerCase());
        this.fail(
          `unknown argument "${key}"${close ? ` (did you mean "${close}"?)` : ""}; it takes ${known.map((k) => `"${k}"`).join(", ")}.`,
          key,
        );
      }
    }
  }

  has(key: string): boolean {
    return this.args[key] !== undefined;
  }

  uuid(key: string, what: string): string {
    const value = this.args[key];
    if (typeof value !== "string" || !UUID.test(value)) {
      this.fail(
        `argument "${key}" must be the UUID of a ${what} (like "3f2504e0-4f89-41d3-9a0c-0305e82c3301"), got ${shown(value)}.`,
        key,
      );
    }
    return value;
  }

  name(key: string, what: string): string {
    const value = this.args[key];
    if (typeof value !== "string" || value.trim() === "" || value.length > MAX_NAME) {
      const why =
        typeof value === "string" && value.length > MAX_NAME ? `${value.length} characters` : shown(value);
      this.fail(
        `argument "${key}" must be the ${what} as a non-empty string of at most ${MAX_NAME} characters, got ${why}.`,
        key,
      );
    }
    return value;
  }

  oneOf<T extends string>(key: string, allowed: readonly T[]): T | undefined {
    const value = this.args[key];
    if (value === undefined) return undefined;
    if (!allowed.includes(value as T)) {
      this.fail(
        `argument "${key}" must be ${allowed.map((a) => `"${a}"`).join(" or ")} (or left out), got ${shown(value)}.`,
        key,
      );
    }
    return value as T;
  }
}

export function checker(lookup: string, args: unknown, usage: string): ArgumentChecker {
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    throw new LookupArgumentError(
      lookup,
      undefined,
      `expected an arguments object, got ${shown(args)}.`,
      usage,
    );
  }
  return new ArgumentChecker(lookup, args as Record<string, unknown>, usage);
}
