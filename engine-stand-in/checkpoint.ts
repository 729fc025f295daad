/** The state as a checkpoint (`pulumi stack export`'s shape), with every secret encrypted. */
import * as crypto from "crypto";
import { SECRET_SIG, SECRET_SIG_KEY, type PropertyMap, type PropertyValue } from "./plugin";
import type { PendingOperation, StateEntry } from "./types";
import { isSecret, makeSecret, reveal } from "./values";

/** The default provider of dynamic resources, whose inputs are the config the plugin was configured with. */
export const DEFAULT_PROVIDER_URN_NAME = "default";
export const DEFAULT_PROVIDER_TYPE = "pulumi:providers:pulumi-nodejs";

/**
 * Stands in for the stack's secrets provider: values are encrypted with a key held in memory (a random one, or
 * the key a checkpoint being loaded was written with).
 */
export class SecretsCipher {
  constructor(private readonly key: Buffer = crypto.randomBytes(32)) {}

  encrypt(value: PropertyValue): PropertyValue {
    if (isSecret(value)) {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv("aes-256-gcm", this.key, iv);
      const sealed = Buffer.concat([cipher.update(JSON.stringify(reveal(value)), "utf8"), cipher.final()]);
      const ciphertext = `v1:${iv.toString("base64")}:${Buffer.concat([sealed, cipher.getAuthTag()]).toString("base64")}`;
      return { [SECRET_SIG_KEY]: SECRET_SIG, ciphertext } as PropertyMap;
    }
    if (Array.isArray(value)) return value.map((v) => this.encrypt(v));
    if (typeof value === "object" && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.encrypt(v)]));
    }
    return value;
  }

  decrypt(ciphertext: string): unknown {
    const [version, iv, sealed] = ciphertext.split(":");
    if (version !== "v1" || !iv || !sealed) throw new Error("not an engine stand-in checkpoint ciphertext");
    const bytes = Buffer.from(sealed, "base64");
    const decipher = crypto.createDecipheriv("aes-256-gcm", this.key, Buffer.from(iv, "base64"));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    const plain = Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]);
    return JSON.parse(plain.toString("utf8"));
  }
}

export function checkpointOf(
  stackPrefix: string,
  state: StateEntry[],
  providerInputs: PropertyMap | undefined,
  pending: PendingOperation[],
  cipher: SecretsCipher,
): object {
  const providerUrn = `${stackPrefix}::${DEFAULT_PROVIDER_TYPE}::${DEFAULT_PROVIDER_URN_NAME}`;
  const providerRef = `${providerUrn}::default`;
  const provider = providerInputs
    ? [
        {
          urn: providerUrn,
          custom: true,
          id: "default",
          type: DEFAULT_PROVIDER_TYPE,
          inputs: cipher.encrypt(providerInputs),
          outputs: cipher.encrypt(providerInputs),
        },
      ]
    : [];
  const resources = state.map((e) => ({
    urn: e.urn,
    custom: e.custom,
    ...(e.pendingDelete ? { delete: true } : {}),
    ...(e.id ? { id: e.id } : {}),
    type: e.type,
    inputs: cipher.encrypt(e.inputs),
    outputs: cipher.encrypt(e.outputs),
    ...(e.parent ? { parent: e.parent } : {}),
    ...(e.options.protect ? { protect: true } : {}),
    // apitype.ResourceV3 (sdk/go/common/apitype/core.go): `taint` and `pendingReplacement`, omitted when false.
    ...(e.taint ? { taint: true } : {}),
    ...(e.options.retainOnDelete ? { retainOnDelete: true } : {}),
    ...(e.options.deletedWith ? { deletedWith: e.options.deletedWith } : {}),
    ...(e.custom && providerInputs ? { provider: providerRef } : {}),
    dependencies: e.dependencies,
    propertyDependencies: e.propertyDependencies,
    ...(e.options.additionalSecretOutputs.length > 0
      ? { additionalSecretOutputs: e.options.additionalSecretOutputs }
      : {}),
    ...(e.initErrors ? { initErrors: e.initErrors } : {}),
    ...(e.pendingReplacement ? { pendingReplacement: true } : {}),
  }));
  return {
    version: 3,
    deployment: {
      manifest: {
        time: new Date().toISOString(),
        magic: "pulumi-devicemgmt engine stand-in",
        version: "3.270.0",
      },
      secrets_providers: { type: "stand-in", state: { cipher: "aes-256-gcm", key: "held in memory" } },
      resources: [...provider, ...resources],
      ...(pending.length > 0
        ? {
            pending_operations: pending.map((op) => ({
              resource: {
                urn: op.urn,
                type: op.resourceType,
                ...(op.id ? { id: op.id } : {}),
                inputs: cipher.encrypt(op.inputs),
              },
              type: op.type,
            })),
          }
        : {}),
    },
  };
}

