/**
 * The Device kind's part of preview's catalogue checks: a device that takes channels, files, videos or an
 * experience of its own must exist and be ungrouped, unless a `Device` of this run takes it out of its group
 * (which notes it: `noteDeclaredPlacement`).
 */
import type { DeviceMgmtClient } from "../../client";
import {
  readDevice,
  type Props,
  clientOf,
  known,
  lookRemembered,
  RunDeclarations,
  type Failure,
} from "../../framework";

/**
 * Devices a `Device` of this run declares ungrouped (`groupId: null`), by client: its check runs before that of
 * a resource taking its `deviceId` output, and its update before that resource's create, so such a device is
 * not refused for the group it is about to leave.
 */
const declaredUngrouped = new RunDeclarations("dropped");

/** Called by `Device`'s check (by `deviceId`) and diff (by the recorded id: a device declared by serial number). */
export function noteDeclaredPlacement(deviceId: unknown, inputs: Props): void {
  if (inputs.groupId === null && known(deviceId)) declaredUngrouped.note(inputs, deviceId);
}

/** Whether a `Device` of this run takes the device out of its group (see `noteDeclaredPlacement`). */
export const leavesItsGroup = (client: DeviceMgmtClient, deviceId: string) =>
  declaredUngrouped.has(client, deviceId);

/** A device that takes channels, files, videos or an experience of its own must be ungrouped. */
export async function ungroupedDeviceFailures(
  property: string,
  inputs: Props,
  olds: Props,
  what: string,
  instead: string,
): Promise<Failure[]> {
  const id = inputs[property];
  if (!known(id) || id === olds[property]) return [];
  const client = clientOf(inputs);
  if (client === undefined) return [];
  // From the run's coalesced list pass: a first preview of many attachments reads the list, not each one.
  const device = await lookRemembered(client, `device/${id}`, () => readDevice(client, id));
  if (device === undefined)
    return [
      {
        property,
        reason: `${property}: device ${id} does not exist in the organization (devices are enrolled on the headset; see getDevice).`,
      },
    ];
  if (device?.group && !leavesItsGroup(client, id))
    return [
      {
        property,
        reason:
          `${property}: device ${id} ("${device.name}") is in group ${device.group.id} ("${device.group.name}"), ` +
          `and ${what} attach to a device only while it is ungrouped. Attach to the group instead (${instead}), ` +
          `or take the device out of the group.`,
      },
    ];
  return [];
}
