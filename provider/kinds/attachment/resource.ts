/** The attachment kinds' public classes and their inputs. */
import type * as pulumi from "@pulumi/pulumi";
import { DeviceMgmtResource, type AdoptionArgs, registration } from "../../framework";
import {
  deviceFileKind,
  deviceReleaseChannelKind,
  deviceVideoKind,
  groupFileKind,
  groupReleaseChannelKind,
  groupVideoKind,
} from "./definitions";

/**
 * The inputs of an attachment: the owner's and the attached thing's ids (named by the kind), and adoption (its
 * id is `<owner id>/<attached id>`) and connection as for every kind.
 */
export type AttachmentArgs<Owner extends string, Attached extends string> = {
  /** The owner's and the attached thing's ids. Changing either replaces the attachment (delete first). */
  [K in Owner | Attached]: pulumi.Input<string>;
} & AdoptionArgs;

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
