/**
 * The attachment kinds: one entry per pairing of an owner (group, device) with what is attached to it. The
 * shared logic (ids, adoption, ambiguity, diff) is in attachment.ts; an entry says which client calls attach,
 * detach and look, and how a refusal reads in the user's terms.
 */
import * as pulumi from "@pulumi/pulumi";
import { AmbiguousWriteError, ValidationError, type DeviceMgmtClient } from "../../client";
import { NotCreatedHereError, NotPossibleError } from "../../errors";
import { runLedger } from "../../framework/runLedger";
import { attachedReleaseChannel, readDevice, readGroup } from "../../framework/coalescedReads";
import {
  attachmentHandler,
  attachmentProperties,
  listContains,
  type AttachmentSpec,
  type OwnerKey,
} from "./generic";
import { defineKind, pluginHandler, registration } from "../../framework/kind";
import { DeviceMgmtResource, type AdoptionArgs } from "../../framework/common";
import {
  configuredGroupFailures,
  contentFailures,
  ungroupedDeviceFailures,
} from "../../framework/catalogueChecks";
import { unlessGone, type Props } from "../../framework/framework";

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
    handler: attachmentHandler(spec, kind),
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
  checkLive: (inputs, olds) => configuredGroupFailures("groupId", inputs, olds, "release channels"),
  async explainRefusal(client, groupId) {
    const group = await client.groups.get(groupId);
    return group.isConfigured
      ? undefined
      : `group ${groupId} ("${group.name}") is not configured, and release channels attach only to configured ` +
          `groups. Set configured: true on the Group (configuring is irreversible).`;
  },
});

/** Why a device refuses its own channels, files and videos: it is in a group (`what` names them). */
async function groupedDevice(client: DeviceMgmtClient, deviceId: string, what: string, instead: string) {
  const device = await client.devices.get(deviceId);
  return device.group
    ? `device ${deviceId} ("${device.name}") is in group ${device.group.id} ("${device.group.name}"), and ${what} ` +
        `attach to a device only while it is ungrouped. Attach to the group instead (${instead}), or take the ` +
        `device out of the group.`
    : undefined;
}

export const deviceReleaseChannelKind = attachmentKind("deviceReleaseChannel", {
  resourceName: "DeviceReleaseChannel",
  ...releaseChannelOn("deviceId"),
  checkLive: (inputs, olds) =>
    ungroupedDeviceFailures("deviceId", inputs, olds, "release channels", "GroupReleaseChannel"),
  explainRefusal: (client, deviceId) =>
    groupedDevice(client, deviceId, "release channels", "GroupReleaseChannel"),
});

export const groupReleaseChannelHandler = pluginHandler(groupReleaseChannelKind);
export const deviceReleaseChannelHandler = pluginHandler(deviceReleaseChannelKind);

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
 * const berlin = dm.getGroupOutput({ name: "Berlin Lab" }); // a configured group at the root
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

// ---- Files and videos on groups and devices ------------------------------------------------------------------

type ContentKey = "fileId" | "videoId";
const contentNoun = (key: ContentKey) => (key === "fileId" ? "file" : "video");

/** Writes of a group's content that were answered ambiguously, by `<group>/<item>`: their repeat may meet them. */
const ambiguousGroupAttaches = new Set<string>();

/**
 * Files and videos of a configured group. The API cannot list what a group holds, so a create cannot look
 * first: it attaches, and the API's "already assigned" answer tells that the item was there. That answer to a
 * repeat of this process's own attach whose first answer was lost is success (the first one did it); to a first
 * attempt it means someone else attached it, and the create is refused as every create that meets an object it
 * did not make. Refresh sees the group or the item deleted, not a detach made elsewhere (docs/architecture.md).
 */
