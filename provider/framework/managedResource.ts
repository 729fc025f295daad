/**
 * A resource of a stack as the drift report sees it, apart from how state files are read (drift/state.ts): the
 * kinds' drift facets (facets.ts) name this type.
 */
import type { ResourceKind } from "../kindKeys";

/** Pulumi's marker of a secret value (`{"4dabf18193072939515e22adb298388d": "1b47…", "ciphertext": …}`). */
export const SECRET_SIGNATURE_KEY = "4dabf18193072939515e22adb298388d";

/** What a secret of the state becomes: never the value, and never equal to a live value. */
export const SECRET = Object.freeze({ secret: true as const });
export type Secret = typeof SECRET;

export type StateValue =
  string | number | boolean | null | Secret | StateValue[] | { [key: string]: StateValue };
export type StateProps = Record<string, StateValue>;

/** One resource of a stack that this provider manages. */
export interface ManagedResource {
  kind: ResourceKind;
  /** The stack it belongs to (from its URN), for the report. */
  stack: string;
  urn: string;
  /** The resource's name in its program (the URN's last part). */
  name: string;
  id: string;
  /** Outputs, secrets replaced by SECRET. */
  outputs: StateProps;
  /** The inputs the program gave (their names only): for kinds whose undeclared properties are not managed. */
  declared: string[];
}
