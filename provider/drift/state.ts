/**
 * Reads `pulumi stack export` files (checkpoint version 3, or 4 when the state uses a feature such as a taint),
 * and the checkpoint files a file backend keeps (`~/.pulumi/stacks/<project>/<stack>.json`, gzipped or not),
 * into the resources this provider manages, with every secret replaced by a placeholder before anything else
 * sees the values: what the report prints can never hold a secret of the state, whatever it prints.
 */
import { readFile } from "node:fs/promises";
import * as path from "node:path";
import { gunzipSync } from "node:zlib";
import { LEGACY_TYPE, typeToken } from "../dynamic";
import { resourceToken } from "../pluginToken";
import type { ResourceKind } from "../kindKeys";
import { KINDS } from "../kinds";

export {
  SECRET,
  SECRET_SIGNATURE_KEY,
  type ManagedResource,
  type Secret,
  type StateProps,
  type StateValue,
} from "../framework";
import {
  SECRET,
  SECRET_SIGNATURE_KEY,
  type ManagedResource,
  type StateProps,
  type StateValue,
} from "../framework";

export interface StackState {
  /** `<project>/<stack>` from the URNs, or the file's name when it holds no resource. */
  stack: string;
  file: string;
  resources: ManagedResource[];
  /** Resources of this provider whose kind could not be told, by URN (reported, never guessed). */
  unknown: string[];
  /** Resources of this provider whose values could not be read, with why (reported, not compared). */
  unreadable: Array<{ urn: string; reason: string }>;
}

/** A stack export the report cannot read: which file, and what is wrong with it (the message says both). */
export class StateFileError extends Error {
  constructor(
    readonly file: string,
    readonly problem: string,
  ) {
    super(`${file}: ${problem}`);
    this.name = "StateFileError";
  }
}

/** Deeper than any value this provider writes (a few levels): a resource with a value beyond it is not read. */
export const MAX_VALUE_DEPTH = 100;

/** Whether a value nests deeper than `limit` (walked without recursion: the value may nest 200,000 deep). */
function nestsDeeper(value: unknown, limit: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [v, depth] = next;
    if (v === null || typeof v !== "object") continue;
    if (depth >= limit) return true;
    for (const child of Object.values(v)) pending.push([child, depth + 1]);
  }
  return false;
}

/**
 * The kind of each type token this provider registers, from the kind table: the dynamic resources'
 * (`pulumi-nodejs:dynamic/devicemgmt:User`) and the plugin's (`devicemgmt:index:User`), which record the same
 * outputs.
 */
const KIND_OF_TOKEN = new Map<string, ResourceKind>(
  (Object.keys(KINDS) as ResourceKind[]).flatMap((kind) => [
    [typeToken(KINDS[kind].type), kind],
    [resourceToken(KINDS[kind].type), kind],
  ]),
);

/** Whether a type token is one of this provider's (a kind it has today, or one a newer version may add). */
const isOurs = (type: string) =>
  type.startsWith(typeToken("")) || type.startsWith(resourceToken("")) || type === LEGACY_TYPE;

/** A value with its secrets replaced (recursive: for values no deeper than MAX_VALUE_DEPTH). */
function masked(value: unknown): StateValue {
  if (Array.isArray(value)) return value.map(masked);
  if (value !== null && typeof value === "object") {
    if (Object.hasOwn(value, SECRET_SIGNATURE_KEY)) return SECRET;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, masked(v)]));
  }
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return value;
  return null;
}

/**
 * The kind of a resource registered as the SDK's default type (the 0.1 release): its serialized provider calls
 * `handler(kind)` (or, written by today's package, `provider(kind)`) with the kind as a string, which the
 * `__provider` text shows; when that text does not
 * say (a provider serialized some other way), the outputs' own keys tell the kinds apart.
 */
export function legacyKind(
  inputs: Record<string, unknown>,
  outputs: Record<string, unknown>,
): ResourceKind | undefined {
  const provider = typeof inputs.__provider === "string" ? inputs.__provider : "";
  const named = new Set<ResourceKind>();
  for (const match of provider.matchAll(
    /\bkind\s*[:=]\s*["'`](\w+)["'`]|(?:handler|provider)\(\s*["'`](\w+)["'`]\s*\)/g,
  )) {
    const kind = (match[1] ?? match[2]) as ResourceKind;
    // Own kinds only: "constructor" or "__proto__" is `in` every object, and no kind of this provider.
    if (Object.hasOwn(KINDS, kind)) named.add(kind);
  }
  if (named.size === 1) return [...named][0];
  const has = (...keys: string[]) => keys.every((key) => key in outputs);
  if (has("email", "defaultRoleId")) return "user";
  if (has("groupId", "releaseChannelId")) return "groupReleaseChannel";
  if (has("deviceId", "releaseChannelId")) return "deviceReleaseChannel";
  if (has("deviceId", "organizationSlug")) return "deviceMigration";
  if (has("name", "configured")) return "group";
  return undefined;
}

