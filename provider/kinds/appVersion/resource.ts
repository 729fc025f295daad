import type * as pulumi from "@pulumi/pulumi";
import { DeviceMgmtResource, type AdoptionArgs, registration } from "../../framework";
import { appVersionKind } from "./definition";

// What the package exports of the kind besides its class, from the kind's other files.
export { getAppVersion, getAppVersionOutput, type AppVersionResult, type GetAppVersionArgs } from "./lookups";

/** The inputs of an {@link AppVersion}. */
export interface AppVersionArgs extends AdoptionArgs {
  /** The app the build belongs to (an `App`'s id, or `getApp`'s). A change uploads a build to the other app. */
  appId: pulumi.Input<string>;
  /**
   * The .apk to upload: a path relative to the program's folder, or absolute. Never sent to the API and never
   * compared: the build's SHA-256 is (`sha256`), so the same bytes at another path are no change, and changed
   * bytes at the same path are a new build. Refused at preview: a missing, unreadable or empty file, a folder, a
   * symbolic link leading outside the program's folder, a file that is not an `.apk` (an `.obb` belongs to a
   * bundle).
   */
  source: pulumi.Input<string>;
  /**
   * The build's version as channels and devices show it, e.g. "2.4.0" (sent with the upload). The API renames no
   * build: a change makes another build, and a build of the same bytes under another name is refused.
   */
  versionName: pulumi.Input<string>;
  /**
   * Release notes, sent with the upload. The API neither shows nor changes them afterwards: a change alone is an
   * update that sends nothing and warns that the build keeps the notes it was uploaded with.
   */
  releaseNotes?: pulumi.Input<string>;
  /**
   * Optional pin: the SHA-256 (hex) the source must have; the check of a preview and of an `up` fails when it
   * has another (`up` hashes the source again: only a pin holds the bytes a preview was reviewed with). Absent,
   * the source's hash is taken (and is the output `sha256`).
   */
  sha256?: pulumi.Input<string>;
}

/**
 * A build of an app, uploaded from the repository, for `ReleaseChannelVersion` to promote (`versionId:
 * build.id`). Its identity is its content's SHA-256: preview hashes `source`, and a changed hash makes a new
 * build. The upload waits until the API has processed the build (`available`); a build whose processing ends in
 * `error` fails the run with the API's reason.
 *
 * A create first looks for a build of the same hash in the app and takes it over, with a message, instead of
 * uploading it again (as the vendor's CLI does): this also repairs a run killed mid-upload. Builds cannot be
 * deleted: destroy (and a replacement) removes the build from the stack only, and says so.
 *
 * @example
 * const app = dm.getAppOutput({ name: "Training Simulator" });
 * const build = new dm.AppVersion("sim-2-5", {
 *   appId: app.id, source: "builds/training-simulator.apk", versionName: "2.5.0",
 * });
 * const beta = dm.getReleaseChannelOutput({ appName: "Training Simulator", channelName: "Beta" });
 * new dm.ReleaseChannelVersion("beta", { appId: app.id, releaseChannelId: beta.id, versionId: build.id });
 */
export class AppVersion extends DeviceMgmtResource {
  /** The app the build belongs to. */
  declare readonly appId: pulumi.Output<string>;
  /** The local .apk uploaded, as declared. */
  declare readonly source: pulumi.Output<string>;
  /** The build's version, as the API answers it. */
  declare readonly versionName: pulumi.Output<string>;
  /** The release notes, as declared. */
  declare readonly releaseNotes: pulumi.Output<string | undefined>;
  /** The SHA-256 (hex, lower case) of the build, as the API answers it. */
  declare readonly sha256: pulumi.Output<string>;
  /** The build's version code, as the API answers it. */
  declare readonly code: pulumi.Output<number | null>;
  /** The build's size in bytes. */
  declare readonly sizeBytes: pulumi.Output<number | null>;
  /** Its status when last read: `available` once processed. */
  declare readonly status: pulumi.Output<string | null>;
  /** When the build was uploaded (ISO 8601). */
  declare readonly createdAt: pulumi.Output<string>;

  constructor(name: string, args: AppVersionArgs, opts?: pulumi.CustomResourceOptions) {
    super(...registration(appVersionKind, name, args, opts));
  }
}
