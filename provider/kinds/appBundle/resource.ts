import type * as pulumi from "@pulumi/pulumi";
import { DeviceMgmtResource, type AdoptionArgs, registration } from "../../framework";
import { appBundleKind } from "./definition";

// What the package exports of the kind besides its class, from the kind's other files.
export { getAppBundle, getAppBundleOutput, type AppBundleResult, type GetAppBundleArgs } from "./lookups";

/** One data file of an {@link AppBundle}: a local file and the folder it goes to on devices. */
export interface AppBundleFileArgs {
  /**
   * The local file to upload: a path relative to the program's folder, or absolute. Never compared: its
   * SHA-512 is, so the same bytes at another local path are no change. Refused at preview: a missing or
   * unreadable file, an empty one, a folder, a symbolic link leading outside the program's folder, an `.apk`
   * (the build is `versionId`). Expansion files (`.obb`) are data files here.
   */
  source: pulumi.Input<string>;
  /** The folder on devices, e.g. "/sdcard/Android/obb/com.acme.sim". */
  path: pulumi.Input<string>;
  /** The file's name on devices; absent: the source's own name. */
  filename?: pulumi.Input<string>;
  /** Computed at preview from `source` (the output shows it); leave it out. */
  sha512?: pulumi.Input<string>;
}

/** The inputs of an {@link AppBundle}. */
export interface AppBundleArgs extends AdoptionArgs {
  /** The app the bundle belongs to. A change makes a new bundle. */
  appId: pulumi.Input<string>;
  /**
   * The build the bundle delivers: the id of an app version of that app (`getAppVersionOutput(...).id`, or an
   * AppVersion's id). A change makes a new bundle.
   */
  versionId: pulumi.Input<string>;
  /**
   * The data files installed with the build, each at its device folder. Compared by folder, name and content
   * (SHA-512), never by local path: changed content or another set of files makes a new bundle (a finalized
   * bundle takes no more files). Files the app already has (same content and name) are reused, not uploaded.
   */
  files?: pulumi.Input<pulumi.Input<AppBundleFileArgs>[]>;
  /**
   * The bundle's label (1 to 60 characters; null removes it). Changes in place. Left out, the label is not
   * managed: the API's automatic one ("Original", "Copy 1", …) is no change.
   */
  label?: pulumi.Input<string | null>;
}

/**
 * An app bundle: a build of an app plus data files with their device folders, uploaded from the repository and
 * finalized, for a `ReleaseChannelVersion`'s `bundleId`. Preview hashes every file; a changed file, another set
 * of files or another build makes a new bundle; the label changes in place, and a label changed in the portal
 * is seen by `refresh` (and set back by `up`).
 *
 * Create resumes a pending bundle of the same build that an interrupted run left (uploading only what it lacks)
 * instead of making a second one, and reuses files the app already has. The API cannot delete bundles: destroy,
 * or a replacement, leaves the old bundle in the organization and only removes it from the stack (with a warning).
 *
 * @example
 * const simulator = dm.getAppOutput({ name: "Training Simulator" });
 * const build = dm.getAppVersionOutput({ appName: "Training Simulator", version: "2.4.0" });
 * const bundle = new dm.AppBundle("field-test", {
 *   appId: simulator.id,
 *   versionId: build.id,
 *   files: [{ source: "content/main.240.com.acme.sim.obb", path: "/sdcard/Android/obb/com.acme.sim" }],
 *   label: "Field test",
 * });
 */
export class AppBundle extends DeviceMgmtResource {
  /** The app, as declared. */
  declare readonly appId: pulumi.Output<string>;
  /** The build the bundle delivers. */
  declare readonly versionId: pulumi.Output<string>;
  /** The data files where the bundle puts them, each with its content's SHA-512 (and the declared source). */
  declare readonly files: pulumi.Output<
    { source?: string; path: string; filename: string; sha512: string }[]
  >;
  /** The bundle's label (null: none). */
  declare readonly label: pulumi.Output<string | null>;
  /** "pending", "processing", "available" or "failed". */
  declare readonly status: pulumi.Output<string | null>;
  /** When the bundle was created (ISO 8601). */
  declare readonly createdAt: pulumi.Output<string>;
  /** When the bundle was last changed (ISO 8601). */
  declare readonly updatedAt: pulumi.Output<string>;

  constructor(name: string, args: AppBundleArgs, opts?: pulumi.CustomResourceOptions) {
    super(...registration(appBundleKind, name, args, opts));
  }
}
