/**
 * The drift report's entries for the kinds of devices and content: tags, tag sets, files and videos on groups
 * and devices. Each reads from list pages where the API has them;
 * where it cannot show something, the entry says why, and the report lists such resources as not compared.
 */
import type { ResourceKind } from "../kindKeys";
import { nameSet, str, text, type LegacyDriftKind } from "./driftKind";
import type { LiveOrganization } from "./live";

type ContentKind = Extract<
  ResourceKind,
  "tag" | "tagSet" | "groupFile" | "groupVideo" | "deviceFile" | "deviceVideo"
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
  tag: {
    title: "Tags",
    noun: "tag",
    key: (r) => r.id,
    compared: { name: text },
    stateLabel: (r) => `tag "${str(r.outputs.name ?? r.id)}"`,
    read: async (org) =>
      (await org.tags()).map((t) => ({
        key: t.id,
        label: `"${t.name}"`,
        fields: { name: t.name },
        auditIds: [t.id],
        names: [t.name],
      })),
  },
  tagSet: {
    title: "Tags of groups, apps, files and videos",
    noun: "tagSet",
    key: (r) => `${str(r.outputs.ownerType)}/${str(r.outputs.ownerId)}`,
    compared: { tags: nameSet },
    // Carrying tags is not an object of its own: tags on something no stack declares a set for are not managed.
    reportsUnmanaged: false,
    stateLabel: (r) => `tags of ${str(r.outputs.ownerType)} ${str(r.outputs.ownerId)}`,
    uncompared: (r) =>
      r.outputs.ownerType === "group"
        ? "a group's representation in the API has no tags, so a group's tags cannot be read back"
        : undefined,
    concerns: (record) => /tags/i.test(record.action),
    read: async (org, managed) => {
      const types = new Set(managed.map((r) => r.outputs.ownerType));
      const owners = [
        ...(types.has("app") ? (await org.apps()).map((a) => ["app", a.id, a.name, a.tags] as const) : []),
        ...(types.has("file")
          ? (await org.files()).map((f) => ["file", f.id, f.filename, f.tags] as const)
          : []),
        ...(types.has("video")
          ? (await org.videos()).map((v) => ["video", v.id, v.name, v.tags] as const)
          : []),
      ];
      return owners.map(([type, id, name, tags]) => ({
        key: `${type}/${id}`,
        label: `tags of ${type} "${name}": ${(tags ?? []).join(", ") || "none"}`,
        fields: { tags: tags ?? [] },
        auditIds: [id],
        names: [name],
      }));
    },
  },
  groupFile: unreadable("groupFile", "Files of groups", GROUP_CONTENT, (id) => `group file ${id}`),
  groupVideo: unreadable("groupVideo", "Videos of groups", GROUP_CONTENT, (id) => `group video ${id}`),
  deviceFile: deviceContentKind("file"),
  deviceVideo: deviceContentKind("video"),
};
