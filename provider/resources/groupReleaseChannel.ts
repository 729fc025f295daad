import * as pulumi from "@pulumi/pulumi";
import { kindOptions, thinProvider, TYPE_MODULE } from "../dynamic";
import { attachmentHandler, listContains } from "./attachment";
import { secretConnection, type ConnectionArgs } from "./secretConnection";

// Input schema, diff and CRUD are the shared attachment logic; here is what is particular to groups.
export const groupReleaseChannelHandler = attachmentHandler({
  resourceName: "GroupReleaseChannel",
  ownerKey: "groupId",
  ownerNoun: "group",
  attached: (client, groupId, rcId) => listContains(client.groups.releaseChannels(groupId), rcId),
  attach: (client, groupId, rcId) => client.groups.addReleaseChannel(groupId, rcId),
  detach: (client, groupId, rcId) => client.groups.removeReleaseChannel(groupId, rcId),
  async explainRefusal(client, groupId) {
    const group = await client.groups.get(groupId);
    return group.isConfigured
      ? undefined
      : `group ${groupId} ("${group.name}") is not configured, and release channels attach only to configured ` +
          `groups. Set configured: true on the Group (configuring is irreversible).`;
  },
});

/** The inputs of a {@link GroupReleaseChannel}. */
export interface GroupReleaseChannelArgs {
  /** The configured group the channel reaches (release channels attach only to configured groups). Changing it replaces the attachment. */
  groupId: pulumi.Input<string>;
  /** The release channel's id (see `getReleaseChannel`). Changing it replaces the attachment. */
  releaseChannelId: pulumi.Input<string>;
  /**
   * Take over an attachment that already exists (made outside this stack, or left by an interrupted run):
   * its id, `<groupId>/<releaseChannelId>`. Without it, a create that finds the channel attached fails.
   */
  adoptId?: pulumi.Input<string>;
  /** Another organization's API for this resource only (the token is kept secret in state); default: the stack's `devicemgmt:*` config. */
  connection?: pulumi.Input<ConnectionArgs>;
}

/**
 * Makes a release channel reach every device of a configured group. Any change replaces the attachment (delete
 * first: the same group and channel cannot be attached twice). Its id is `<groupId>/<releaseChannelId>`.
 *
 * A create fails, before any write, when the channel is already attached to the group: take that attachment
 * over with `adoptId`, or use `aliases` if you renamed or moved the resource in code.
 *
 * @example
 * const production = dm.getReleaseChannelOutput({ appName: "Training Simulator", channelName: "Production" });
 * new dm.GroupReleaseChannel("berlin-simulator", { groupId: berlin.id, releaseChannelId: production.id });
 */
export class GroupReleaseChannel extends pulumi.dynamic.Resource {
  /** The id of the organization the object lives in (recorded at create; later calls refuse another). */
  declare readonly organizationId: pulumi.Output<string>;
  /** The group the channel reaches. */
  declare readonly groupId: pulumi.Output<string>;
  /** The attached release channel. */
  declare readonly releaseChannelId: pulumi.Output<string>;

  constructor(name: string, args: GroupReleaseChannelArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      thinProvider("groupReleaseChannel"),
      name,
      {
        groupId: args.groupId,
        releaseChannelId: args.releaseChannelId,
        adoptId: args.adoptId,
        connection: secretConnection(args.connection),
        organizationId: undefined,
      },
      kindOptions(opts, true),
      TYPE_MODULE,
      "GroupReleaseChannel",
    );
  }
}