interface CheckpointResource {
  urn?: unknown;
  type?: unknown;
  id?: unknown;
  custom?: unknown;
  delete?: unknown;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/** `urn:pulumi:<stack>::<project>::<type>::<name>` → stack, project and name. */
function urnParts(urn: string): { stack: string; project: string; name: string } | undefined {
  const parts = urn.split("::");
  if (parts.length < 4 || !parts[0].startsWith("urn:pulumi:")) return undefined;
  return { stack: parts[0].slice("urn:pulumi:".length), project: parts[1], name: parts[parts.length - 1] };
}

/**
 * The checkpoint versions Pulumi 3 writes: 3, and 4 when the state uses a feature older CLIs cannot read (it
 * then lists them in `features`: a taint, a byte string, hooks, ...). The resources have the same shape in both;
 * the fields read here are in every one.
 */
const READABLE_VERSIONS = [3, 4];

interface Deployment {
  resources?: unknown;
}

/**
 * The deployment of a stack export (`{ version, deployment }`) or of a file backend's checkpoint file
 * (`{ version, checkpoint: { stack, latest } }`, where `latest` is the deployment `pulumi stack export` shows,
 * absent before the first `up`); the same versions of either are read.
 */
function deploymentOf(text: string, file: string): Deployment {
  let checkpoint: {
    version?: unknown;
    deployment?: Deployment;
    checkpoint?: { latest?: Deployment | null };
  };
  try {
    checkpoint = JSON.parse(text) as typeof checkpoint;
  } catch {
    throw new StateFileError(file, "not JSON: give the output of `pulumi stack export --file <file>`.");
  }
  const isObject = (v: unknown): v is object => v !== null && typeof v === "object" && !Array.isArray(v);
  const readable = READABLE_VERSIONS.includes(checkpoint?.version as number);
  if (readable && isObject(checkpoint.deployment)) return checkpoint.deployment;
  const stored = isObject(checkpoint) ? checkpoint.checkpoint : undefined;
  if (readable && isObject(stored)) {
    const latest = stored.latest ?? {};
    if (isObject(latest)) return latest;
    throw new StateFileError(file, "checkpoint.latest is not an object.");
  }
  throw new StateFileError(
    file,
    `not a stack export or a checkpoint file of version 3 or 4 (its "version" is ` +
      `${JSON.stringify(checkpoint?.version)}): give the output of \`pulumi stack export --file <file>\` from Pulumi 3.`,
  );
}

/**
 * Parses one stack export's text, or a file backend's checkpoint file; `file` names it in errors and in the
 * report.
 */
export function parseStackExport(text: string, file: string): StackState {
  const deployment = deploymentOf(text, file);
  const listed = deployment.resources ?? [];
  if (!Array.isArray(listed)) throw new StateFileError(file, "deployment.resources is not a list.");
  const resources: ManagedResource[] = [];
  const unknown: string[] = [];
  const unreadable: StackState["unreadable"] = [];
  let stack: string | undefined;
  for (const entry of listed as CheckpointResource[]) {
    if (typeof entry?.urn !== "string" || typeof entry.type !== "string" || entry.custom !== true) continue;
    if (entry.delete === true || typeof entry.id !== "string" || entry.id === "") continue;
    const parts = urnParts(entry.urn);
    if (!parts) continue;
    stack ??= `${parts.project}/${parts.stack}`;
    const isRecord = (v: unknown) =>
      v === undefined || (v !== null && typeof v === "object" && !Array.isArray(v));
    if (!isRecord(entry.inputs) || !isRecord(entry.outputs)) {
      if (isOurs(entry.type)) {
        unreadable.push({ urn: entry.urn, reason: "its inputs or outputs are not an object" });
      }
      continue;
    }
    const outputs = entry.outputs ?? {};
    let kind: ResourceKind | undefined;
    if (entry.type.startsWith(typeToken("")) || entry.type.startsWith(resourceToken(""))) {
      kind = KIND_OF_TOKEN.get(entry.type);
    } else if (entry.type === LEGACY_TYPE) {
      const provider =
        [entry.inputs?.__provider, outputs.__provider].find((p): p is string => typeof p === "string") ?? "";
      // Other dynamic providers share the legacy type: only ours require this package's runtime.
      if (!provider.includes("pulumi-devicemgmt")) continue;
      kind = legacyKind({ __provider: provider }, outputs);
    } else continue;
    if (!kind) {
      unknown.push(entry.urn);
      continue;
    }
    const { __provider: _provider, ...rest } = outputs;
    void _provider;
    if (nestsDeeper(rest, MAX_VALUE_DEPTH)) {
      unreadable.push({
        urn: entry.urn,
        reason: `a value is nested more than ${MAX_VALUE_DEPTH} levels deep`,
      });
      continue;
    }
    resources.push({
      kind,
      stack: `${parts.project}/${parts.stack}`,
      urn: entry.urn,
      name: parts.name,
      id: entry.id,
      outputs: masked(rest) as StateProps,
      declared: Object.keys(entry.inputs ?? {}).filter((key) => key !== "__provider"),
    });
  }
  return { stack: stack ?? path.basename(file), file, resources, unknown, unreadable };
}

/** The first bytes of a gzip stream: a file backend gzips its checkpoints when PULUMI_SELF_MANAGED_STATE_GZIP is set. */
const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);

export async function readStackExport(file: string): Promise<StackState> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw new StateFileError(file, `Cannot read the stack export: ${(error as Error).message}`);
  }
  if (bytes.subarray(0, 2).equals(GZIP_MAGIC)) {
    try {
      bytes = gunzipSync(bytes);
    } catch (error) {
      throw new StateFileError(file, `Cannot read the gzipped file: ${(error as Error).message}`);
    }
  }
  return parseStackExport(bytes.toString("utf8"), file);
}
