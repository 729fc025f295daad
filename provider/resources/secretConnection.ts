import * as pulumi from "@pulumi/pulumi";
import type { ConnectionInput } from "../connection";

/** A resource's own connection to another organization's API; the token should come from a secret. */
export interface ConnectionArgs {
  /** The v3 base URL, ending in /api/v3. */
  baseUrl?: pulumi.Input<string>;
  /** A v3 token for that organization. */
  apiToken?: pulumi.Input<string>;
  /**
   * Lets a plain-http `baseUrl` reach a host other than this machine (the token then travels in clear); loopback
   * (the emulator) never needs it. Default false.
   */
  allowInsecureHttp?: pulumi.Input<boolean>;
}

/**
 * The whole connection is made secret, not just its token: the engine marks an output secret only when the
 * input of the same name is secret, and the connection travels to outputs (delete needs it).
 */
export function secretConnection(
  connection: pulumi.Input<ConnectionArgs> | undefined,
): pulumi.Output<ConnectionInput> | undefined {
  return connection === undefined ? undefined : pulumi.secret(connection);
}
