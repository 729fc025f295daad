/** `getAppVersion`: a version (build) of an app by the app's name and the version's name. */
import { checker } from "../../client/arguments";
import {
  appNamed,
  exactlyOne,
  lookup,
  lookupClient,
  toOutput,
  type LookupOptions,
} from "../../lookupSupport";

/** One version (build) of an app. */
export interface AppVersionResult {
  /** For a ReleaseChannelVersion's `versionId`. */
  id: string;
  version: string;
  code: number | null;
  appId: string;
  appName: string;
}

/** Arguments of {@link getAppVersion}. */
export interface GetAppVersionArgs {
  /** The app's exact name, e.g. "Training Simulator". */
  appName: string;
  /** The version's name, e.g. "2.4.0". */
  version: string;
}

/**
 * Finds a version of an app by the app's name and the version's name (a build uploaded by hand or by the vendor's
 * CLI; one this program uploads is an `AppVersion`, whose `id` a channel takes directly).
 *
 * @function
 * @example
 * const production = dm.getReleaseChannelOutput({ appName: "Training Simulator", channelName: "Production" });
 * const v24 = dm.getAppVersionOutput({ appName: "Training Simulator", version: "2.4.0" });
 * new dm.ReleaseChannelVersion("production", {
 *   appId: production.appId, releaseChannelId: production.id, versionId: v24.id,
 * });
 */
export const getAppVersion = lookup(async function getAppVersion(
  args: GetAppVersionArgs,
  options?: LookupOptions,
): Promise<AppVersionResult> {
  const check = checker(
    "getAppVersion",
    args,
    'getAppVersion({ appName: "Training Simulator", version: "2.4.0" })',
  );
  check.only("appName", "version");
  const appName = check.name("appName", "app's name");
  const version = check.name("version", "version's name");
  const client = lookupClient(options);
  const app = await appNamed(client, appName);
  const versions = await client.releases.versions(app.id).all();
  const found = exactlyOne(
    `version "${version}" of app "${app.name}"`,
    versions.filter((v) => v.version === version),
    (v) => v.id,
    versions.map((v) => v.version ?? v.id),
  );
  return { id: found.id, version, code: found.code ?? null, appId: app.id, appName: app.name };
});
/** {@link getAppVersion} with Inputs, as an Output. */
export const getAppVersionOutput = toOutput(getAppVersion);
