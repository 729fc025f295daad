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

/** The inputs of a {@link DeviceReleaseChannel}. */
export interface DeviceReleaseChannelArgs {
  /** The device the channel reaches; it must not be in a group (attach to the group instead). Changing it replaces the attachment. */
  deviceId: pulumi.Input<string>;
  /** The release channel's id (see `getReleaseChannel`). Changing it replaces the attachment. */
  releaseChannelId: pulumi.Input<string>;
  /**
   * Take over an attachment that already exists (made outside this stack, or left by an interrupted run):
   * its id, `<deviceId>/<releaseChannelId>`. Without it, a create that finds the channel attached fails.
   */
  adoptId?: pulumi.Input<string>;
  /** Another organization's API for this resource only (the token is kept secret in state); default: the stack's `devicemgmt:*` config. */
  connection?: pulumi.Input<ConnectionArgs>;
}

/**
 * Makes a release channel reach one ungrouped device. Any change replaces the attachment (delete first: the same
 * device and channel cannot be attached twice). Its id is `<deviceId>/<releaseChannelId>`.
 *
 * A create fails, before any write, when the channel is already attached to the device: take that attachment
 * over with `adoptId`, or use `aliases` if you renamed or moved the resource in code.
 *
 * @example
 * const beta = dm.getReleaseChannelOutput({ appName: "Training Simulator", channelName: "Beta" });
 * const headset = dm.getDeviceOutput({ name: "Headset 01" });
 * new dm.DeviceReleaseChannel("headset-beta", { deviceId: headset.id, releaseChannelId: beta.id });
 */
export class DeviceReleaseChannel extends pulumi.dynamic.Resource {
  /** The id of the organization the object lives in (recorded at create; later calls refuse another). */
  declare readonly organizationId: pulumi.Output<string>;
  /** The device the channel reaches. */
  declare readonly deviceId: pulumi.Output<string>;
  /** The attached release channel. */
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
