/** What the package exports of the AppVersion kind: the resource and its lookup. */
export { AppVersion, type AppVersionArgs } from "./resource";
export { getAppVersion, getAppVersionOutput, type AppVersionResult, type GetAppVersionArgs } from "./lookups";
