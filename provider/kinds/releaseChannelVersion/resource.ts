import type * as pulumi from "@pulumi/pulumi";
import { DeviceMgmtResource, type ConnectionArg, registration } from "../../framework";
import { releaseChannelVersionKind } from "./definition";

// What the package exports of the kind besides its class, from the kind's other files.
export { RolloutGateError, type RolloutCount } from "./rolloutGate";

/** The inputs of a {@link ReleaseChannelVersion}. */
export interface ReleaseChannelVersionArgs extends ConnectionArg {
  /** The channel's app (see `getReleaseChannel`'s `appId`). */
  appId: pulumi.Input<string>;
  /** The release channel. */
  releaseChannelId: pulumi.Input<string>;
  /** The version the channel delivers (see `getAppVersion`); or give `bundleId`. */
  versionId?: pulumi.Input<string>;
  /** One bundle of the app the channel delivers; or give `versionId`. */
  bundleId?: pulumi.Input<string>;
  /**
   * A gate: once the channel delivers the version, wait until `share` of its devices (only those of `groupIds`, if
   * given) report it installed, for at most `timeoutSeconds` (1 to 21600), asking every `pollIntervalSeconds` (at
   * least 1 and at most the timeout; default a tenth of the timeout, 1 to 10). A failed install, the timeout, or
   * no device to count fails the run with the numbers (installed, pending, failed, by group); the channel stays
   * on the new version and every later `up` judges the gate again until it passes. A passed gate is not judged
   * again until the channel moves or the gate changes.
   */
  rollout?: pulumi.Input<{
    share: pulumi.Input<number>;
    timeoutSeconds: pulumi.Input<number>;
    groupIds?: pulumi.Input<pulumi.Input<string>[]>;
    pollIntervalSeconds?: pulumi.Input<number>;
  }>;
}

/**
 * The version a release channel delivers: promoting a build is a reviewed change of the program. Destroy leaves
 * the channel on the version it delivers. Its id is `<appId>/<releaseChannelId>`.
 *
 * @example
 * const production = dm.getReleaseChannelOutput({ appName: "Training Simulator", channelName: "Production" });
 * const v24 = dm.getAppVersionOutput({ appName: "Training Simulator", version: "2.4.0" });
 * new dm.ReleaseChannelVersion("production", {
 *   appId: production.appId, releaseChannelId: production.id, versionId: v24.id,
 *   rollout: { share: 0.9, timeoutSeconds: 1800 },
 * });
 */
export class ReleaseChannelVersion extends DeviceMgmtResource {
  declare readonly appId: pulumi.Output<string>;
  declare readonly releaseChannelId: pulumi.Output<string>;
  declare readonly versionId: pulumi.Output<string>;
  /**
   * The bundle the channel delivers, as declared (absent when `versionId` was declared; null once a read finds
   * the channel on another version). Follow it with `bundleId: beta.bundleId` to put the same bundle on another
   * channel.
   */
  declare readonly bundleId: pulumi.Output<string | null | undefined>;
  /** The version's name (e.g. "2.4.0"), as last read. */
  declare readonly version: pulumi.Output<string | null>;
  /** The version's name before this resource last moved the channel. */
  declare readonly previousVersion: pulumi.Output<string | undefined>;
  /**
   * "passed" (the gate passed, and holds until the channel moves or the gate changes), "failed" (a device failed,
   * the timeout passed, or no device counted: every later `up` judges the gate again until it passes) or "none"
   * (no gate).
   */
  declare readonly rolloutStatus: pulumi.Output<string>;
  /** The gate's last numbers (installed, pending, failed, by group). */
  declare readonly rolloutSummary: pulumi.Output<string | undefined>;
  /** The version (id) the gate last judged: `rolloutStatus` is about it. */
  declare readonly rolloutVersionId: pulumi.Output<string | undefined>;

  constructor(name: string, args: ReleaseChannelVersionArgs, opts?: pulumi.CustomResourceOptions) {
    super(...registration(releaseChannelVersionKind, name, args, opts));
  }
}
