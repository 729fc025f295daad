/** Files and videos of an ungrouped device: the API lists them, so a create looks first and refresh sees every change. */
import type { DeviceMgmtClient } from "../../client";
import { contentFailures } from "./catalogue";
import { ungroupedDeviceFailures } from "../device/catalogue";
import { readDevice } from "../../framework";
import { groupedDevice, listContains, type AttachmentSpec } from "./handler";
import { contentNoun, groupContentType, type ContentKey } from "./properties";

export function contentOnDevice(key: ContentKey): AttachmentSpec {
  const noun = contentNoun(key);
  const onGroup = groupContentType(key);
  const list = (client: DeviceMgmtClient, deviceId: string) =>
    key === "fileId" ? client.deviceContent.files(deviceId) : client.deviceContent.videos(deviceId);
  return {
    attachedNoun: noun,
    attached: (client, deviceId, id) => listContains(list(client, deviceId), id),
    attachedForRead: async (client, deviceId, id) => {
      await readDevice(client, deviceId);
      return listContains(list(client, deviceId), id);
    },
    attach: (client, deviceId, id) =>
      key === "fileId"
        ? client.deviceContent.addFile(deviceId, id)
        : client.deviceContent.addVideo(deviceId, id),
    detach: (client, deviceId, id) =>
      key === "fileId"
        ? client.deviceContent.removeFile(deviceId, id)
        : client.deviceContent.removeVideo(deviceId, id),
    explainRefusal: (client, deviceId) => groupedDevice(client, deviceId, `${noun}s`, onGroup),
    checkLive: async (inputs, olds) =>
      (
        await Promise.all([
          ungroupedDeviceFailures("deviceId", inputs, olds, `${noun}s`, onGroup),
          contentFailures(key, inputs, olds),
        ])
      ).flat(),
  };
}
