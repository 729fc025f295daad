/** What the package exports of the attachment kinds: the six classes and their inputs. */
export {
  GroupReleaseChannel,
  type GroupReleaseChannelArgs,
  DeviceReleaseChannel,
  type DeviceReleaseChannelArgs,
  type AttachmentArgs,
  GroupFile,
  GroupVideo,
  DeviceFile,
  DeviceVideo,
} from "./resource";
