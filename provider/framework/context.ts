import {
  clientFor,
  ENV_KEYS,
  resolveConnection,
  type ConnectionInput,
  type StackSettings,
} from "../connection";
import type { DeviceMgmtClient } from "../client";

let stackSettings: StackSettings = {};

/**
 * Clients by what they were resolved from: a resource's `connection` and the environment variables (stack
 * settings clear it). Every check, create, read, update and delete asks for a client, and resolving one parses
 * the URL and hashes the token each time; the answer can only change when something in the key does.
 */
const resolvedClients = new Map<string, DeviceMgmtClient>();

/** Stack config arrives once per plugin process through `configure`; resources read it per call. */
export function bindStackSettings(settings: StackSettings): void {
  stackSettings = settings;
  resolvedClients.clear();
}

/**
 * A resource's own `connection` as check left it (connectionSchema: an object of strings and a flag), read from
 * inputs or recorded state of any kind. During a preview a value may still be the engine's unknown sentinel, a
 * string: kept, so that a diff sees it; a connection that is not an object (the sentinel itself) is none.
 */
export function connectionOf(props: { connection?: unknown }): ConnectionInput | undefined {
  const connection = props.connection;
  if (connection === null || typeof connection !== "object") return undefined;
  const { baseUrl, apiToken, allowInsecureHttp }: Record<keyof ConnectionInput, unknown> = {
    baseUrl: undefined,
    apiToken: undefined,
    allowInsecureHttp: undefined,
    ...connection,
  };
  return {
    baseUrl: typeof baseUrl === "string" ? baseUrl : undefined,
    apiToken: typeof apiToken === "string" ? apiToken : undefined,
    allowInsecureHttp: typeof allowInsecureHttp === "boolean" ? allowInsecureHttp : undefined,
  };
}

/**
 * The client for a resource: its own `connection` input first, then stack config, then the environment. `props`
 * is framework.ts's `Props` spelled out: the framework imports this module, so importing its type back would be a
 * cycle.
 */
export function clientForProps(props: Record<string, unknown>): DeviceMgmtClient {
  const connection = connectionOf(props);
  // Read at call time, as resolveConnection does, so a rotated token in the environment is used at once.
  const environment = Object.values(ENV_KEYS).map((name) => process.env[name] ?? null);
  const key = JSON.stringify([connection ?? null, environment]);
  let client = resolvedClients.get(key);
  if (client === undefined) {
    client = clientFor(resolveConnection(connection, stackSettings));
    resolvedClients.set(key, client);
  }
  return client;
}
