/** What the package exports of the App kind: the resource and its lookup. */
export { App, type AppArgs } from "./resource";
export { getApp, getAppOutput, type AppResult, type GetAppArgs } from "./lookups";
