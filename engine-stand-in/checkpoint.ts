/** The state as a checkpoint (`pulumi stack export`'s shape), with every secret encrypted. */
import * as crypto from "crypto";
import { SECRET_SIG, SECRET_SIG_KEY, type PropertyMap, type PropertyValue } from "./plugin";
import type { PendingOperation, StateEntry } from "./types";
import { isSecret, reveal } from "./values";

/** The default provider of dynamic resources, whose inputs are the config the plugin was configured with. */
export const DEFAULT_PROVIDER_URN_NAME = "default";
export const DEFAULT_PROVIDER_TYPE = "pulumi:providers:pulumi-nodejs";

/** Stands in for the stack's secrets provider: values are encrypted with a key held in memory. */
export class SecretsCipher {
  private readonly key = crypto.randomBytes(32);

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
    ...(e.options.retainOnDelete ? { retainOnDelete: true } : {}),
    ...(e.custom && providerInputs ? { provider: providerRef } : {}),
    dependencies: e.dependencies,
    propertyDependencies: e.propertyDependencies,
    ...(e.options.additionalSecretOutputs.length > 0
      ? { additionalSecretOutputs: e.options.additionalSecretOutputs }
      : {}),
    ...(e.initErrors ? { initErrors: e.initErrors } : {}),
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
