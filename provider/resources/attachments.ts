/**
 * The attachment kinds: one entry per pairing of an owner (group, device) with what is attached to it. The
 * shared logic (ids, adoption, ambiguity, diff) is in attachment.ts; an entry says which client calls attach,
 * detach and look, and how a refusal reads in the user's terms.
 */
import * as pulumi from "@pulumi/pulumi";
import type { DeviceMgmtClient } from "../client";
import { attachedReleaseChannel } from "./coalescedReads";
import {
  attachmentHandler,
  attachmentProperties,
  listContains,
  type AttachmentSpec,
  type OwnerKey,
} from "./attachment";
import { defineKind, registration } from "./kind";
import { DeviceMgmtResource, type AdoptionArgs } from "./common";

/**
 * The inputs of an attachment: the owner's and the attached thing's ids (named by the kind), and adoption (its
 * id is `<owner id>/<attached id>`) and connection as for every kind.
 */
export type AttachmentArgs<Owner extends string, Attached extends string> = {
  /** The owner's and the attached thing's ids. Changing either replaces the attachment (delete first). */
  [K in Owner | Attached]: pulumi.Input<string>;
} & AdoptionArgs;

function attachmentKind<
  const Key extends string,
  const Type extends string,
  Owner extends OwnerKey,
  Attached extends string,
>(kind: Key, spec: AttachmentSpec<Owner, Attached> & { resourceName: Type }) {
  return defineKind({
    kind,
    type: spec.resourceName,
    naturalKey: true,
    properties: attachmentProperties(spec.ownerKey, spec.attachedKey),
    outputs: [],
    handler: attachmentHandler(spec),
  });
}

/** Release channels: the API lists each owner's channels, so refresh sees an attachment made or removed elsewhere. */
function releaseChannelOn<Owner extends OwnerKey>(owner: Owner) {
  const calls = (client: DeviceMgmtClient) => (owner === "groupId" ? client.groups : client.devices);
  return {
    ownerKey: owner,
    attachedKey: "releaseChannelId",
    attachedNoun: "release channel",
    attached: (client: DeviceMgmtClient, ownerId: string, rcId: string) =>
      listContains(calls(client).releaseChannels(ownerId), rcId),
    attachedForRead: (client: DeviceMgmtClient, ownerId: string, rcId: string) =>
      attachedReleaseChannel(client, owner, ownerId, rcId),
    attach: (client: DeviceMgmtClient, ownerId: string, rcId: string) =>
      calls(client).addReleaseChannel(ownerId, rcId),
    detach: (client: DeviceMgmtClient, ownerId: string, rcId: string) =>
      calls(client).removeReleaseChannel(ownerId, rcId),
  } as const;
}

export const groupReleaseChannelKind = attachmentKind("groupReleaseChannel", {
  resourceName: "GroupReleaseChannel",
  ...releaseChannelOn("groupId"),
  async explainRefusal(client, groupId) {
    const group = await client.groups.get(groupId);
    return group.isConfigured
      ? undefined
      : `group ${groupId} ("${group.name}") is not configured, and release channels attach only to configured ` +
          `groups. Set configured: true on the Group (configuring is irreversible).`;
  },
});

export const deviceReleaseChannelKind = attachmentKind("deviceReleaseChannel", {
  resourceName: "DeviceReleaseChannel",
  ...releaseChannelOn("deviceId"),
  async explainRefusal(client, deviceId) {
    const device = await client.devices.get(deviceId);
    return device.group
      ? `device ${deviceId} ("${device.name}") is in group ${device.group.id} ("${device.group.name}"), and release ` +
          `channels attach to a device only while it is ungrouped. Attach the channel to the group instead ` +
          `(GroupReleaseChannel), or take the device out of the group.`
      : undefined;
  },
});

export const groupReleaseChannelHandler = groupReleaseChannelKind.handler;
export const deviceReleaseChannelHandler = deviceReleaseChannelKind.handler;

/** The inputs of a {@link GroupReleaseChannel}: `groupId` (a configured group) and `releaseChannelId` (see `getReleaseChannel`). */
export type GroupReleaseChannelArgs = AttachmentArgs<"groupId", "releaseChannelId">;

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
export class GroupReleaseChannel extends DeviceMgmtResource {
  /** The group the channel reaches. */
  declare readonly groupId: pulumi.Output<string>;
  /** The attached release channel. */
  declare readonly releaseChannelId: pulumi.Output<string>;

  constructor(name: string, args: GroupReleaseChannelArgs, opts?: pulumi.CustomResourceOptions) {
    super(...registration(groupReleaseChannelKind, name, args, opts));
  }
}

/** The inputs of a {@link DeviceReleaseChannel}: `deviceId` (an ungrouped device) and `releaseChannelId` (see `getReleaseChannel`). */
export type DeviceReleaseChannelArgs = AttachmentArgs<"deviceId", "releaseChannelId">;

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
export class DeviceReleaseChannel extends DeviceMgmtResource {
  /** The device the channel reaches. */
  declare readonly deviceId: pulumi.Output<string>;
  /** The attached release channel. */
  declare readonly releaseChannelId: pulumi.Output<string>;

  constructor(name: string, args: DeviceReleaseChannelArgs, opts?: pulumi.CustomResourceOptions) {
    super(...registration(deviceReleaseChannelKind, name, args, opts));
  }
}
