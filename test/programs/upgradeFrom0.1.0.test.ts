// A stack that release 0.1.0 really wrote (test/fixtures/checkpoint-0.1.0: packed at aa5fe6c and run through
// that commit's test engine and emulator) continues under today's package and the Pulumi CLI (checkpointReplay.ts):
// every resource of the SDK's default type, with 0.1.0's `__provider` text, its secret encrypted with a key the
// fixture holds.
import * as crypto from "crypto";
import * as fs from "fs";
import * as path from "path";
import type { Engine } from "../engine";
import { describeReplay } from "../harness/checkpointReplay";

const fixtures = path.join(__dirname, "../fixtures/checkpoint-0.1.0");
const STACK = "v010";

const secretsKey = Buffer.from(
  fs.readFileSync(path.join(fixtures, "secrets-key.txt"), "utf8").trim(),
  "base64",
);
const SECRET_SIG_KEY = "4dabf18193072939515e22adb298388d";

/**
 * One secret of the fixture in plain text. The checkpoint was written with a key held in memory: `v1:<iv>:<sealed>`
 * (base64), AES-256-GCM with the 16-byte tag after the ciphertext, over the value's JSON text.
 */
function decrypted(ciphertext: string): string {
  const [version, iv, sealed] = ciphertext.split(":");
  if (version !== "v1" || !iv || !sealed) throw new Error(`not a ciphertext of the fixture: ${ciphertext}`);
  const bytes = Buffer.from(sealed, "base64");
  const decipher = crypto.createDecipheriv("aes-256-gcm", secretsKey, Buffer.from(iv, "base64"));
  decipher.setAuthTag(bytes.subarray(bytes.length - 16));
  return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString(
    "utf8",
  );
}

/** Every `{sig, ciphertext}` secret as `{sig, plaintext}`, which `pulumi stack import` encrypts with the stack's key. */
function withPlainSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withPlainSecrets);
  if (typeof value !== "object" || value === null) return value;
  const map = value as Record<string, unknown>;
  if (SECRET_SIG_KEY in map && typeof map.ciphertext === "string")
    return { [SECRET_SIG_KEY]: map[SECRET_SIG_KEY], plaintext: decrypted(map.ciphertext) };
  return Object.fromEntries(Object.entries(map).map(([key, v]) => [key, withPlainSecrets(v)]));
}

/**
 * The fixture as a deployment `pulumi stack import` takes, its resources as 0.1.0 wrote them. What the CLI needs
 * beyond plain-text secrets: a secrets provider it knows (the fixture names the old engine's in-memory one, which
 * the CLI refuses: `no known secrets provider for type "harness"`; without one it panics, "attempt to encrypt
 * value"), so it is this stack's passphrase provider with the stack's salt; and a manifest whose magic is the
 * SHA-256 of its version, as the CLI writes it (else "magic cookie mismatch; possible tampering/corruption
 * detected"). The checkpoint has no default provider resource and no `provider` reference on its resources: the
 * CLI adds both itself, from the stack's config, on the first operation, as it does for any checkpoint written
 * before providers were recorded.
 */
async function importable(engine: Engine, checkpointText: string): Promise<unknown> {
  const { version, deployment } = JSON.parse(checkpointText) as {
    version: number;
    deployment: { manifest: { time: string; version: string; magic?: string } };
  };
  const { encryptionSalt } = await engine.stack.workspace.stackSettings(STACK);
  const manifest = {
    ...deployment.manifest,
    magic: crypto.createHash("sha256").update(deployment.manifest.version).digest("hex"),
  };
  return {
    version,
    deployment: {
      ...(withPlainSecrets(deployment) as object),
      manifest,
      secrets_providers: { type: "passphrase", state: { salt: encryptionSalt } },
    },
  };
}

describeReplay({
  dir: fixtures,
  stack: STACK,
  release: "0.1.0",
  writtenTypes: "legacy",
  importable,
});
