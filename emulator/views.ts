/** JSON representations of stored records, with the fields and nesting of the v3 OpenAPI document. */
import type {
  AccessControl,
  App,
  AppBuild,
  Attachment,
  Device,
  DeviceModel,
  FileItem,
  Group,
  Organization,
  ReleaseChannel,
  Role,
  User,
  Video,
} from "./model";
import { newestFirst } from "./model";
import type { OrgState, Store } from "./store";
import type { DownloadLinks } from "./uploads";

export function organizationView(org: Organization) {
  return { id: org.id, name: org.name, slug: org.slug, createdAt: org.createdAt, updatedAt: org.updatedAt };
}

export function roleView(role: Role) {
  return {
    id: role.id,
    name: role.name,
    description: role.description,
    type: role.type,
    isOwnedBySystem: role.isOwnedBySystem,
    createdAt: role.createdAt,
    updatedAt: role.updatedAt,
  };
}

function accessControlView(org: OrgState, user: User, control: AccessControl) {
  const role = org.roles.get(control.roleId);
  return {
    id: control.id,
    userId: user.id,
    role: role ? roleView(role) : null,
    protectable: { id: control.protectable.id, type: control.protectable.type },
    createdAt: control.createdAt,
    updatedAt: control.updatedAt,
  };
}

export function userView(org: OrgState, user: User) {
  return {
    id: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    accessControls: user.accessControls.map((control) => accessControlView(org, user, control)),
    createdAt: user.createdAt,
    updatedAt: user.updatedAt,
  };
}

export interface GroupView {
  id: string;
  name: string;
  deviceCount: number | null;
  isConfigured: boolean;
  parent: GroupView | null;
  createdAt: string;
  updatedAt: string;
}

/** `deviceCount` is only meaningful for configured groups (null otherwise); `parent` is expanded up to the root. */
export function groupView(org: OrgState, group: Group, depth = 0): GroupView {
  const parent = group.parentId ? org.groups.get(group.parentId) : undefined;
  return {
    id: group.id,
    name: group.name,
    deviceCount: group.isConfigured ? org.deviceIdsIn(group.id).size : null,
    isConfigured: group.isConfigured,
    parent: parent && depth < org.groups.size ? groupView(org, parent, depth + 1) : null,
    createdAt: group.createdAt,
    updatedAt: group.updatedAt,
  };
}

export interface HierarchyNode {
  id: string;
  name: string;
  isConfigured: boolean;
  deviceCount?: number;
  children?: HierarchyNode[];
  createdAt: string;
  updatedAt: string;
}

