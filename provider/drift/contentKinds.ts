/**
 * The drift report's entries for the kinds of devices, content and releases: tags, tag sets, files and videos on
 * groups and devices, release-channel versions and shares. Each reads from list pages where the API has them;
 * where it cannot show something, the entry says why, and the report lists such resources as not compared.
 */
import type { ResourceKind } from "../kindKeys";
import { str, text, type LegacyDriftKind } from "./driftKind";
import type { LiveOrganization } from "./live";

type ContentKind = Extract<
  ResourceKind,
  "groupFile" | "groupVideo" | "deviceFile" | "deviceVideo" | "releaseChannelVersion" | "releaseChannelShare"
>;

/** A kind the API gives no way to read back: listed under "not compared" with the reason. */
function unreadable(
  noun: string,
  title: string,
  reason: string,
  label: (id: string) => string,
): LegacyDriftKind {
  return {
    title,
    noun,
    notCompared: reason,
    key: () => undefined,
    compared: {},
    stateLabel: (r) => label(r.id),
  };
}

/**
 * Files and videos of ungrouped devices: one list per ungrouped device (and per device a stack names), as for
 * a device's release channels; an item no stack attached is unmanaged. Audit records name the device and the
 * item by name in their description.
 */
function deviceContentKind(what: "file" | "video"): LegacyDriftKind {
  const key = what === "file" ? "fileId" : "videoId";
  const nameOf = async (org: LiveOrganization) =>
    new Map(
      what === "file"
        ? (await org.files()).map((f) => [f.id, f.filename])
        : (await org.videos()).map((v) => [v.id, v.name]),
    );
  return {
    title: what === "file" ? "Files of devices" : "Videos of devices",
    noun: what === "file" ? "deviceFile" : "deviceVideo",
    key: (r) => `${str(r.outputs.deviceId)}/${str(r.outputs[key])}`,
    compared: {},
    stateLabel: (r) => `${what} ${str(r.outputs[key])} on device ${str(r.outputs.deviceId)}`,
    itemOf: (r) => ({ id: str(r.outputs[key]) }),
    itemNames: nameOf,
    concerns: (record, item) =>
      new RegExp(`\\b${what}\\b`, "i").test(record.action) &&
      (item?.name === undefined || record.description.includes(`'${item.name}'`)),
    read: async (org, managed) => {
      const devices = await org.devices();
      const stated = managed.map((r) => str(r.outputs.deviceId));
      const ids = [...devices.filter((d) => !d.group).map((d) => d.id), ...stated];
      const named = (items: Array<{ id: string; filename: string; name?: string }>) =>
        items.map((i) => ({ id: i.id, name: what === "video" && i.name ? i.name : i.filename }));
      const lists = what === "file" ? await org.deviceFiles(ids) : await org.deviceVideos(ids);
      const owners = new Map(devices.map((d) => [d.id, `device "${d.name}" (${d.serialNumber})`]));
      return [...lists].flatMap(([deviceId, items]) =>
        named(items).map(({ id, name }) => {
          const label = `${what} "${name}" on ${owners.get(deviceId) ?? `device ${deviceId}`}`;
          return {
            key: `${deviceId}/${id}`,
            label,
            fields: {},
            auditIds: [deviceId, id],
            item: { id, name },
            names: [label, name],
          };
        }),
      );
    },
  };
}

const GROUP_CONTENT =
  "the API documents no list of a group's files and videos, so a detach made in the portal cannot be seen";

export const contentKinds: Record<ContentKind, LegacyDriftKind> = {
  groupFile: unreadable("groupFile", "Files of groups", GROUP_CONTENT, (id) => `group file ${id}`),
  groupVideo: unreadable("groupVideo", "Videos of groups", GROUP_CONTENT, (id) => `group video ${id}`),
  deviceFile: deviceContentKind("file"),
  deviceVideo: deviceContentKind("video"),
  releaseChannelVersion: {
    title: "Release channel versions",
    noun: "releaseChannelVersion",
    key: (r) => `${str(r.outputs.appId)}/${str(r.outputs.releaseChannelId)}`,
    compared: { versionId: text, version: text },
    // Every channel delivers some version; one no stack pins is not managed.
    reportsUnmanaged: false,
    stateLabel: (r) =>
      `release channel ${str(r.outputs.channelName ?? r.outputs.releaseChannelId)} at version ${str(r.outputs.version)}`,
    // Records name the channel; a promotion is one that changed its version.
    concerns: (record) => /version/i.test(record.description),
    read: async (org, managed) => {
      if (!managed.length) return [];
      return (await org.releaseChannels()).map((rc) => ({
        key: `${rc.app.id}/${rc.id}`,
        label: `"${rc.app.name} / ${rc.name}" delivers ${rc.version.version ?? rc.version.id}`,
        fields: { versionId: rc.version.id, version: rc.version.version ?? null },
        auditIds: [rc.id],
        names: [`${rc.app.name} / ${rc.name}`],
      }));
    },
  },
  releaseChannelShare: unreadable(
    "releaseChannelShare",
    "Release channel shares",
    "the API cannot list a channel's shares, so an unshare made in the portal cannot be seen",
    (id) => `share ${id}`,
  ),
};
