/**
 * pulumi-devicemgmt: the organization of a device-management service as Pulumi resources.
 */
export * from "./kinds/group";
export { User, type UserArgs, type GroupRole, type GroupRoleArgs } from "./kinds/user";
export {
  GroupReleaseChannel,
  type GroupReleaseChannelArgs,
  DeviceReleaseChannel,
  type DeviceReleaseChannelArgs,
  type AttachmentArgs,
} from "./kinds/attachment";
export * from "./kinds/deviceMigration";
export { Theme, type ThemeArgs } from "./kinds/theme";
export { HeadsetExperience } from "./kinds/headsetExperience";
export { DeviceExperience } from "./kinds/deviceExperience";
export * from "./kinds/device";
export * from "./kinds/tag";
export * from "./kinds/tagSet";
export { GroupFile, GroupVideo, DeviceFile, DeviceVideo } from "./kinds/attachment";
export { ReleaseChannelVersion, type ReleaseChannelVersionArgs } from "./kinds/releaseChannelVersion";
export { RolloutGateError, type RolloutCount } from "./kinds/releaseChannelVersion/rolloutGate";
export { ReleaseChannelShare, type ReleaseChannelShareArgs } from "./kinds/releaseChannelShare";
export type * from "./kinds/experience/args";
export * from "./lookups";
export * from "./contentLookups";
export * from "./releaseLookups";
export type { ConnectionInput } from "./connection";
export type { ConnectionArgs } from "./framework/secretConnection";
export { DeviceMgmtResource, type AdoptionArgs, type ConnectionArg } from "./framework/common";
export type { ImageType } from "./client/types";
export * from "./errors";
