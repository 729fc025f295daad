import type * as pulumi from "@pulumi/pulumi";
import { DeviceMgmtResource, type ConnectionArg, registration } from "../../framework";
import { deviceKind } from "./definition";

// What the package exports of the kind besides its class, from the kind's other files.
export {
  getDevice,
  getDeviceOutput,
  getDevices,
  getDevicesOutput,
  type DeviceResult,
  type GetDeviceArgs,
  type GetDevicesArgs,
} from "./lookups";

/** The inputs of a {@link Device}: which enrolled device (by id or serial number), and what to manage of it. */
export interface DeviceArgs extends ConnectionArg {
  /** The device's id; or give `serialNumber`. Changing it means another device (the old one is forgotten). */
  deviceId?: pulumi.Input<string>;
  /** The device's serial number (matched without case); or give `deviceId`. */
  serialNumber?: pulumi.Input<string>;
  /** The device's name; absent: not managed. */
  name?: pulumi.Input<string>;
  /** The configured group the device sits in; null: ungrouped; absent: not managed. */
  groupId?: pulumi.Input<string | null>;
  /**
   * The device's tags, the whole set (names of the catalogue's tags, matched without case: declare a Tag and
   * use its `name`, or see getTag); absent: not managed.
   */
  tags?: pulumi.Input<pulumi.Input<string>[]>;
  /** The device's custom fields, the whole set (name → value); absent: not managed. */
  customFields?: pulumi.Input<Record<string, pulumi.Input<string>>>;
}

/**
 * An enrolled device (a headset), adopted by id or serial number: devices are enrolled on the headset, never
 * created by Pulumi. Manages where it sits (`groupId`, which decides its channels, content and experience), its
 * name, tags and custom fields; each property left out is not managed. Destroy forgets the device and leaves it
 * as it is.
 *
 * @example
 * const berlin = dm.getGroupOutput({ name: "Berlin Lab" }); // a configured group at the root
 * new dm.Device("lobby-01", { serialNumber: "ACM0001", name: "Lobby 01", groupId: berlin.id, tags: ["lobby"] });
 */
export class Device extends DeviceMgmtResource {
  declare readonly deviceId: pulumi.Output<string>;
  declare readonly serialNumber: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly groupId: pulumi.Output<string | null>;
  declare readonly tags: pulumi.Output<string[]>;
  declare readonly customFields: pulumi.Output<Record<string, string>>;
  /** The device model's name, as last read. */
  declare readonly deviceModel: pulumi.Output<string>;

  constructor(name: string, args: DeviceArgs, opts?: pulumi.CustomResourceOptions) {
    super(...registration(deviceKind, name, args, opts));
  }
}
