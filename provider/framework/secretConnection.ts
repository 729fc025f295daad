import type * as pulumi from "@pulumi/pulumi";

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
