/**
 * What every lookup shares (lookups.ts, contentLookups.ts, deviceModelLookups.ts, the kinds' lookups.ts): the
 * client, the exactly-one rule, by-id reads, and the Output forms.
 */
import * as pulumi from "@pulumi/pulumi";
import { LookupError } from "./errors";
import { clientFor, resolveConnection, stackSettingsFrom, type ConnectionInput } from "./connection";
import { refuseConnectionNow } from "./connectionAtCall";
import { NotFoundError, type App, type DeviceMgmtClient } from "./client";

/**
 * Lookups read the organization while the program runs (during preview too), like a Terraform data source.
 * Each comes as `getX` (a promise) and `getXOutput` (an Output that takes Inputs), the Pulumi convention.
 * Arguments are checked before any request: a wrong argument is an error naming it and the fix, never a
 * request for a path built from `undefined` or `..`.
 */
export interface LookupOptions {
  /** Another organization's API for this lookup only (default: the stack's `devicemgmt:*` config). */
  connection?: ConnectionInput;
}

/** The options of a getXOutput: the connection may come from Outputs, e.g. a secret from stack config. */
export interface LookupOutputOptions {
  /** Another organization's API for this lookup only; its fields may be Outputs (a secret token stays secret). */
  connection?: pulumi.Input<{
    baseUrl?: pulumi.Input<string>;
    apiToken?: pulumi.Input<string>;
    /** Lets a plain-http baseUrl reach another machine (the token then travels in clear); loopback needs no opt-in. */
    allowInsecureHttp?: pulumi.Input<boolean>;
  }>;
}

/**
 * A lookup that refuses at the call, by a synchronous throw, a connection that can never work (no token anywhere:
 * connectionAtCall.ts says why), instead of a rejected promise some language hosts never report. Its arguments'
 * checks and the API's answers come later, in the promise. A lookup so wrapped is a const: its TSDoc says
 * `@function`, so that the reference documents it as the function it is.
 */
export const lookup = <F extends (args: never, options?: LookupOptions) => Promise<unknown>>(fn: F): F =>
  ((args: never, options?: LookupOptions) => {
    refuseConnectionNow(options?.connection);
    return fn(args, options);
  }) as F;

/** {@link lookup} for a lookup that takes no arguments, only options. */
export const lookupWithoutArgs = <F extends (options?: LookupOptions) => Promise<unknown>>(fn: F): F =>
  ((options?: LookupOptions) => {
    refuseConnectionNow(options?.connection);
    return fn(options);
  }) as F;

export function lookupClient(options?: LookupOptions): DeviceMgmtClient {
  const stack = stackSettingsFrom((key) => pulumi.runtime.getConfig(key));
  return clientFor(resolveConnection(options?.connection, stack));
}

// ---- Results ------------------------------------------------------------------------------------------------

export function exactlyOne<T>(what: string, matches: T[], describe: (m: T) => string, nearby: string[]): T {
  if (matches.length === 1) return matches[0];
  throw new LookupError({ what, found: matches.map(describe), available: nearby });
}

/** The one app of that name (a lookup's first step); `describe` says how several are told apart. */
export async function appNamed(
  client: DeviceMgmtClient,
  name: string,
  describe: (app: App) => string = (app) => app.id,
): Promise<App> {
  const apps = await client.apps.all();
  return exactlyOne(
    `app named "${name}"`,
    apps.filter((a) => a.name === name),
    describe,
    apps.map((a) => a.name),
  );
}

/** A by-id read whose 404 says, in the program's terms, that nothing has that id. */
export async function byId<T>(what: string, id: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof NotFoundError) {
      throw new LookupError({ what: `${what} with id ${id} in the organization`, reason: error.message });
    }
    throw error;
  }
}

/** Each argument of a lookup as an Input, keeping the union's alternatives (and their excess-key checks). */
export type LookupInputs<A> = A extends unknown ? { [K in keyof A]: pulumi.Input<A[K]> } : never;

/** Resolves the options' Inputs; a secret token makes the result secret too, as Outputs do. */
export const resolvedOptions = (options?: LookupOutputOptions): pulumi.Output<LookupOptions> =>
  pulumi.output(options ?? {}) as pulumi.Output<LookupOptions>;

/** The Output forms refuse at the call too: a rejection inside an `apply` is what some hosts never report. */
export const toOutput =
  <A, R>(fn: (args: A, options?: LookupOptions) => Promise<R>) =>
  (args: LookupInputs<A>, options?: LookupOutputOptions): pulumi.Output<R> => {
    refuseConnectionNow(options?.connection);
    return pulumi
      .all([pulumi.output(args), resolvedOptions(options)])
      .apply(([resolved, opts]) => fn(resolved as unknown as A, opts));
  };

/** The Output form of a lookup whose arguments are all optional (called with none: every match). */
export const toOutputWithOptionalArgs =
  <A extends object, R>(fn: (args: A, options?: LookupOptions) => Promise<R>) =>
  (args?: LookupInputs<A>, options?: LookupOutputOptions): pulumi.Output<R> =>
    toOutput(fn)((args ?? {}) as LookupInputs<A>, options);

export const toOutputWithoutArgs =
  <R>(fn: (options?: LookupOptions) => Promise<R>) =>
  (options?: LookupOutputOptions): pulumi.Output<R> => {
    refuseConnectionNow(options?.connection);
    return resolvedOptions(options).apply((opts) => fn(opts));
  };
