/**
 * What the drift report reads of attachments. An attachment is its pair, which the report's key already matches:
 * the live fields are the declared mapping of the pair (no property has `fromLive`, so nothing more is compared),
 * and the report's findings are attachments gone, or made where no stack declares them. Release channels and a
 * device's own files and videos are listed per owner; a group's files and videos cannot be listed at all.
 */
import type { ReleaseChannel } from "../../client";
import { groupPaths, str, type DriftFacet } from "../../drift/driftKind";
import type { LiveOrganization } from "../../drift/live";
import { liveStateOf } from "../../framework";
import {
  contentNoun,
  OWNERS,
  type AttachmentDeclaration,
  type ContentKey,
  type OwnerKey,
} from "./properties";

const channelLabel = (rc: ReleaseChannel) => `"${rc.app.name} / ${rc.name}"`;

/** Release channels on groups or on devices: one list per owner that can hold them, or that a stack names. */
export function releaseChannelDrift<Owner extends OwnerKey>({
  ownerKey,
  properties,
}: AttachmentDeclaration<Owner, "releaseChannelId">): DriftFacet {
  const owner = OWNERS[ownerKey].noun;
  return {
    title: owner === "group" ? "Release channels on groups" : "Release channels on devices",
    key: (r) => `${str(r.outputs[ownerKey])}/${str(r.outputs.releaseChannelId)}`,
    stateLabel: (r) =>
      `release channel ${str(r.outputs.releaseChannelId)} on ${owner} ${str(r.outputs[ownerKey])}`,
    itemOf: (r) => ({ id: str(r.outputs.releaseChannelId) }),
    itemNames: async (org) => new Map((await org.releaseChannels()).map((rc) => [rc.id, rc.name])),
    labelReferences: (r) => [
      { id: str(r.outputs.releaseChannelId), from: { list: "releaseChannels" } },
      { id: str(r.outputs[ownerKey]), from: { list: owner === "group" ? "groups" : "devices" } },
    ],
    // The documents do not say whether such a record names the owner or the channel: either is taken. Under
    // the owner, only a record about a release channel of this name (a rename, another channel: not this).
    concerns: (record, item) =>
      (item !== undefined && record.resourceId === item.id) ||
      (/release.?channel/i.test(`${record.action} ${record.description}`) &&
        (item?.name === undefined || record.description.includes(`'${item.name}'`))),
    read: async (org, managed) => {
      const named = managed.map((r) => str(r.outputs[ownerKey]));
      let owners: Map<string, string>;
      let lists: Map<string, ReleaseChannel[]>;
      if (owner === "group") {
        const groups = await org.groups();
        const paths = groupPaths(groups);
        owners = new Map(groups.map((g) => [g.id, `group "${paths.get(g.id)}"`]));
        // Only a configured group holds content; a named one is read whatever it is, to see what it lost.
        lists = await org.groupChannels([...groups.filter((g) => g.isConfigured).map((g) => g.id), ...named]);
      } else {
        const devices = await org.devices();
        owners = new Map(devices.map((d) => [d.id, `device "${d.name}" (${d.serialNumber})`]));
        // A device in a group runs its group's channels; its own attachments are read where it has no group.
        lists = await org.deviceChannels([...devices.filter((d) => !d.group).map((d) => d.id), ...named]);
      }
      return [...lists].flatMap(([ownerId, channels]) =>
        channels.map((rc) => {
          const label = `${channelLabel(rc)} on ${owners.get(ownerId) ?? `${owner} ${ownerId}`}`;
          return {
            key: `${ownerId}/${rc.id}`,
            label,
            fields: liveStateOf(properties, { ownerId, attachedId: rc.id }),
            auditIds: [ownerId, rc.id],
            item: { id: rc.id, name: rc.name },
            names: [label],
          };
        }),
      );
    },
  };
}

/**
 * Files and videos of ungrouped devices: one list per ungrouped device (and per device a stack names), as for
 * a device's release channels; an item no stack attached is unmanaged. Audit records name the device and the
 * item by name in their description.
 */
export function deviceContentDrift<Key extends ContentKey>({
  attachedKey,
  properties,
}: AttachmentDeclaration<"deviceId", Key>): DriftFacet {
  const what = contentNoun(attachedKey);
  const nameOf = async (org: LiveOrganization) =>
    new Map(
      what === "file"
        ? (await org.files()).map((f) => [f.id, f.filename])
        : (await org.videos()).map((v) => [v.id, v.name]),
    );
  return {
    title: what === "file" ? "Files of devices" : "Videos of devices",
    key: (r) => `${str(r.outputs.deviceId)}/${str(r.outputs[attachedKey])}`,
    stateLabel: (r) => `${what} ${str(r.outputs[attachedKey])} on device ${str(r.outputs.deviceId)}`,
    itemOf: (r) => ({ id: str(r.outputs[attachedKey]) }),
    itemNames: nameOf,
    labelReferences: (r) => [{ id: str(r.outputs.deviceId), from: { list: "devices" } }],
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
            fields: liveStateOf(properties, { ownerId: deviceId, attachedId: id }),
            auditIds: [deviceId, id],
            item: { id, name },
            names: [label, name],
          };
        }),
      );
    },
  };
}

/** A group's files or videos: listed under "not compared", with why. */
export function groupContentDrift(what: "file" | "video"): DriftFacet {
  return {
    title: what === "file" ? "Files of groups" : "Videos of groups",
    notCompared:
      "the API documents no list of a group's files and videos, so a detach made in the portal cannot be seen",
    key: () => undefined,
    stateLabel: (r) => `group ${what} ${r.id}`,
  };
}
