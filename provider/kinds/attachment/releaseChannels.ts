/**
 * Release channels on groups and on ungrouped devices: the API lists each owner's channels, so a create looks
 * before it writes and refresh sees an attachment made or removed elsewhere.
 */
import type { DeviceMgmtClient } from "../../client";
import { attachedReleaseChannel } from "../../framework";
import { ungroupedDeviceFailures } from "../device/catalogue";
import { configuredGroupFailures } from "../group/catalogue";
import { groupedDevice, listContains, unconfiguredGroup, type AttachmentSpec } from "./handler";
import type { OwnerKey } from "./properties";

/** The client calls of a channel on an owner of either kind. */
function releaseChannelOn(owner: OwnerKey) {
  const calls = (client: DeviceMgmtClient) => (owner === "groupId" ? client.groups : client.devices);
  return {
    attachedNoun: "release channel",
    attached: (client: DeviceMgmtClient, ownerId: string, rcId: string) =>
      listContains(calls(client).releaseChannels(ownerId), rcId),
    attachedForRead: (client: DeviceMgmtClient, ownerId: string, rcId: string) =>
      attachedReleaseChannel(client, owner, ownerId, rcId),
    attach: (client: DeviceMgmtClient, ownerId: string, rcId: string) =>
      calls(client).addReleaseChannel(ownerId, rcId),
    detach: (client: DeviceMgmtClient, ownerId: string, rcId: string) =>
      calls(client).removeReleaseChannel(ownerId, rcId),
  };
}

export const channelOnGroup: AttachmentSpec = {
  ...releaseChannelOn("groupId"),
  checkLive: (inputs, olds) =>
    configuredGroupFailures("groupId", inputs, olds, "release channels attach only to configured groups"),
  explainRefusal: (client, groupId) => unconfiguredGroup(client, groupId, "release channels"),
};

export const channelOnDevice: AttachmentSpec = {
  ...releaseChannelOn("deviceId"),
  checkLive: (inputs, olds) =>
    ungroupedDeviceFailures("deviceId", inputs, olds, "release channels", "GroupReleaseChannel"),
  explainRefusal: (client, deviceId) =>
    groupedDevice(client, deviceId, "release channels", "GroupReleaseChannel"),
};
