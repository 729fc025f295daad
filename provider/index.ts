/**
 * pulumi-devicemgmt: the organization of a device-management service as Pulumi resources.
 */
export * from "./kinds/group";
export * from "./kinds/user";
export * from "./kinds/attachment";
export * from "./kinds/deviceMigration";
export * from "./kinds/theme";
export * from "./kinds/headsetExperience";
export * from "./kinds/deviceExperience";
export * from "./kinds/device";
export * from "./kinds/tag";
export * from "./kinds/tagSet";
export * from "./kinds/releaseChannelVersion";
export * from "./kinds/releaseChannelShare";
export * from "./kinds/app";
export * from "./kinds/file";
export * from "./kinds/video";
export * from "./kinds/appVersion";
export * from "./kinds/appBundle";
export * from "./kinds/image";
export type * from "./kinds/experience/args";
export * from "./lookups";
export * from "./deviceModelLookups";
export type { ConnectionInput } from "./connection";
export type { ConnectionArgs } from "./framework/secretConnection";
export { DeviceMgmtResource, type AdoptionArgs, type ConnectionArg } from "./framework/common";
export type { ImageType } from "./client/types";
export * from "./errors";