export function contentOnGroup<K extends ContentKey>(key: K) {
  const noun = contentNoun(key);
  const post = (client: DeviceMgmtClient, groupId: string, id: string) =>
    key === "fileId" ? client.groups.addFile(groupId, id) : client.groups.addVideo(groupId, id);
  const exists = (client: DeviceMgmtClient, id: string) =>
    key === "fileId" ? client.files.get(id) : client.videos.get(id);
  return {
    ownerKey: "groupId",
    attachedKey: key,
    attachedNoun: noun,
    attached: async () => false,
    attachedForRead: async (client: DeviceMgmtClient, groupId: string, id: string) => {
      await Promise.all([readGroup(client, groupId), exists(client, id)]);
      return true;
    },
    unlisted: true,
    async attach(client: DeviceMgmtClient, groupId: string, id: string, ours = false) {
      const pair = `${groupId}/${id}`;
      try {
        await post(client, groupId, id);
        ambiguousGroupAttaches.delete(pair);
      } catch (error) {
        const repeated = error instanceof ValidationError && error.fieldErrors?.[key] !== undefined;
        if (repeated && (ours || error.afterAmbiguousAttempt || ambiguousGroupAttaches.delete(pair))) return;
        // The same answer names an id of no file or video (the check could not look): not "attached elsewhere".
        if (repeated && (await unlessGone(exists(client, id))) === undefined) throw unknownContent(key, id);
        if (repeated) throw attachedElsewhere(noun, groupId, id);
        if (error instanceof AmbiguousWriteError) ambiguousGroupAttaches.add(pair);
        throw error;
      }
    },
    detach: (client: DeviceMgmtClient, groupId: string, id: string) =>
      key === "fileId" ? client.groups.removeFile(groupId, id) : client.groups.removeVideo(groupId, id),
    async explainRefusal(client: DeviceMgmtClient, groupId: string) {
      const group = await client.groups.get(groupId);
      return group.isConfigured
        ? undefined
        : `group ${groupId} ("${group.name}") is not configured, and ${noun}s attach only to configured groups. ` +
            `Set configured: true on the Group (configuring is irreversible).`;
    },
    checkLive: async (inputs: Props, olds: Props) =>
      (
        await Promise.all([
          configuredGroupFailures("groupId", inputs, olds, `${noun}s`),
          contentFailures(key, inputs, olds),
        ])
      ).flat(),
  } as const;
}

function unknownContent(key: ContentKey, id: string): NotPossibleError {
  const noun = contentNoun(key);
  return new NotPossibleError(
    `${key}: no ${noun} with id ${id} exists in the organization, so it cannot be attached. Correct ${key} ` +
      `(see get${noun === "file" ? "File" : "Video"}).`,
    { kind: noun === "file" ? "GroupFile" : "GroupVideo", property: key, fix: `correct ${key}` },
  );
}

/** The refusal of a create that met a group's file or video it did not attach (which cannot be adopted: unlisted). */
function attachedElsewhere(noun: string, groupId: string, id: string): NotCreatedHereError {
  const pair = `${groupId}/${id}`;
  runLedger.recordRefusedCreate(pair); // this run must not detach what the refused create met
  const resource = noun === "file" ? "GroupFile" : "GroupVideo";
  return new NotCreatedHereError(
    `${noun} ${id} is already attached to group ${groupId}, and this ${resource} did not attach it. Nothing was ` +
      `changed. If you renamed this resource or moved it in code, add the resource option aliases: [{ name: ` +
      `"<old name>" }] so Pulumi knows it is the same one. To manage the attachment made outside this stack, ` +
      `set adoptId: "${pair}".`,
    pair,
  );
}

/** Files and videos of an ungrouped device: the API lists them, so refresh sees every change. */
function contentOnDevice<K extends ContentKey>(key: K) {
  const noun = contentNoun(key);
  const list = (client: DeviceMgmtClient, deviceId: string) =>
    key === "fileId" ? client.deviceContent.files(deviceId) : client.deviceContent.videos(deviceId);
  return {
    ownerKey: "deviceId",
    attachedKey: key,
    attachedNoun: noun,
    attached: (client: DeviceMgmtClient, deviceId: string, id: string) =>
      listContains(list(client, deviceId), id),
    attachedForRead: async (client: DeviceMgmtClient, deviceId: string, id: string) => {
      await readDevice(client, deviceId);
      return listContains(list(client, deviceId), id);
    },
    attach: (client: DeviceMgmtClient, deviceId: string, id: string) =>
      key === "fileId"
        ? client.deviceContent.addFile(deviceId, id)
        : client.deviceContent.addVideo(deviceId, id),
    detach: (client: DeviceMgmtClient, deviceId: string, id: string) =>
      key === "fileId"
        ? client.deviceContent.removeFile(deviceId, id)
        : client.deviceContent.removeVideo(deviceId, id),
    explainRefusal: (client: DeviceMgmtClient, deviceId: string) =>
      groupedDevice(client, deviceId, `${noun}s`, `Group${noun === "file" ? "File" : "Video"}`),
    checkLive: async (inputs: Props, olds: Props) =>
      (
        await Promise.all([
          ungroupedDeviceFailures(
            "deviceId",
            inputs,
            olds,
            `${noun}s`,
            `Group${noun === "file" ? "File" : "Video"}`,
          ),
          contentFailures(key, inputs, olds),
        ])
      ).flat(),
  } as const;
}

