/**
 * A checkpoint another engine can load: the stand-in's own secrets key stays in memory, so a test re-encrypts
 * the checkpoint's secrets with a key it holds, writes it, and gives the key to `loadState`.
 */
import * as crypto from "crypto";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type { Engine } from "../../engine-stand-in";
import { SecretsCipher } from "../../engine-stand-in/checkpoint";
import type { PropertyValue } from "../../engine-stand-in/plugin";
import { isSecret, makeSecret } from "../../engine-stand-in/values";

/** Writes `checkpoint` (from `from.checkpoint()`, perhaps edited) to a new file; returns it and the key. */
export function writeLoadableCheckpoint(checkpoint: object, from: Engine): { file: string; key: Buffer } {
  const key = crypto.randomBytes(32);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "stand-in-checkpoint-")), "checkpoint.json");
  fs.writeFileSync(file, JSON.stringify(reencrypt(checkpoint, from, new SecretsCipher(key))));
  return { file, key };
}

function reencrypt<T>(value: T, from: Engine, to: SecretsCipher): T {
  if (Array.isArray(value)) return value.map((v) => reencrypt(v, from, to)) as T;
  if (typeof value !== "object" || value === null) return value;
  if (isSecret(value)) {
    const plain = from.decryptSecret(
      (value as unknown as { ciphertext: string }).ciphertext,
    ) as PropertyValue;
    return to.encrypt(makeSecret(plain)) as T;
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, reencrypt(v, from, to)])) as T;
}
