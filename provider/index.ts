/**
 * pulumi-devicemgmt: the organization of a device-management service as Pulumi resources.
 */
export * from "./kinds/classes";
export type * from "./kinds/experience/args";
export * from "./lookups";
export * from "./deviceModelLookups";
export type { ConnectionInput } from "./connection";
export type { ConnectionArgs } from "./framework/secretConnection";
export { DeviceMgmtResource, type AdoptionArgs, type ConnectionArg } from "./framework/common";
export type { ImageType } from "./client/types";
export * from "./errors";
