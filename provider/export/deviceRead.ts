/**
 * Devices, tags and channel versions, read for the export (issue 20): the tag catalogue, where each device sits
 * (its group, name, tags and custom fields) and the version each release channel delivers, by name, so the
 * program can find them in another organization.
 *
 * Decisions:
 * - A device is declared by its serial number (`Device` adopts by serial: devices are enrolled on the headset,
 *   never created), so the program places the same headset wherever that serial is enrolled.
 * - A channel version is exported only where `getAppVersion({ appName, version })` singles it out: one app of
 *   that name, one channel of that name in it, one version of that name; everything else is left out with why.
 */
import type { DeviceMgmtClient } from "../client";
import { contentKey } from "./content";
import { compareBy } from "./order";
import { liveStateOf } from "../framework";
import { tagProperties } from "../kinds/tag/properties";
import { tagSetProperties } from "../kinds/tagSet/properties";

export interface ModelTag {
  id: string;
  name: string;
}

export interface ModelPlacedDevice {
  id: string;
  serialNumber: string;
  name: string;
  /** The configured group it sits in; null: ungrouped. */
  groupId: string | null;
  /** Tag names, sorted. */
  tags: string[];
  /** Custom fields, name → value, sorted by name. */
  customFields: [string, string][];
}

export interface ModelChannelVersion {
  appName: string;
  channelName: string;
  /** The version's name, as `getAppVersion` finds it. */
  version: string;
  /** The build's id: where the export declares the build (content.ts), the channel refers to it. */
  versionId?: string;
}

/** The tags of an app, file or video, found by its name (groups' tags are not in the API's answers). */
export interface ModelTagSet {
  ownerType: "app" | "file" | "video";
  ownerId: string;
  /** The app's or video's name, the file's file name. */
  ownerName: string;
  tags: string[];
}

/** A file or video on an ungrouped device itself; the device is found by name. */
export interface ModelDeviceContent {
  deviceId: string;
  deviceName: string;
  type: "file" | "video";
  contentId: string;
  /** The video's name, the file's file name. */
  contentName: string;
}

export interface DeviceRead {
  tags: ModelTag[];
  tagSets: ModelTagSet[];
  deviceContent: ModelDeviceContent[];
  devices: ModelPlacedDevice[];
  channelVersions: ModelChannelVersion[];
  leftOut: string[];
}

