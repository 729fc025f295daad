/**
 * The connection of a lookup or resource, resolved in the program at the call or the constructor, so that one that
 * can never reach the API (no token anywhere, no base URL, a refused URL) is refused by a synchronous throw.
 *
 * Why synchronous: the same error raised later, in a promise or an Output's apply, is a rejection, and how a
 * rejection is reported depends on the Pulumi language host. The Automation API's inline host reports it and fails
 * the run within seconds; a Node.js language host built from the engine's source (~3.260) was seen to wait 10
 * minutes without a word on the README's Quick start with `devicemgmt:apiToken` removed. Every host reports an
 * exception thrown while the program's module runs.
 */
import * as pulumi from "@pulumi/pulumi";
import { resolveConnection, stackSettingsFrom, type ConnectionInput } from "./connection";

/**
 * Throws the ConnectionSettingError the connection's resolution would give later: the stack config
 * (`devicemgmt:*`, read as the program sees it), the environment, and `connection` when all of its values are known
 * now. A connection given as an Output or a promise (a secret from config, another resource's output), or holding
 * one, or a value of the wrong type (the resource's `check` names it) is left to be resolved when it is known, as
 * before. The errors never hold the token: only whether one is there matters here.
 */
export function refuseConnectionNow(connection: unknown): void {
  const known = knownConnection(connection);
  if (known === "later") return;
  resolveConnection(
    known,
    stackSettingsFrom((key) => pulumi.runtime.getConfig(key)),
  );
}

/** A connection whose fields are all plain values of their types, or "later" when it cannot be judged now. */
function knownConnection(connection: unknown): ConnectionInput | undefined | "later" {
  if (connection === undefined || connection === null) return undefined;
  if (typeof connection !== "object" || pending(connection)) return "later";
  const { baseUrl, apiToken, allowInsecureHttp } = connection as Record<string, unknown>;
  const plain =
    [baseUrl, apiToken].every((value) => value === undefined || typeof value === "string") &&
    (allowInsecureHttp === undefined || typeof allowInsecureHttp === "boolean");
  return plain ? (connection as ConnectionInput) : "later";
}

/** An Output or a promise: its value is not known while the program is being read. */
function pending(value: object): boolean {
  return pulumi.Output.isInstance(value) || typeof (value as { then?: unknown }).then === "function";
}