export const groupFileKind = attachmentKind("groupFile", {
  resourceName: "GroupFile",
  ...contentOnGroup("fileId"),
});
export const groupVideoKind = attachmentKind("groupVideo", {
  resourceName: "GroupVideo",
  ...contentOnGroup("videoId"),
});
export const deviceFileKind = attachmentKind("deviceFile", {
  resourceName: "DeviceFile",
  ...contentOnDevice("fileId"),
});
export const deviceVideoKind = attachmentKind("deviceVideo", {
  resourceName: "DeviceVideo",
  ...contentOnDevice("videoId"),
});

/**
 * A file on a configured group: it reaches every device of the group. Id `<groupId>/<fileId>`; any change
 * replaces it. The API cannot list a group's files: refresh notices the group or the file deleted, not a detach
 * made in the portal; a create over a file someone else attached is refused (its repeat after a lost answer is not,
 * nor the next `up` after a run killed mid-create); `adoptId: "<groupId>/<fileId>"` takes such a file over.
 *
 * @example
 * const berlin = dm.getGroupOutput({ name: "Berlin Lab" }); // a configured group at the root
 * const manual = dm.getFileOutput({ filename: "safety-manual.pdf" });
 * new dm.GroupFile("berlin-manual", { groupId: berlin.id, fileId: manual.id });
 */
export class GroupFile extends DeviceMgmtResource {
  declare readonly groupId: pulumi.Output<string>;
  declare readonly fileId: pulumi.Output<string>;
  constructor(name: string, args: AttachmentArgs<"groupId", "fileId">, opts?: pulumi.CustomResourceOptions) {
    super(...registration(groupFileKind, name, args, opts));
  }
}

/**
 * A video on a configured group; as {@link GroupFile}. Id `<groupId>/<videoId>`.
 *
 * @example
 * const berlin = dm.getGroupOutput({ name: "Berlin Lab" }); // a configured group at the root
 * const tour = dm.getVideoOutput({ name: "Welcome Tour" });
 * new dm.GroupVideo("berlin-tour", { groupId: berlin.id, videoId: tour.id });
 */
export class GroupVideo extends DeviceMgmtResource {
  declare readonly groupId: pulumi.Output<string>;
  declare readonly videoId: pulumi.Output<string>;
  constructor(name: string, args: AttachmentArgs<"groupId", "videoId">, opts?: pulumi.CustomResourceOptions) {
    super(...registration(groupVideoKind, name, args, opts));
  }
}

/**
 * A file on an ungrouped device. Id `<deviceId>/<fileId>`; refresh sees it detached elsewhere.
 *
 * @example
 * const demo = dm.getDeviceOutput({ name: "Headset 01" });
 * const manual = dm.getFileOutput({ filename: "safety-manual.pdf" });
 * new dm.DeviceFile("demo-manual", { deviceId: demo.id, fileId: manual.id });
 */
export class DeviceFile extends DeviceMgmtResource {
  declare readonly deviceId: pulumi.Output<string>;
  declare readonly fileId: pulumi.Output<string>;
  constructor(name: string, args: AttachmentArgs<"deviceId", "fileId">, opts?: pulumi.CustomResourceOptions) {
    super(...registration(deviceFileKind, name, args, opts));
  }
}

/**
 * A video on an ungrouped device. Id `<deviceId>/<videoId>`; refresh sees it detached elsewhere.
 *
 * @example
 * const demo = dm.getDeviceOutput({ name: "Headset 01" });
 * const tour = dm.getVideoOutput({ name: "Welcome Tour" });
 * new dm.DeviceVideo("demo-tour", { deviceId: demo.id, videoId: tour.id });
 */
export class DeviceVideo extends DeviceMgmtResource {
  declare readonly deviceId: pulumi.Output<string>;
  declare readonly videoId: pulumi.Output<string>;
  constructor(
    name: string,
    args: AttachmentArgs<"deviceId", "videoId">,
    opts?: pulumi.CustomResourceOptions,
  ) {
    super(...registration(deviceVideoKind, name, args, opts));
  }
}
