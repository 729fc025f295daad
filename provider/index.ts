/**
 * pulumi-devicemgmt: the organization of a device-management service as Pulumi resources.
 */
export { Group, type GroupArgs } from "./resources/group";
export { User, type UserArgs, type GroupRole, type GroupRoleArgs } from "./resources/user";
export {
  GroupReleaseChannel,
  type GroupReleaseChannelArgs,
  DeviceReleaseChannel,
  type DeviceReleaseChannelArgs,
  type AttachmentArgs,
} from "./resources/attachments";
export { DeviceMigration, type DeviceMigrationArgs } from "./resources/deviceMigration";
export { Theme, type ThemeArgs } from "./resources/theme";
export { HeadsetExperience } from "./resources/headsetExperience";
export { DeviceExperience } from "./resources/deviceExperience";
export { Device, type DeviceArgs } from "./resources/device";
export { Tag, type TagArgs, TagSet, type TagSetArgs } from "./resources/tag";
export { GroupFile, GroupVideo, DeviceFile, DeviceVideo } from "./resources/attachments";
export { ReleaseChannelVersion, type ReleaseChannelVersionArgs } from "./resources/releaseChannelVersion";
export { RolloutGateError, type RolloutCount } from "./resources/rolloutGate";
export { ReleaseChannelShare, type ReleaseChannelShareArgs } from "./resources/releaseChannelShare";
export type * from "./resources/experienceArgs";
export * from "./lookups";
export * from "./contentLookups";
export * from "./releaseLookups";
export type { ConnectionInput } from "./connection";
export type { ConnectionArgs } from "./resources/secretConnection";
export { DeviceMgmtResource, type AdoptionArgs, type ConnectionArg } from "./resources/common";
export type { ImageType } from "./client/types";
export * from "./errors";
