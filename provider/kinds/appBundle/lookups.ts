/** `getAppBundle`: a bundle of an app, by label or by id. */
import { checker } from "../../client/arguments";
import { exactlyOne, lookup, lookupClient, toOutput, type LookupOptions } from "../../lookupSupport";

export interface AppBundleResult {
  /** For a ReleaseChannelVersion's `bundleId`. */
  id: string;
  label: string | null;
  /** The build the bundle delivers. */
  versionId: string | null;
  /** "pending", "processing", "available" or "failed". */
  status: string | null;
}

/** Arguments of {@link getAppBundle}: the app, and the bundle's label or id. */
export interface GetAppBundleArgs {
  /** The app's id (e.g. `dm.getAppOutput({ name: "Training Simulator" }).id`). */
  appId: string;
  /** The bundle's exact label, e.g. "Field test". Give this or `id`. */
  label?: string;
  /** The bundle's id. Give this or `label`. */
  id?: string;
}

/**
 * Finds a bundle of an app by its label (exactly one must have it) or its id.
 *
 * @function
 * @example
 * const simulator = dm.getAppOutput({ name: "Training Simulator" });
 * const field = dm.getAppBundleOutput({ appId: simulator.id, label: "Field test" });
 */
export const getAppBundle = lookup(async function getAppBundle(
  args: GetAppBundleArgs,
  options?: LookupOptions,
): Promise<AppBundleResult> {
  const check = checker("getAppBundle", args, 'getAppBundle({ appId: app.id, label: "Field test" })');
  check.only("appId", "label", "id");
  const appId = check.uuid("appId", "app");
  const label = check.has("label") ? check.name("label", "bundle's label") : undefined;
  const id = check.has("id") ? check.uuid("id", "app bundle") : undefined;
  if ((label === undefined) === (id === undefined))
    check.fail('give exactly one of "label" and "id".', label === undefined ? "label" : "id");
  // The app's list, also for an id: the bundle's own representation does not say which app it belongs to.
  const bundles = await lookupClient(options).releases.bundles(appId).all();
  const bundle = exactlyOne(
    label !== undefined ? `bundle labelled "${label}"` : `bundle ${id}`,
    bundles.filter((b) =>
      label !== undefined ? b.label === label : b.id.toLowerCase() === id?.toLowerCase(),
    ),
    (b) => b.id,
    bundles.map((b) => b.label ?? `(no label: ${b.id})`),
  );
  return {
    id: bundle.id,
    label: bundle.label ?? null,
    versionId: bundle.appBuild?.id ?? null,
    status: bundle.status ?? null,
  };
});
/** {@link getAppBundle} with Inputs, as an Output. */
export const getAppBundleOutput = toOutput(getAppBundle);
