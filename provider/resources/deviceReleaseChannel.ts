import * as pulumi from "@pulumi/pulumi";
import { kindOptions, thinProvider, TYPE_MODULE } from "../dynamic";
import { attachmentHandler, listContains } from "./attachment";
import { secretConnection, type ConnectionArgs } from "./secretConnection";

// Input schema, diff and CRUD are the shared attachment logic; here is what is particular to devices.
export const deviceReleaseChannelHandler = attachmentHandler({
  resourceName: "DeviceReleaseChannel",
  ownerKey: "deviceId",
  ownerNoun: "device",
  attached: (client, deviceId, rcId) => listContains(client.devices.releaseChannels(deviceId), rcId),
  attach: (client, deviceId, rcId) => client.devices.addReleaseChannel(deviceId, rcId),
  detach: (client, deviceId, rcId) => client.devices.removeReleaseChannel(deviceId, rcId),
  async explainRefusal(client, deviceId) {
    const device = await client.devices.get(deviceId);
    return device.group
      ? `device ${deviceId} ("${device.name}") is in group ${device.group.id} ("${device.group.name}"), and release ` +
          `channels attach to a device only while it is ungrouped. Attach the channel to the group instead ` +
          `(GroupReleaseChannel), or take the device out of the group.`
      : undefined;
  },
});

export interface DeviceReleaseChannelArgs {
  /** An ungrouped device. */
  deviceId: pulumi.Input<string>;
  releaseChannelId: pulumi.Input<string>;
  /**
   * Take over an attachment that already exists (made outside this stack, or left by an interrupted run):
   * its id, `<deviceId>/<releaseChannelId>`. Without it, a create that finds the channel attached fails.
   */
  adoptId?: pulumi.Input<string>;
  connection?: pulumi.Input<ConnectionArgs>;
}

/** Makes a release channel reach an ungrouped device. Any change replaces the attachment. Id: `deviceId/releaseChannelId`. */
export class DeviceReleaseChannel extends pulumi.dynamic.Resource {
  /** The id of the organization the object lives in (recorded at create; later calls refuse another). */
  declare readonly organizationId: pulumi.Output<string>;
  declare readonly deviceId: pulumi.Output<string>;
  declare readonly releaseChannelId: pulumi.Output<string>;

  constructor(name: string, args: DeviceReleaseChannelArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      thinProvider("deviceReleaseChannel"),
      name,
      {
        deviceId: args.deviceId,
        releaseChannelId: args.releaseChannelId,
        adoptId: args.adoptId,
        connection: secretConnection(args.connection),
        organizationId: undefined,
      },
      kindOptions(opts, true),
      TYPE_MODULE,
      "DeviceReleaseChannel",
    );
  }
}
