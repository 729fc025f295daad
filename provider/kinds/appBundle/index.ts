/** What the package exports of the AppBundle kind: the resource and its lookup. */
export { AppBundle, type AppBundleArgs, type AppBundleFileArgs } from "./resource";
export { getAppBundle, getAppBundleOutput, type AppBundleResult, type GetAppBundleArgs } from "./lookups";
