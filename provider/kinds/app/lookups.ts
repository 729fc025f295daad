/** `getApp`: an app by name. */
import type { DeviceMgmtClient } from "../../client";
import { checker } from "../../client/arguments";
import { liveStateOf } from "../../framework";
import { appNamed, lookup, lookupClient, toOutput, type LookupOptions } from "../../lookupSupport";
import { appProperties } from "./properties";

export interface AppResult {
  /** For an experience's content `{ type: "app", id }`. */
  id: string;
  name: string;
  packageName: string | null;
}

/** Arguments of {@link getApp}. */
export interface GetAppArgs {
  /** The app's exact name, e.g. "Training Simulator" (case-sensitive). */
  name: string;
}

/**
 * Finds an app of the organization by name.
 *
 * @function
 * @example
 * const simulator = dm.getAppOutput({ name: "Training Simulator" });
 * new dm.TagSet("simulator-tags", { ownerType: "app", ownerId: simulator.id, tags: ["training"] });
 */
export const getApp = lookup(async function getApp(
  args: GetAppArgs,
  options?: LookupOptions,
): Promise<AppResult> {
  const check = checker("getApp", args, 'getApp({ name: "Training Simulator" })');
  check.only("name");
  const name = check.name("name", "app's name");
  const app = await appNamed(
    lookupClient(options),
    name,
    (a) => `${a.id}${a.packageName ? ` (${a.packageName})` : ""}`,
  );
  // The name as the App kind maps it (its one live mapping); the package name is not a property of the kind.
  return { id: app.id, name: liveStateOf(appProperties, app).name, packageName: app.packageName ?? null };
});
/** {@link getApp} with Inputs, as an Output. */
export const getAppOutput = toOutput(getApp);

/** The names getApp finds: `getApp` finds an app by its name. */
export async function appNamesLookedUp(client: DeviceMgmtClient): Promise<string[]> {
  return (await client.apps.all()).map((app) => app.name);
}