/** What a checkpoint holds (`checkpointOf` in reverse): the state, the default provider's inputs, the pending. */
export interface RestoredCheckpoint {
  state: StateEntry[];
  providerInputs?: PropertyMap;
  pending: PendingOperation[];
}

type CheckpointResource = Omit<StateEntry, "name" | "options" | "pendingDelete"> & {
  delete?: boolean;
  protect?: boolean;
  retainOnDelete?: boolean;
  deletedWith?: string;
  additionalSecretOutputs?: string[];
};

/** Reads a checkpoint `checkpointOf` wrote (this stand-in's, or an older one's), decrypting with `cipher`. */
export function restoreCheckpoint(checkpoint: unknown, cipher: SecretsCipher): RestoredCheckpoint {
  const { deployment } = checkpoint as {
    deployment: {
      resources: CheckpointResource[];
      pending_operations?: { resource: PendingResource; type: string }[];
    };
  };
  const decrypt = (value: PropertyValue): PropertyValue => {
    if (Array.isArray(value)) return value.map(decrypt);
    if (typeof value !== "object" || value === null) return value;
    const { ciphertext } = value;
    if (isSecret(value) && typeof ciphertext === "string") {
      return makeSecret(cipher.decrypt(ciphertext) as PropertyValue);
    }
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decrypt(v)]));
  };
  const provider = deployment.resources.find((r) => r.type === DEFAULT_PROVIDER_TYPE);
  const state = deployment.resources
    .filter((r) => r.type !== DEFAULT_PROVIDER_TYPE)
    .map((r): StateEntry => ({
      urn: r.urn,
      type: r.type,
      name: r.urn.slice(r.urn.lastIndexOf("::") + 2),
      custom: r.custom,
      ...(r.parent ? { parent: r.parent } : {}),
      ...(r.id ? { id: r.id } : {}),
      inputs: decrypt(r.inputs) as PropertyMap,
      outputs: decrypt(r.outputs) as PropertyMap,
      dependencies: r.dependencies ?? [],
      propertyDependencies: r.propertyDependencies ?? {},
      // What the program sets each run (deleteBeforeReplace, ignoreChanges, ...) is not in a checkpoint.
      options: {
        protect: r.protect ?? false,
        ignoreChanges: [],
        replaceOnChanges: [],
        additionalSecretOutputs: r.additionalSecretOutputs ?? [],
        retainOnDelete: r.retainOnDelete ?? false,
        ...(r.deletedWith ? { deletedWith: r.deletedWith } : {}),
      },
      ...(r.initErrors ? { initErrors: r.initErrors } : {}),
      ...(r.delete ? { pendingDelete: true } : {}),
      ...(r.pendingReplacement ? { pendingReplacement: true } : {}),
      ...(r.taint ? { taint: true } : {}),
    }));
  const pending = (deployment.pending_operations ?? []).map(({ resource, type }) => ({
    type: type as PendingOperation["type"],
    urn: resource.urn,
    resourceType: resource.type,
    inputs: decrypt(resource.inputs) as PropertyMap,
    ...(resource.id ? { id: resource.id } : {}),
  }));
  return { state, ...(provider ? { providerInputs: decrypt(provider.inputs) as PropertyMap } : {}), pending };
}

interface PendingResource {
  urn: string;
  type: string;
  id?: string;
  inputs: PropertyMap;
}
