import * as pulumi from "@pulumi/pulumi";
import { thinProvider } from "../dynamic";
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

export interface GroupReleaseChannelArgs {
  /** A configured group. */
  groupId: pulumi.Input<string>;
  releaseChannelId: pulumi.Input<string>;
  connection?: pulumi.Input<ConnectionArgs>;
}

/** Makes a release channel reach a configured group. Any change replaces the attachment. Id: `groupId/releaseChannelId`. */
export class GroupReleaseChannel extends pulumi.dynamic.Resource {
  declare readonly groupId: pulumi.Output<string>;
  declare readonly releaseChannelId: pulumi.Output<string>;

  constructor(name: string, args: GroupReleaseChannelArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      thinProvider("groupReleaseChannel"),
      name,
      {
        groupId: args.groupId,
        releaseChannelId: args.releaseChannelId,
        connection: secretConnection(args.connection),
      },
      opts,
    );
  }
}
