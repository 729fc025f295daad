/**
 * The stack's checkpoint as the CLI's file backend wrote it (`<backend>/.pulumi/stacks/<project>/<stack>.json`),
 * read synchronously so tests can look at the state between runs; secrets stay encrypted, as on disk.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isEngineResource, nameOf } from "./events";
import type { PendingOperation, ResourceView } from "./types";

const SECRET_SIG_KEY = "4dabf18193072939515e22adb298388d";
const PROVIDER_KEY = "__provider";

interface CheckpointResource {
  urn: string;
  type: string;
  custom: boolean;
  id?: string;
  parent?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  dependencies?: string[];
  protect?: boolean;
  retainOnDelete?: boolean;
  deletedWith?: string;
  initErrors?: string[];
  delete?: boolean;
  pendingReplacement?: boolean;
  taint?: boolean;
}

export interface Deployment {
  manifest?: unknown;
  secrets_providers?: unknown;
  resources?: CheckpointResource[];
  pending_operations?: Array<{ type: string; resource: CheckpointResource }>;
}

export function checkpointFile(backend: string, project: string, stack: string): string {
  return join(backend, ".pulumi", "stacks", project, `${stack}.json`);
}

/** The latest deployment, as `pulumi stack export` shows it: `{ version, deployment }`. */
export function readCheckpoint(file: string): { version: number; deployment: Deployment } {
  if (!existsSync(file)) return { version: 3, deployment: {} };
  const stored = JSON.parse(readFileSync(file, "utf8")) as {
    version: number;
    checkpoint: { latest?: Deployment };
  };
  return { version: stored.version, deployment: stored.checkpoint.latest ?? {} };
}

const secretKeys = (map: Record<string, unknown> = {}) =>
  Object.entries(map)
    .filter(([, value]) => typeof value === "object" && value !== null && SECRET_SIG_KEY in value)
    .map(([key]) => key)
    .sort();

function withoutProvider(map: Record<string, unknown> = {}): Record<string, unknown> {
  const { [PROVIDER_KEY]: _provider, ...rest } = map;
  return rest;
}

export function viewOf(resource: CheckpointResource): ResourceView {
  return {
    urn: resource.urn,
    type: resource.type,
    name: nameOf(resource.urn),
    custom: resource.custom,
    ...(resource.parent ? { parent: resource.parent } : {}),
    ...(resource.id ? { id: resource.id } : {}),
    inputs: withoutProvider(resource.inputs),
    outputs: withoutProvider(resource.outputs),
    secretInputs: secretKeys(resource.inputs),
    secretOutputs: secretKeys(resource.outputs),
    dependencies: resource.dependencies ?? [],
    protect: resource.protect ?? false,
    ...(resource.retainOnDelete ? { retainOnDelete: true } : {}),
    ...(resource.deletedWith ? { deletedWith: resource.deletedWith } : {}),
    ...(resource.initErrors?.length ? { initErrors: resource.initErrors } : {}),
    ...(resource.delete ? { pendingDelete: true } : {}),
    ...(resource.pendingReplacement ? { pendingReplacement: true } : {}),
    ...(resource.taint ? { taint: true } : {}),
  };
}

/** The program's resources in checkpoint order (the stack and the default provider left out). */
export function resourceViews(deployment: Deployment): ResourceView[] {
  return (deployment.resources ?? []).filter((r) => !isEngineResource(r.type)).map(viewOf);
}

export function pendingOperations(deployment: Deployment): PendingOperation[] {
  return (deployment.pending_operations ?? []).map((operation) => ({
    type: operation.type as PendingOperation["type"],
    urn: operation.resource.urn,
    resourceType: operation.resource.type,
    ...(operation.resource.id ? { id: operation.resource.id } : {}),
  }));
}