function byNameThenId(a: Group, b: Group): number {
  const an = a.name.toLowerCase();
  const bn = b.name.toLowerCase();
  if (an !== bn) return an < bn ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Siblings sorted by name (case-insensitive), then id; configured groups carry deviceCount, others children. */
export function hierarchyView(org: OrgState, parentId: string | null = null): HierarchyNode[] {
  const children = [...org.childIdsOf(parentId)].map((id) => org.groups.get(id) as Group).sort(byNameThenId);
  return children.map((group) => ({
    id: group.id,
    name: group.name,
    isConfigured: group.isConfigured,
    ...(group.isConfigured
      ? { deviceCount: org.deviceIdsIn(group.id).size }
      : { children: hierarchyView(org, group.id) }),
    createdAt: group.createdAt,
    updatedAt: group.updatedAt,
  }));
}

export function deviceModelView(model: DeviceModel) {
  return {
    id: model.id,
    name: model.name,
    manufacturer: model.manufacturer,
    isSupported: model.isSupported,
    createdAt: model.createdAt,
    updatedAt: model.updatedAt,
  };
}

/** `group` is left out for an ungrouped device: the OpenAPI document lists it as optional and not nullable. */
export function deviceView(store: Store, org: OrgState, device: Device) {
  const group = device.groupId ? org.groups.get(device.groupId) : undefined;
  const model = store.deviceModels.get(device.deviceModelId);
  const t = device.telemetry;
  return {
    id: device.id,
    organization: organizationView(org.org),
    name: device.name,
    serialNumber: device.serialNumber,
    ...(group ? { group: groupView(org, group) } : {}),
    deviceModel: model ? deviceModelView(model) : null,
    tags: device.tags,
    lastCommunicatedAt: t.lastCommunicatedAt,
    isOnline: t.isOnline,
    clientVersion: t.clientVersion,
    launcherVersion: t.launcherVersion,
    enrollmentDate: device.enrollmentDate,
    systemVersion: t.systemVersion,
    osVersion: t.osVersion,
    ssid: t.ssid,
    macAddress: t.macAddress,
    randomizedMacAddress: t.randomizedMacAddress,
    storageSpaceFreeBytes: t.storageSpaceFreeBytes,
    storageSpaceTotalBytes: t.storageSpaceTotalBytes,
    batteryHealth: t.batteryHealth,
    batteryCharging: t.batteryCharging,
    batteryPercentage: t.batteryPercentage,
    batteryTemperatureC: t.batteryTemperatureC,
    ipAddress: t.ipAddress,
    signalStrength: t.signalStrength,
    frequencyMhz: t.frequencyMhz,
    linkSpeedMbps: t.linkSpeedMbps,
    lastLocationLatitude: t.lastLocationLatitude,
    lastLocationLongitude: t.lastLocationLongitude,
    lastLocationAt: t.lastLocationAt,
    runningApp: t.runningApp,
    customFields: t.customFields,
    complianceStatus: t.complianceStatus,
    controllers: t.controllers,
    createdAt: device.createdAt,
    updatedAt: device.updatedAt,
  };
}

export function appView(store: Store, org: OrgState, app: App) {
  return {
    id: app.id,
    name: app.name,
    description: app.description ?? null,
    tags: app.tags,
    deviceModels: app.deviceModelIds.flatMap((id) => {
      const model = store.deviceModels.get(id);
      return model ? [deviceModelView(model)] : [];
    }),
    packageName: app.packageName,
    // Devices with a version installed through one of its channels (simulated rollouts, emulator/rollout.ts).
    installedDeviceCount: store.rollouts.installedDeviceCount(org, app.id),
    icon:
      app.iconId === null
        ? null
        : {
            id: app.iconId,
            status: "available",
            downloadUrl: null,
            createdAt: app.createdAt,
            updatedAt: app.updatedAt,
          },
    latestAvailableVersion: app.latestBuild?.version ?? null,
    ownerOrganization: organizationView(org.org),
    createdAt: app.createdAt,
    updatedAt: app.updatedAt,
  };
}

function buildView(build: AppBuild) {
  return {
    id: build.id,
    version: build.version,
    code: build.code,
    sizeBytes: build.sizeBytes,
    checksum: build.checksum,
    status: "available",
    downloadUrl: null,
    createdAt: build.createdAt,
    updatedAt: build.updatedAt,
  };
}

/** Devices that content reaches, through their group or directly, each with the time it was assigned. */
function reachedDevices(
  org: OrgState,
  contentId: string,
  pick: (g: Group) => Attachment[],
  direct?: (d: Device) => Attachment[],
) {
  const reached: { deviceId: string; since: string }[] = [];
  for (const group of org.groups.values()) {
    if (!group.isConfigured) continue;
    const attachment = pick(group).find((a) => a.id === contentId);
    if (!attachment) continue;
    for (const deviceId of org.deviceIdsIn(group.id))
      reached.push({ deviceId, since: attachment.attachedAt });
  }
  if (direct) {
    for (const device of org.devices.values()) {
      const attachment = direct(device).find((a) => a.id === contentId);
      if (attachment) reached.push({ deviceId: device.id, since: attachment.attachedAt });
    }
  }
  return reached;
}

/** The release channels a group or device has attached, in list order (newest first). */
export function attachedReleaseChannels(org: OrgState, attachments: readonly Attachment[]): ReleaseChannel[] {
  return attachments
    .map((a) => org.releaseChannels.get(a.id))
    .filter((c) => c !== undefined)
    .sort(newestFirst);
}

export function releaseChannelView(store: Store, org: OrgState, channel: ReleaseChannel) {
  const app = org.apps.get(channel.appId) as App;
  const version = buildView(channel.build);
  return {
    id: channel.id,
    name: channel.name,
    app: appView(store, org, app),
    version,
    bundle: {
      id: channel.bundleId,
      // As GET /apps/{id}/app-bundles shows it ("First bundle has no label", OpenAPI).
      label: org.appBundles.get(channel.bundleId)?.label ?? null,
      status: "available",
      appBuild: version,
      createdAt: channel.createdAt,
      updatedAt: channel.updatedAt,
    },
    deviceStatuses: store.rollouts.statuses(org, channel),
    createdAt: channel.createdAt,
    updatedAt: channel.updatedAt,
  };
}

/** `links`: storage's signed GET of the uploaded bytes (switch `fileDownloadUrls`; absent: no field). */
export function fileView(org: OrgState, file: FileItem, links?: DownloadLinks) {
  return {
    id: file.id,
    filename: file.filename,
    location: file.location,
    sizeBytes: file.sizeBytes,
    checksum: file.checksum,
    downloadUrl: links?.downloadUrl(file.objectKey),
    tags: file.tags,
    deviceStatuses: reachedDevices(
      org,
      file.id,
      (g) => g.files,
      (d) => d.files,
    ).map(({ deviceId, since }) => ({
      deviceId,
      status: "pending-install",
      statusTimestamp: since,
    })),
    createdAt: file.createdAt,
    updatedAt: file.updatedAt,
  };
}

export function videoView(org: OrgState, video: Video, links?: DownloadLinks) {
  return {
    id: video.id,
    name: video.name,
    filename: video.filename,
    location: video.location,
    description: video.description ?? null,
    sizeBytes: video.sizeBytes,
    checksum: video.checksum,
    downloadUrl: links?.downloadUrl(video.objectKey),
    details: {
      videoType: video.videoType,
      ...(video.rendering ?? {
        videoMapping: video.videoType === "TwoDimensional" ? null : "EQUIRECTANGULAR",
        videoDisplay: video.videoType === "TwoDimensional" ? null : "Monoscopic",
        videoPacking: null,
        audioEncoding: "STEREO",
      }),
      playtimeSeconds: video.playtimeSeconds,
    },
    tags: video.tags,
    deviceStatuses: reachedDevices(
      org,
      video.id,
      (g) => g.videos,
      (d) => d.videos,
    ).map(({ deviceId, since }) => ({
      deviceId,
      status: "pending-install",
      statusTimestamp: since,
    })),
    createdAt: video.createdAt,
    updatedAt: video.updatedAt,
  };
}
