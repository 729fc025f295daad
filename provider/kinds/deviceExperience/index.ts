/** DeviceExperience: how a configured group's or an ungrouped device's Android side runs (see experience.ts). */
import { DeviceMgmtResource } from "../../framework/common";
import * as pulumi from "@pulumi/pulumi";
import type { DeviceExperiencePath } from "../../client";
import { experienceHandler, experienceProperties } from "../experience/handler";
import type { AnyOf, DeviceExperienceArgs } from "../experience/args";
import { DEVICE_FIELDS, DEVICE_MODES } from "../experience/fields";
import { defineKind, registration } from "../../framework/kind";

const FIELDS = ["visibleContents", "launcherContent"] as const;

const deviceExperienceProperties = experienceProperties(DEVICE_MODES, FIELDS);

export const deviceExperienceHandler = experienceHandler(
  {
    resourceName: "DeviceExperience",
    noun: "device experience",
    table: DEVICE_FIELDS,
    fields: FIELDS,
    calls: (client) => ({
      get: (holder) => client.deviceExperiences.get(holder),
      set: (holder, path: DeviceExperiencePath, body) => client.deviceExperiences.set(holder, path, body),
    }),
    resetBody: () => ({}),
  },
  () => deviceExperienceKind,
);

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
      ...registration<typeof deviceExperienceProperties, AnyOf<DeviceExperienceArgs>>(
        deviceExperienceKind,
        name,
        args,
        opts,
      ),
    );
  }
}

export const deviceExperienceKind = defineKind({
  kind: "deviceExperience",
  type: "DeviceExperience",
  naturalKey: false,
  properties: deviceExperienceProperties,
  outputs: ["configuredInRun"],
  handler: deviceExperienceHandler,
});
