/**
 * The six attachment kinds, one definition each (the kind table, kinds/index.ts, points here): the pairing's
 * properties (properties.ts), the shared handler given the pairing's client calls, its drift facet and its
 * export section. Each handler is typed by its kind's own properties, which is where `stateOf` is checked.
 */
import { defineKind, type KindHandler } from "../../framework";
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
  deviceFileIdentity,
  deviceReleaseChannelIdentity,
  deviceVideoIdentity,
  groupFileIdentity,
  groupReleaseChannelIdentity,
  groupVideoIdentity,
} from "./properties";
import { channelOnDevice, channelOnGroup } from "./releaseChannels";

export const groupReleaseChannelHandler: KindHandler<GroupReleaseChannelProperties> = attachmentHandler(
  groupReleaseChannelIdentity,
  groupReleaseChannelAttachment,
  channelOnGroup,
);
export const groupReleaseChannelKind = defineKind({
  ...groupReleaseChannelIdentity,
  docs: {
    declares: "a release channel delivered to every device of a configured group",
    guide: "releases",
    inputs: {
      inputs: "`groupId` (a configured group), `releaseChannelId`",
      inPlace: "—",
      replaces: "any change (delete first)",
      outputsAdded: "id `groupId/releaseChannelId`",
    },
    adoption: { adoptId: "`<groupId>/<releaseChannelId>`", others: "" },
  },
  outputs: [],
  handler: groupReleaseChannelHandler,
  drift: releaseChannelDrift(groupReleaseChannelAttachment),
  export: groupReleaseChannelSection,
});

export const deviceReleaseChannelHandler: KindHandler<DeviceReleaseChannelProperties> = attachmentHandler(
  deviceReleaseChannelIdentity,
  deviceReleaseChannelAttachment,
  channelOnDevice,
);
export const deviceReleaseChannelKind = defineKind({
  ...deviceReleaseChannelIdentity,
  docs: {
    declares: "a release channel delivered to one ungrouped device",
    guide: "releases",
    inputs: {
      inputs: "`deviceId` (an ungrouped device), `releaseChannelId`",
      inPlace: "—",
      replaces: "any change (delete first)",
      outputsAdded: "id `deviceId/releaseChannelId`",
    },
    adoption: { adoptId: "`<deviceId>/<releaseChannelId>`", others: "" },
  },
  outputs: [],
  handler: deviceReleaseChannelHandler,
  drift: releaseChannelDrift(deviceReleaseChannelAttachment),
  export: deviceReleaseChannelSection,
});

export const groupFileHandler: KindHandler<GroupFileProperties> = attachmentHandler(
  groupFileIdentity,
  groupFileAttachment,
  contentOnGroup("fileId"),
);
export const groupFileKind = defineKind({
  ...groupFileIdentity,
  docs: {
    declares: "a file on a configured group",
    guide: "content",
    inputs: {
      inputs: "`groupId` (a configured group), `fileId` / `videoId`",
      inPlace: "—",
      replaces: "any change (delete first)",
      outputsAdded: "id `groupId/fileId`",
    },
    adoption: { adoptId: "`<groupId>/<fileId>`", others: "" },
  },
  outputs: [],
  handler: groupFileHandler,
  drift: groupContentDrift("file"),
  export: groupContentSection("file"),
});

export const groupVideoHandler: KindHandler<GroupVideoProperties> = attachmentHandler(
  groupVideoIdentity,
  groupVideoAttachment,
  contentOnGroup("videoId"),
);
export const groupVideoKind = defineKind({
  ...groupVideoIdentity,
  docs: {
    declares: "a video on a configured group",
    guide: "content",
    inputs: {
      inputs: "`groupId` (a configured group), `fileId` / `videoId`",
      inPlace: "—",
      replaces: "any change (delete first)",
      outputsAdded: "id `groupId/fileId`",
    },
    adoption: { adoptId: "`<groupId>/<videoId>`", others: "" },
  },
  outputs: [],
  handler: groupVideoHandler,
  drift: groupContentDrift("video"),
  export: groupContentSection("video"),
});

export const deviceFileHandler: KindHandler<DeviceFileProperties> = attachmentHandler(
  deviceFileIdentity,
  deviceFileAttachment,
  contentOnDevice("fileId"),
);
export const deviceFileKind = defineKind({
  ...deviceFileIdentity,
  docs: {
    declares: "a file on an ungrouped device",
    guide: "content",
    inputs: {
      inputs: "`deviceId` (an ungrouped device), `fileId` / `videoId`",
      inPlace: "—",
      replaces: "any change (delete first)",
      outputsAdded: "id `deviceId/fileId`",
    },
    adoption: { adoptId: "`<deviceId>/<fileId>`", others: "" },
  },
  outputs: [],
  handler: deviceFileHandler,
  drift: deviceContentDrift(deviceFileAttachment),
  export: deviceContentSection("file"),
});

export const deviceVideoHandler: KindHandler<DeviceVideoProperties> = attachmentHandler(
  deviceVideoIdentity,
  deviceVideoAttachment,
  contentOnDevice("videoId"),
);
export const deviceVideoKind = defineKind({
  ...deviceVideoIdentity,
  docs: {
    declares: "a video on an ungrouped device",
    guide: "content",
    inputs: {
      inputs: "`deviceId` (an ungrouped device), `fileId` / `videoId`",
      inPlace: "—",
      replaces: "any change (delete first)",
      outputsAdded: "id `deviceId/fileId`",
    },
    adoption: { adoptId: "`<deviceId>/<videoId>`", others: "" },
  },
  outputs: [],
  handler: deviceVideoHandler,
  drift: deviceContentDrift(deviceVideoAttachment),
  export: deviceContentSection("video"),
});
