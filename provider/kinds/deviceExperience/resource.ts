import type * as pulumi from "@pulumi/pulumi";
import { DeviceMgmtResource, registration } from "../../framework";
import type { AnyOf, DeviceExperienceArgs } from "../experience/args";
import { deviceExperienceKind } from "./definition";
import type { DeviceExperienceProperties } from "./properties";

// What the package exports of the kind besides its class, from the kind's other files.
export type { DeviceExperienceArgs } from "../experience/args";

/**
 * The device experience of a configured group or of one ungrouped device: lock task (only the listed apps),
 * the device's default home, or an in-house launcher. There is always one (the API has no delete): creating the
 * resource configures the declared mode; destroying it leaves it as it is, unless `resetOnDelete: true` sets
 * the default home.
 *
 * @example
 * const lobby = dm.getGroupOutput({ name: "Lobby" }); // a configured group at the root
 * const simulator = dm.getAppOutput({ name: "Training Simulator" });
 * new dm.DeviceExperience("lobby-lock", { groupId: lobby.id, mode: "lock-task", visibleContents: [{ type: "app", id: simulator.id }] });
 */
export class DeviceExperience extends DeviceMgmtResource {
  declare readonly groupId: pulumi.Output<string | undefined>;
  declare readonly deviceId: pulumi.Output<string | undefined>;
  /** The mode, by its configure path's name (`default-home`, not the API's `device-default`). */
  declare readonly mode: pulumi.Output<string>;

  constructor(name: string, args: DeviceExperienceArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      ...registration<DeviceExperienceProperties, AnyOf<DeviceExperienceArgs>>(
        deviceExperienceKind,
        name,
        args,
        opts,
      ),
    );
  }
}
