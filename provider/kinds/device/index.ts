/** What the package exports of the Device kind: the resource and its lookups. */
export { Device, type DeviceArgs } from "./resource";
export {
  getDevice,
  getDeviceOutput,
  getDevices,
  getDevicesOutput,
  type DeviceResult,
  type GetDeviceArgs,
  type GetDevicesArgs,
} from "./lookups";
