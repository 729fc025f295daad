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

export interface GroupReleaseChannelArgs {
  /** A configured group. */
  groupId: pulumi.Input<string>;
  releaseChannelId: pulumi.Input<string>;
  /**
   * Take over an attachment that already exists (made outside this stack, or left by an interrupted run):
   * its id, `<groupId>/<releaseChannelId>`. Without it, a create that finds the channel attached fails.
   */
  adoptId?: pulumi.Input<string>;
  connection?: pulumi.Input<ConnectionArgs>;
}

/** Makes a release channel reach a configured group. Any change replaces the attachment. Id: `groupId/releaseChannelId`. */
export class GroupReleaseChannel extends pulumi.dynamic.Resource {
  /** The id of the organization the object lives in (recorded at create; later calls refuse another). */
  declare readonly organizationId: pulumi.Output<string>;
  declare readonly groupId: pulumi.Output<string>;
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
