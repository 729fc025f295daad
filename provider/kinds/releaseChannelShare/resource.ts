import type * as pulumi from "@pulumi/pulumi";
import { DeviceMgmtResource, type ConnectionArg, registration } from "../../framework";
import { releaseChannelShareKind } from "./definition";

/** The inputs of a {@link ReleaseChannelShare}. */
export interface ReleaseChannelShareArgs extends ConnectionArg {
  /** The channel's app. */
  appId: pulumi.Input<string>;
  /** The release channel to share. */
  releaseChannelId: pulumi.Input<string>;
  /** The other organization's slug. */
  organizationSlug: pulumi.Input<string>;
}

/**
 * A release channel shared with another organization (by slug). Any change replaces it; destroy unshares. The
 * API cannot list a channel's shares: refresh notices the channel deleted, not an unshare made in the portal.
 *
 * @example
 * const beta = dm.getReleaseChannelOutput({ appName: "Training Simulator", channelName: "Beta" });
 * new dm.ReleaseChannelShare("beta-to-staging", {
 *   appId: beta.appId, releaseChannelId: beta.id, organizationSlug: "acme-staging",
 * });
 */
export class ReleaseChannelShare extends DeviceMgmtResource {
  declare readonly appId: pulumi.Output<string>;
  declare readonly releaseChannelId: pulumi.Output<string>;
  declare readonly organizationSlug: pulumi.Output<string>;

  constructor(name: string, args: ReleaseChannelShareArgs, opts?: pulumi.CustomResourceOptions) {
    super(...registration(releaseChannelShareKind, name, args, opts));
  }
}
