/**
 * The emulator's core stored records and the per-organization tables that hold them. The catalogue's and the
 * experiences' records build on these (catalogModel.ts, experienceModel.ts); storedState.ts gathers them all into
 * the state file's shape. Nothing here imports those, so the model reads from the bottom up.
 */
import type { Permission, RoleType } from "./permissions";

export interface Timestamps {
  createdAt: string;
  updatedAt: string;
}

export interface Organization extends Timestamps {
  id: string;
  name: string;
  slug: string;
}

export interface Role extends Timestamps {
  id: string;
  name: string;
  description: string;
  type: RoleType;
  permissions: Permission[];
  isOwnedBySystem: boolean;
}

export interface Protectable {
  type: "organization" | "group";
  id: string;
}

export interface AccessControl extends Timestamps {
  id: string;
  roleId: string;
  protectable: Protectable;
}

export interface User extends Timestamps {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  accessControls: AccessControl[];
}

/** A pivot row: something attached to a group or device, and when. */
export interface Attachment {
  id: string;
  attachedAt: string;
}

export interface Group extends Timestamps {
  id: string;
  name: string;
  parentId: string | null;
  isConfigured: boolean;
  releaseChannels: Attachment[];
  files: Attachment[];
  videos: Attachment[];
  /** Tag names (PATCH /groups/{id}/tags/attach|detach); absent in groups made before group tags existed. */
  tags?: string[];
}

/** Read-only telemetry a real device reports; seeded once, returned as is. */
export interface DeviceTelemetry {
  lastCommunicatedAt: string | null;
  isOnline: boolean;
  clientVersion: string | null;
  launcherVersion: string | null;
  systemVersion: string | null;
  osVersion: string | null;
  ssid: string | null;
  macAddress: string | null;
  randomizedMacAddress: string | null;
  storageSpaceFreeBytes: number | null;
  storageSpaceTotalBytes: number | null;
  batteryHealth: string | null;
  batteryCharging: boolean | null;
  batteryPercentage: number | null;
  batteryTemperatureC: number | null;
  ipAddress: string | null;
  signalStrength: number | null;
  frequencyMhz: number | null;
  linkSpeedMbps: number | null;
  lastLocationLatitude: string | null;
  lastLocationLongitude: string | null;
  lastLocationAt: string | null;
  runningApp: { packageName: string; name: string | null } | null;
  customFields: { name: string; value: string }[];
  complianceStatus: "up-to-date" | "out-of-date" | "syncing" | "waiting" | "error";
  controllers: { name: string; batteryLevel: number; isConnected: boolean }[];
}

export interface Device extends Timestamps {
  id: string;
  name: string;
  serialNumber: string;
  groupId: string | null;
  deviceModelId: string;
  tags: string[];
  releaseChannels: Attachment[];
  /** Files and videos attached to the device itself (only while it is ungrouped). */
  files: Attachment[];
  videos: Attachment[];
  enrollmentDate: string | null;
  telemetry: DeviceTelemetry;
  /** When it last joined a group (its group's release channels reach it from then on); absent if never. */
  groupJoinedAt?: string;
}

export interface DeviceModel extends Timestamps {
  id: string;
  name: string;
  manufacturer: string;
  isSupported: boolean;
}

export interface Checksum {
  algorithm: "MD5" | "SHA-256" | "SHA-512";
  value: string;
}

export interface AppBuild extends Timestamps {
  id: string;
  version: string;
  code: number;
  sizeBytes: number;
  checksum: Checksum;
}

export interface App extends Timestamps {
  id: string;
  name: string;
  /** Set through `PUT /apps/{id}`; absent in state files from before it could be (read as null). */
  description?: string | null;
  /** Null until a build is uploaded (an app made through `POST /apps` has none). */
  packageName: string | null;
  tags: string[];
  deviceModelIds: string[];
  /** Null for an app made through `POST /apps`: nobody uploaded an icon. */
  iconId: string | null;
  /** Null for an app made through `POST /apps`: no build yet. */
  latestBuild: AppBuild | null;
}

