import type * as pulumi from "@pulumi/pulumi";
import { DeviceMgmtResource, type ConnectionArg, registration } from "../../framework";
import { deviceMigrationKind } from "./definition";

/** The inputs of a {@link DeviceMigration}. Any change replaces the migration. */
export interface DeviceMigrationArgs extends ConnectionArg {
  /** The device, in the source organization (the one the token or connection belongs to). */
  deviceId: pulumi.Input<string>;
  /** The target organization's slug. */
  organizationSlug: pulumi.Input<string>;
  /** Optional configured group in the target organization. */
  groupId?: pulumi.Input<string | null>;
}

/**
 * Moves a device to another organization. Deleting the resource does not move it back (the API cannot); it
 * only leaves the stack, with a warning.
 *
 * @example
 * // By id: once moved, the device is no longer found by name in this organization.
 * new dm.DeviceMigration("loaner-to-staging", { deviceId: "<device uuid>", organizationSlug: "acme-staging" });
 */
export class DeviceMigration extends DeviceMgmtResource {
  /** The migrated device. */
  declare readonly deviceId: pulumi.Output<string>;
  /** The target organization's slug. */
  declare readonly organizationSlug: pulumi.Output<string>;
  /** The group in the target organization, or null. */
  declare readonly groupId: pulumi.Output<string | null>;
  /** When the device was migrated (ISO 8601). */
  declare readonly migratedAt: pulumi.Output<string>;

  constructor(name: string, args: DeviceMigrationArgs, opts?: pulumi.CustomResourceOptions) {
    super(...registration(deviceMigrationKind, name, args, opts));
  }
}