export async function readDevicesAndTags(
  client: DeviceMgmtClient,
  options: {
    withTags: boolean;
    withDevices: boolean;
    withVersions: boolean;
    /**
     * Content the program declares (`contentKey(type, id)`, content.ts): referred to by its resource, so a name
     * other objects share does not leave it out.
     */
    declared?: ReadonlySet<string>;
  },
): Promise<DeviceRead> {
  const leftOut: string[] = [];
  const tags: ModelTag[] = options.withTags
    ? (await client.tags.all())
        .map((t) => ({ id: t.id, ...liveStateOf(tagProperties, t) }))
        .sort(compareBy((t) => t.name))
    : [];

  const tagSets: ModelTagSet[] = [];
  if (options.withTags) {
    const [apps, files, videos] = await Promise.all([
      client.apps.all(),
      client.files.all(),
      client.videos.all(),
    ]);
    const owners = [
      ...apps.map((a) => ({
        ownerType: "app" as const,
        ownerId: a.id,
        ownerName: a.name,
        tags: liveStateOf(tagSetProperties, a).tags,
      })),
      ...files.map((f) => ({
        ownerType: "file" as const,
        ownerId: f.id,
        ownerName: f.filename,
        tags: liveStateOf(tagSetProperties, f).tags,
      })),
      ...videos.map((v) => ({
        ownerType: "video" as const,
        ownerId: v.id,
        ownerName: v.name,
        tags: liveStateOf(tagSetProperties, v).tags,
      })),
    ];
    for (const owner of owners) {
      if (!owner.tags.length) continue;
      const named = owners.filter((o) => o.ownerType === owner.ownerType && o.ownerName === owner.ownerName);
      if (named.length > 1 && !options.declared?.has(contentKey(owner.ownerType, owner.ownerId))) {
        leftOut.push(
          `The tags of ${owner.ownerType} "${owner.ownerName}": ${named.length} ${owner.ownerType}s have this name, so it cannot be looked up.`,
        );
        continue;
      }
      tagSets.push({ ...owner, tags: [...owner.tags].sort(compareBy((t) => t)) });
    }
    tagSets.sort(
      compareBy(
        (t) => t.ownerType,
        (t) => t.ownerName,
      ),
    );
  }

  const devices: ModelPlacedDevice[] = [];
  const deviceContent: ModelDeviceContent[] = [];
  if (options.withDevices) {
    const all = await client.devices.all();
    const sameName = new Map<string, number>();
    for (const d of all) sameName.set(d.name, (sameName.get(d.name) ?? 0) + 1);
    const [files, videos] = await Promise.all([client.files.all(), client.videos.all()]);
    const filesNamed = (name: string) => files.filter((f) => f.filename === name).length;
    const videosNamed = (name: string) => videos.filter((v) => v.name === name).length;
    // The API lists a device's own files and videos (GET /devices/{id}/files|videos), not a group's.
    for (const d of all.filter((device) => !device.group)) {
      const [own, ownVideos] = await Promise.all([
        client.deviceContent.files(d.id).all(),
        client.deviceContent.videos(d.id).all(),
      ]);
      const items = [
        ...own.map((f) => ({
          type: "file" as const,
          contentId: f.id,
          contentName: f.filename,
          count: filesNamed(f.filename),
        })),
        ...ownVideos.map((v) => ({
          type: "video" as const,
          contentId: v.id,
          contentName: v.name,
          count: videosNamed(v.name),
        })),
      ];
      for (const item of items) {
        const where = `The ${item.type} "${item.contentName}" on device "${d.name}" (${d.serialNumber})`;
        if (sameName.get(d.name)! > 1)
          leftOut.push(`${where}: ${sameName.get(d.name)} devices have this name.`);
        else if (item.count !== 1 && !options.declared?.has(contentKey(item.type, item.contentId)))
          leftOut.push(`${where}: ${item.count} ${item.type}s have this name.`);
        else
          deviceContent.push({
            deviceId: d.id,
            deviceName: d.name,
            type: item.type,
            contentId: item.contentId,
            contentName: item.contentName,
          });
      }
    }
    deviceContent.sort(
      compareBy(
        (c) => c.deviceName,
        (c) => c.type,
        (c) => c.contentName,
      ),
    );
    const serials = new Map<string, number>();
    for (const d of all)
      serials.set(d.serialNumber.toLowerCase(), (serials.get(d.serialNumber.toLowerCase()) ?? 0) + 1);
    for (const d of all) {
      if (serials.get(d.serialNumber.toLowerCase())! > 1) {
        leftOut.push(
          `Device "${d.name}": its serial number ${d.serialNumber} is shared, so it cannot be adopted by serial.`,
        );
        continue;
      }
      devices.push({
        id: d.id,
        serialNumber: d.serialNumber,
        name: d.name,
        groupId: d.group?.id ?? null,
        tags: [...d.tags].sort(compareBy((t) => t)),
        customFields: d.customFields
          .map((f) => [f.name, f.value] as [string, string])
          .sort(compareBy((f) => f[0])),
      });
    }
    devices.sort(
      compareBy(
        (d) => d.name,
        (d) => d.serialNumber,
      ),
    );
  }

  const channelVersions: ModelChannelVersion[] = [];
  if (options.withVersions) {
    const apps = await client.apps.all();
    const appsNamed = new Map<string, number>();
    for (const a of apps) appsNamed.set(a.name, (appsNamed.get(a.name) ?? 0) + 1);
    for (const app of apps) {
      const channels = await client.apps.releaseChannels(app.id).all();
      if (!channels.length) continue;
      if (appsNamed.get(app.name)! > 1) {
        leftOut.push(
          `The channel versions of app "${app.name}": ${appsNamed.get(app.name)} apps have this name.`,
        );
        continue;
      }
      const versions = await client.releases.versions(app.id).all();
      for (const channel of channels) {
        const where = `The version of channel "${channel.name}" of app "${app.name}"`;
        const name = channel.version.version;
        if (channels.filter((c) => c.name === channel.name).length > 1) {
          leftOut.push(`${where}: the app has several channels of this name.`);
        } else if (!name) {
          leftOut.push(`${where}: the version it delivers has no name, so getAppVersion cannot find it.`);
        } else if (versions.filter((v) => v.version === name).length !== 1) {
          leftOut.push(
            `${where}: the app has ${versions.filter((v) => v.version === name).length} versions named "${name}".`,
          );
        } else {
          channelVersions.push({
            appName: app.name,
            channelName: channel.name,
            version: name,
            versionId: channel.version.id,
          });
        }
      }
    }
    channelVersions.sort(
      compareBy(
        (v) => v.appName,
        (v) => v.channelName,
      ),
    );
  }
  return { tags, tagSets, deviceContent, devices, channelVersions, leftOut };
}