export interface ReleaseChannel extends Timestamps {
  id: string;
  appId: string;
  name: string;
  build: AppBuild;
  bundleId: string;
  /** Ids of the other organizations the channel is shared with, in sharing order. */
  sharedWithOrgIds: string[];
  /** Absent until its version is first changed through the API (see emulator/rollout.ts). */
  rollout?: ChannelRollout;
}

/**
 * The current rollout of a release channel: which version it delivers since when (on the emulator clock), and
 * what each device it reached then had installed. A channel without one delivers its build since its creation.
 */
export interface ChannelRollout {
  versionId: string;
  version: string;
  startedAt: string;
  /** Device id -> the version it had installed from this channel when the rollout started (null: none). */
  installedBefore: Record<string, string | null>;
}

export interface FileItem extends Timestamps {
  id: string;
  filename: string;
  location: string;
  sizeBytes: number;
  checksum: Checksum;
  tags: string[];
  /** The storage object of its uploaded bytes (emulator/uploads.ts); absent: seeded, no bytes. */
  objectKey?: string;
}

export interface Video extends Timestamps {
  id: string;
  name: string;
  filename: string;
  location: string;
  /** Absent until a `PUT /videos/{videoId}` gives one (seeded and uploaded videos have none). */
  description?: string | null;
  sizeBytes: number;
  checksum: Checksum;
  tags: string[];
  /** null for an uploaded video: the emulator does not decode media. */
  playtimeSeconds: number | null;
  videoType: "ThreeSixty" | "OneEighty" | "TwoDimensional";
  /**
   * The rendering fields an upload's initiate gave; absent on seeded videos (and state files from before
   * uploads), which read as the view derives them from the type.
   */
  rendering?: VideoRendering;
  /** The storage object of its uploaded bytes (emulator/uploads.ts); absent: seeded, no bytes. */
  objectKey?: string;
}

export interface VideoRendering {
  videoMapping: "EQUIRECTANGULAR" | "CUBEMAP" | null;
  videoDisplay: "Stereoscopic" | "Monoscopic" | null;
  videoPacking: "TOP_BOTTOM" | "LEFT_RIGHT" | null;
  audioEncoding: string;
}

/** One audit record (GetAuditLogs_200_response_data_inner): who did what to which resource, and when. */
export interface AuditRecord {
  /** Integer, increasing across the whole emulator (the OpenAPI types it as an integer). */
  id: number;
  description: string;
  action: string;
  type: "created" | "read" | "updated" | "deleted" | "remote_action" | "exported";
  resourceId: string | null;
  resourceType: string | null;
  resourceName: string | null;
  userId: string | null;
  userEmail: string;
  userIpAddress: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Newest first, ties broken by id ascending: the order of every list endpoint. */
export function newestFirst(
  a: { createdAt: string; id: string },
  b: { createdAt: string; id: string },
): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** A keyed collection that keeps its list order cached until a row is added or removed. */
export class Table<T extends { id: string; createdAt: string }> {
  private readonly rows = new Map<string, T>();
  private ordered: T[] | null = null;

  constructor(rows: Iterable<T> = []) {
    for (const row of rows) this.rows.set(row.id, row);
  }

  get size(): number {
    return this.rows.size;
  }

  get(id: string): T | undefined {
    return this.rows.get(id);
  }

  insert(row: T): void {
    this.rows.set(row.id, row);
    this.ordered = null;
  }

  delete(id: string): boolean {
    const removed = this.rows.delete(id);
    if (removed) this.ordered = null;
    return removed;
  }

  values(): IterableIterator<T> {
    return this.rows.values();
  }

  /** All rows in list order; the array is shared, callers must not mutate it. */
  list(): readonly T[] {
    if (!this.ordered) this.ordered = [...this.rows.values()].sort(newestFirst);
    return this.ordered;
  }
}

export interface OrgTables {
  org: Organization;
  roles: Table<Role>;
  users: Table<User>;
  groups: Table<Group>;
  devices: Table<Device>;
  apps: Table<App>;
  releaseChannels: Table<ReleaseChannel>;
  files: Table<FileItem>;
  videos: Table<Video>;
}
