import type * as pulumi from "@pulumi/pulumi";
import { DeviceMgmtResource, registration } from "../../framework";
import type { AnyOf, HeadsetExperienceArgs } from "../experience/args";
import { headsetExperienceKind } from "./definition";
import type { HeadsetExperienceProperties } from "./properties";

// What the package exports of the kind besides its class, from the kind's other files.
export type { HeadsetExperienceArgs } from "../experience/args";

/**
 * What the headsets of a configured group, or of one ungrouped device, show: the ArborXR home, a kiosk, the
 * headset's own home or an in-house launcher, with that mode's settings. There is always one (the API has no
 * delete): creating the resource configures the declared mode; destroying it leaves the experience as it is,
 * unless `resetOnDelete: true` sets the default home.
 *
 * Fields the program leaves out that the mode may take (shared-mode settings, a kiosk's background, …) are
 * not managed: they keep their value, and a change made elsewhere does not show as a difference. The admin
 * PIN is secret; absent means no PIN.
 *
 * @example
 * const lobby = dm.getGroupOutput({ name: "Lobby" }); // a configured group at the root
 * const simulator = dm.getAppOutput({ name: "Training Simulator" });
 * new dm.HeadsetExperience("lobby-kiosk", {
 *   groupId: lobby.id, mode: "arborxr-kiosk", isMenuEnabled: false,
 *   kioskContent: { type: "app", id: simulator.id },
 *   // Required on a group (and on a Meta HMS device).
 *   sharedModeSettings: {
 *     enableOfflineMode: false, requireManagedMetaLogin: false, enableControllerFree: false,
 *     wakeControllers: true, adjustDeviceFit: false, defaultToStationaryBoundary: true,
 *   },
 * });
 */
export class HeadsetExperience extends DeviceMgmtResource {
  declare readonly groupId: pulumi.Output<string | undefined>;
  declare readonly deviceId: pulumi.Output<string | undefined>;
  /** The mode, by its configure path's name (`default-home`, not the API's `device-default`). */
  declare readonly mode: pulumi.Output<string>;

  constructor(name: string, args: HeadsetExperienceArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      ...registration<HeadsetExperienceProperties, AnyOf<HeadsetExperienceArgs>>(
        headsetExperienceKind,
        name,
        args,
        opts,
      ),
    );
  }
}
