/**
 * The six attachment kinds, one definition each (the kind table, kinds/index.ts, points here): the pairing's
 * properties (properties.ts), the shared handler given the pairing's client calls, its drift facet and its
 * export section. Each handler is typed by its kind's own properties, which is where `stateOf` is checked.
 */
import { defineKind, type KindHandler } from "../../framework/kind";
import { contentOnDevice } from "./deviceContent";
import { deviceContentDrift, groupContentDrift, releaseChannelDrift } from "./drift";
import {
  deviceContentSection,
  deviceReleaseChannelSection,
  groupContentSection,
  groupReleaseChannelSection,
} from "./export";
import { contentOnGroup } from "./groupContent";
import { attachmentHandler } from "./handler";
import {
  deviceFileAttachment,
  deviceReleaseChannelAttachment,
  deviceVideoAttachment,
  groupFileAttachment,
  groupReleaseChannelAttachment,
  groupVideoAttachment,
  type DeviceFileProperties,
  type DeviceReleaseChannelProperties,
  type DeviceVideoProperties,
  type GroupFileProperties,
  type GroupReleaseChannelProperties,
  type GroupVideoProperties,
} from "./properties";
import { channelOnDevice, channelOnGroup } from "./releaseChannels";

export const groupReleaseChannelHandler: KindHandler<GroupReleaseChannelProperties> = attachmentHandler(
  "groupReleaseChannel",
  { type: "GroupReleaseChannel", ...groupReleaseChannelAttachment },
  channelOnGroup,
);
export const groupReleaseChannelKind = defineKind({
  kind: "groupReleaseChannel",
  type: "GroupReleaseChannel",
  naturalKey: true,
  properties: groupReleaseChannelAttachment.properties,
  outputs: [],
  handler: groupReleaseChannelHandler,
  drift: releaseChannelDrift(groupReleaseChannelAttachment),
  export: groupReleaseChannelSection,
});

export const deviceReleaseChannelHandler: KindHandler<DeviceReleaseChannelProperties> = attachmentHandler(
  "deviceReleaseChannel",
  { type: "DeviceReleaseChannel", ...deviceReleaseChannelAttachment },
  channelOnDevice,
);
export const deviceReleaseChannelKind = defineKind({
  kind: "deviceReleaseChannel",
  type: "DeviceReleaseChannel",
  naturalKey: true,
  properties: deviceReleaseChannelAttachment.properties,
  outputs: [],
  handler: deviceReleaseChannelHandler,
  drift: releaseChannelDrift(deviceReleaseChannelAttachment),
  export: deviceReleaseChannelSection,
});

export const groupFileHandler: KindHandler<GroupFileProperties> = attachmentHandler(
  "groupFile",
  { type: "GroupFile", ...groupFileAttachment },
  contentOnGroup("fileId"),
);
export const groupFileKind = defineKind({
  kind: "groupFile",
  type: "GroupFile",
  naturalKey: true,
  properties: groupFileAttachment.properties,
  outputs: [],
  handler: groupFileHandler,
  drift: groupContentDrift("file"),
  export: groupContentSection("file"),
});

export const groupVideoHandler: KindHandler<GroupVideoProperties> = attachmentHandler(
  "groupVideo",
  { type: "GroupVideo", ...groupVideoAttachment },
  contentOnGroup("videoId"),
);
export const groupVideoKind = defineKind({
  kind: "groupVideo",
  type: "GroupVideo",
  naturalKey: true,
  properties: groupVideoAttachment.properties,
  outputs: [],
  handler: groupVideoHandler,
  drift: groupContentDrift("video"),
  export: groupContentSection("video"),
});

export const deviceFileHandler: KindHandler<DeviceFileProperties> = attachmentHandler(
  "deviceFile",
  { type: "DeviceFile", ...deviceFileAttachment },
  contentOnDevice("fileId"),
);
export const deviceFileKind = defineKind({
  kind: "deviceFile",
  type: "DeviceFile",
  naturalKey: true,
  properties: deviceFileAttachment.properties,
  outputs: [],
  handler: deviceFileHandler,
  drift: deviceContentDrift(deviceFileAttachment),
  export: deviceContentSection("file"),
});

export const deviceVideoHandler: KindHandler<DeviceVideoProperties> = attachmentHandler(
  "deviceVideo",
  { type: "DeviceVideo", ...deviceVideoAttachment },
  contentOnDevice("videoId"),
);
export const deviceVideoKind = defineKind({
  kind: "deviceVideo",
  type: "DeviceVideo",
  naturalKey: true,
  properties: deviceVideoAttachment.properties,
  outputs: [],
  handler: deviceVideoHandler,
  drift: deviceContentDrift(deviceVideoAttachment),
  export: deviceContentSection("video"),
});
