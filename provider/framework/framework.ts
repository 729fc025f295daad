import type * as pulumi from "@pulumi/pulumi";
import { AdoptionError, NotCreatedHereError } from "../errors";
import { z } from "zod";
import { AmbiguousWriteError, NotFoundError } from "../client";
import { apiTokenProblem, baseUrlProblem } from "../connection";
import { clientForProps, connectionOf } from "./context";
import { runLedger } from "./runLedger";
import { refusalIn } from "./inputIntegrity";

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

/**
 * Validates inputs property by property so that `pulumi preview` shows one failure per bad property, each with a
 * readable reason. Values not known yet (preview) pass and are kept as they are; engine-internal keys (`__*`)
 * are left alone.
 */
export function checkProperties<Shape extends z.ZodRawShape>(
  resourceName: string,
  shape: Shape,
  news: Props,
): { inputs: Props; failures: pulumi.dynamic.CheckFailure[] } {
  const inputs: Props = {};
  const failures: pulumi.dynamic.CheckFailure[] = [];
  for (const key of Object.keys(news)) {
    if (key.startsWith("__")) continue;
    if (!(key in shape))
      failures.push({ property: key, reason: `${key} is not a property of ${resourceName}.` });
  }
  for (const [key, schema] of Object.entries(shape) as [string, z.ZodType][]) {
    const value = news[key];
    const refused = refusalIn(value); // a value the program would have sent altered (inputIntegrity.ts)
    if (refused !== undefined) {
      failures.push({ property: key, reason: refused });
      continue;
    }
    if (containsUnknown(value)) {
      inputs[key] = value;
      continue;
    }
    const parsed = schema.safeParse(value);
    if (parsed.success) {
      if (parsed.data !== undefined) inputs[key] = parsed.data;
    } else {
      failures.push({ property: key, reason: describeIssues(key, parsed.error) });
    }
  }
  return { inputs: jsonClean(inputs), failures };
}

function describeIssues(key: string, error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const where = issue.path.length
        ? `${key}${issue.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("")}`
        : key;
      return `${where}: ${issue.message}`;
    })
    .join("; ");
}

/** A required, trimmed, non-empty text of at most `max` characters, its messages naming the property. */
export const requiredText = (
  property: string,
  max: number,
  tooLong = `${property} must be at most ${max} characters`,
) =>
  z
    .string({ error: `${property} is required and must be a string` })
    .trim()
    .min(1, { error: `${property} must not be empty` })
    .max(max, { error: tooLong });

/**
 * Strings the API takes as ids. Lowercased, as the API compares and returns them: an id written in capitals
 * would otherwise never equal what a read brings back, and show a change on every run.
 */
export const uuid = (what: string) =>
  z.guid({ error: `${what} must be an id (a UUID such as 3f2b…-…)` }).transform((id) => id.toLowerCase());

export const connectionSchema = z
  .object({
    baseUrl: z
      .string({ error: `connection.baseUrl must be a string such as https://host/api/v3` })
      .optional(),
    apiToken: z.string({ error: "connection.apiToken must be a string (a v3 access token)" }).optional(),
    allowInsecureHttp: z.boolean({ error: "connection.allowInsecureHttp must be true or false" }).optional(),
  })
  .strict()
  .superRefine((connection, ctx) => {
    if (connection.apiToken !== undefined) {
      const problem = apiTokenProblem(connection.apiToken, "connection.apiToken");
      if (problem) ctx.addIssue({ code: "custom", path: ["apiToken"], message: problem });
    }
    if (connection.baseUrl !== undefined && !containsUnknown(connection.baseUrl)) {
      const problem = baseUrlProblem(
        connection.baseUrl,
        "connection.baseUrl",
        connection.allowInsecureHttp === true,
      );
      if (problem) ctx.addIssue({ code: "custom", path: ["baseUrl"], message: problem });
    }
  })
  .optional();

export const adoptIdSchema = uuid("adoptId").optional();

/** The declared connection's organization: a change of base URL means another organization, so a replacement. */
export function connectionBaseUrl(props: Props): string | undefined {
  return connectionOf(props)?.baseUrl;
}

export interface PropertyDiffSpec {
  /** Properties that change in place. */
  updatable: string[];
  /** Properties whose change needs a new object. */
  replaceOn: string[];
  /** Per-property equality where plain equality would report a change that is not there. */
  equal?: Record<string, (a: unknown, b: unknown) => boolean>;
  /** Value used when a property is absent (so `parentId: undefined` equals `parentId: null`). */
  defaults?: Record<string, unknown>;
  /**
   * The object is identified by a natural key (an e-mail, an owner/channel pair) that cannot exist twice, so a
   * replacement must delete the old object before creating the new one.
   */
  naturalKey?: boolean;
}

/**
 * Pure: compares prior outputs with new inputs. Unknown new values count as changed.
 *
 * A changed `connection` replaces the object when it now points at another organization, and is otherwise an
 * in-place update (a new token must reach the recorded outputs: a later delete only sees those, and would
 * otherwise call with the old, perhaps revoked, token). `sameOrganization` is what the API said about that
 * (see `connectionStaysInOrganization`); without an answer a change of base URL counts as another organization.
 */
export function diffProperties(
  olds: Props,
  news: Props,
  spec: PropertyDiffSpec,
  sameOrganization?: boolean,
): pulumi.dynamic.DiffResult {
  const changed = (key: string): boolean => {
    const fallback = spec.defaults?.[key];
    const a = olds[key] ?? fallback;
    const b = news[key] ?? fallback;
    if (containsUnknown(b)) return true;
    const eq = spec.equal?.[key] ?? deepEqual;
    return !eq(a, b);
  };
  const replaces = spec.replaceOn.filter(changed);
  const updates = spec.updatable.filter(changed);
  const unknownConnection = containsUnknown(news.connection);
  if (unknownConnection || !deepEqual(olds.connection, news.connection)) {
    const otherOrganization =
      sameOrganization === undefined
        ? !unknownConnection && connectionBaseUrl(olds) !== connectionBaseUrl(news)
        : !sameOrganization;
    (otherOrganization ? replaces : updates).push("connection");
  }
  return {
    changes: replaces.length > 0 || updates.length > 0,
    replaces,
    deleteBeforeReplace: spec.naturalKey === true && replaces.length > 0,
  };
}

/**
 * Whether a changed `connection` still reaches the same organization, asked of the API (token info) for the
 * recorded and the declared connection — a token, not a URL, says which organization. undefined when the
 * connection did not change, is not known yet (preview), or either side cannot answer (e.g. the old token was
 * revoked, the usual reason to change it).
 */
export async function connectionStaysInOrganization(olds: Props, news: Props): Promise<boolean | undefined> {
  if (containsUnknown(news.connection) || deepEqual(olds.connection, news.connection)) return undefined;
  const organizationOf = async (props: Props) => {
    try {
      return (await clientForProps(props).assertV3Token()).organization_id;
    } catch {
      return undefined;
    }
  };
  const [before, after] = await Promise.all([organizationOf(olds), organizationOf(news)]);
  return before && after ? before === after : undefined;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  if (a && b && typeof a === "object" && typeof b === "object" && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a).filter((k) => (a as Props)[k] !== undefined);
    const kb = Object.keys(b).filter((k) => (b as Props)[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => deepEqual((a as Props)[k], (b as Props)[k]));
  }
  return false;
}

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
