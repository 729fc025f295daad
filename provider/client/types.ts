/**
 * The v3 API's objects as the client returns them, declared as plain TypeScript interfaces. They are the public
 * face of `./schemas` (which parses responses into exactly these shapes, checked at compile time there), so
 * the published declarations never mention the validation library.
 *
 * Required fields are those the spec names for a resource or the OpenAPI document marks required; the others
 * are optional. Fields a server adds later are dropped by the parser, so they never appear here.
 */

/** `GET /api/token-info`: what the token is and which organization it belongs to. */
export interface TokenInfo {
  token_name: string;
  display_token: string;
  api_version: "v2" | "v3";
  organization_id: string;
  base_path: "/api/v2" | "/api/v3";
}

/** `GET /`: information about the API itself (the one call without authentication). */
export interface ApiInfo {
  name: string;
  /** Named by the prose spec, absent from the OpenAPI document. */
  description?: string;
  version: string;
  documentation: string;
  authentication: string;
  rateLimiting: string;
  contact: string;
  termsOfService: string;
}

/** Creation and last-change times, ISO 8601 with offset. */
export interface Timestamps {
  createdAt: string;
  updatedAt: string;
}

export interface Organization extends Timestamps {
  id: string;
  name: string;
  slug: string;
}

/** Whether a role applies to the whole organization or to one group. */
export type RoleType = "organization" | "group";

export interface Role extends Timestamps {
  id: string;
  name: string;
  /** Named by the prose spec, absent from the OpenAPI document. */
  description?: string | null;
  type: RoleType;
  isOwnedBySystem: boolean;
}

/** One role a user holds, on the organization, a group or a device. */
export interface AccessControl extends Timestamps {
  id: string;
  userId: string;
  role: Role;
  protectable: { id: string; type: "organization" | "group" | "device" };
}

export interface User extends Timestamps {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  accessControls: AccessControl[];
}

/** The parent of a group, expanded one level; its own `parent` is left opaque by the spec. */
export interface GroupParent extends Timestamps {
  id: string;
  name: string;
  deviceCount?: number | null;
  isConfigured: boolean;
  parent?: Record<string, unknown> | null;
}

/** A group: a folder of groups while unconfigured, a leaf holding devices and content once configured. */
export interface Group extends Timestamps {
  id: string;
  name: string;
  deviceCount?: number | null;
  isConfigured: boolean;
  /** Null for a root-level group. */
  parent: GroupParent | null;
}

/** One node of `GET /group-hierarchy`. */
export interface GroupHierarchyNode extends Timestamps {
  id: string;
  name: string;
  isConfigured: boolean;
  deviceCount?: number;
  children?: GroupHierarchyNode[];
}

export interface DeviceModel extends Timestamps {
  id: string;
  name: string;
  manufacturer?: string;
  isSupported: boolean;
}

export type ComplianceStatus = "up-to-date" | "out-of-date" | "syncing" | "waiting" | "error";

export interface Device extends Timestamps {
  id: string;
  organization?: Organization;
  name: string;
  serialNumber: string;
  group?: Group | null;
  deviceModel: DeviceModel;
  tags: string[];
  lastCommunicatedAt?: string | null;
  isOnline: boolean;
  clientVersion?: string | null;
  launcherVersion?: string | null;
  enrollmentDate: string | null;
  systemVersion?: string | null;
  osVersion?: string | null;
  ssid?: string | null;
  macAddress?: string | null;
  randomizedMacAddress?: string | null;
  storageSpaceFreeBytes?: number | null;
  storageSpaceTotalBytes?: number | null;
  batteryHealth?: string | null;
  batteryCharging?: boolean | null;
  batteryPercentage?: number | null;
  batteryTemperatureC?: number | null;
  ipAddress?: string | null;
  signalStrength?: number | null;
  frequencyMhz?: number | null;
  linkSpeedMbps?: number | null;
  lastLocationLatitude?: string | null;
  lastLocationLongitude?: string | null;
  lastLocationAt?: string | null;
  runningApp?: { packageName: string; name?: string | null } | null;
  customFields: Array<{ name: string; value: string }>;
  complianceStatus: ComplianceStatus;
  controllers: Array<{ name: string; batteryLevel: number; isConnected: boolean }>;
}

export interface Checksum {
  algorithm: string;
  value: string;
}

export interface App extends Timestamps {
  id: string;
  name: string;
  description?: string | null;
  tags?: string[];
  deviceModels?: DeviceModel[];
  packageName?: string | null;
  installedDeviceCount?: number;
  latestAvailableVersion?: string | null;
  ownerOrganization?: Organization;
}

/** One build (version) of an app. */
export interface AppBuild extends Timestamps {
  id: string;
  version?: string | null;
  code?: number | null;
  sizeBytes?: number | null;
  checksum?: Checksum;
  /** pending, uploaded, … (ten processing steps), available, or error. */
  status?: string;
  /** Why processing ended in `error`, where the API says (not a field of the OpenAPI: read when present). */
  statusReason?: string | null;
  downloadUrl?: string | null;
}

/** Where one device stands with a release channel's version. */
export interface ReleaseChannelDeviceStatus {
  deviceId: string;
  status: string;
  targetVersion: string;
  installedVersion: string | null;
  statusTimestamp: string;
}

export interface ReleaseChannel extends Timestamps {
  id: string;
  name: string;
  app: App;
  version: AppBuild;
  deviceStatuses: ReleaseChannelDeviceStatus[];
}

/** Where one device stands with a file or video. */
export interface ContentDeviceStatus {
  deviceId: string;
  status: string;
  statusTimestamp: string;
}

export interface DeviceFile extends Timestamps {
  id: string;
  filename: string;
  location?: string;
  sizeBytes: number | null;
  checksum: Checksum;
  tags?: string[];
  deviceStatuses: ContentDeviceStatus[];
  /**
   * A signed URL of the content on the storage host (not in the OpenAPI's File schema; absent when the API
   * answers none, null when it cannot be downloaded).
   */
  downloadUrl?: string | null;
}

/** What initiating a file upload answers: the upload's storage key and id, and the id the file will have. */
export interface FileUploadStart {
  key: string;
  uploadId: string;
  fileId: string;
}

/** What initiating a video upload answers. */
export interface VideoUploadStart {
  key: string;
  uploadId: string;
  videoId: string;
}

/** What initiating an app build's upload answers. */
export interface AppVersionUploadStart {
  key: string;
  uploadId: string;
  versionId: string;
}

/** What initiating an image upload answers. */
export interface ImageUploadStart {
  key: string;
  uploadId: string;
  imageId: string;
}

/** What initiating a custom 3D environment upload answers. */
export interface Custom3DEnvironmentUploadStart {
  key: string;
  uploadId: string;
  custom3DEnvironmentId: string;
}

/** A pre-signed URL for one part of an upload (the API names it `presignedUrl`, or `url` for app versions). */
export interface PresignedPart {
  partNumber: number;
  url: string;
}

/** One part as storage received it: what an upload's complete lists. */
export interface UploadedPart {
  partNumber: number;
  eTag: string;
}

export interface Video extends Timestamps {
  id: string;
  name: string;
  filename: string;
  location?: string;
  description?: string | null;
  sizeBytes: number;
  checksum: Checksum;
  /** How the video renders, as the upload or the last `PUT /videos/{videoId}` gave it. */
  details?: VideoDetails;
  tags?: string[];
  deviceStatuses: ContentDeviceStatus[];
  /** As a file's: not in the OpenAPI's Video schema; absent when the API answers none, null when it cannot be downloaded. */
  downloadUrl?: string | null;
}

/** A video's rendering fields (the OpenAPI's `details`). */
export interface VideoDetails {
  videoType: "ThreeSixty" | "OneEighty" | "TwoDimensional";
  videoMapping?: "EQUIRECTANGULAR" | "CUBEMAP" | null;
  videoDisplay?: "Stereoscopic" | "Monoscopic" | null;
  videoPacking?: "TOP_BOTTOM" | "LEFT_RIGHT" | null;
  audioEncoding?: string;
  playtimeSeconds?: number | null;
}

/** One page of a list endpoint: the items and the part of the pagination envelope the client reads. */
export interface Page<T> {
  data: T[];
  meta: { current_page: number; last_page: number; per_page: number; total: number };
}

/** One audit record (`GET /audit-logs`): who did what to which resource, and when. */
export interface AuditRecord {
  id: number;
  description: string;
  action: string;
  type: "created" | "read" | "updated" | "deleted" | "remote_action" | "exported";
  resourceId?: string | null;
  resourceType?: string | null;
  resourceName?: string | null;
  userId?: string | null;
  /** An e-mail address, "System" for system actions, or the vendor's name for its own staff. */
  userEmail: string;
  userIpAddress?: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The group's parent id, or null for a root group (the API exposes the expanded `parent` only). */
export function parentIdOf(group: Pick<Group, "parent">): string | null {
  return group.parent?.id ?? null;
}

// ---- What a headset shows: themes, images, custom 3D environments, experiences ------------------------------

/** A menu colour theme; system themes (`isSystemOwned`) are offered to every organization and cannot change. */
export interface Theme extends Timestamps {
  id: string;
  name: string;
  isSystemOwned: boolean;
  /** Colours in hex format (`#RRGGBB`). */
  background1: string;
  background2: string;
  text: string;
  accent1: string;
  accent2: string;
  accent3: string;
}

/** The colours and name a theme is written with (POST /themes, PUT /themes/{id}). */
export interface ThemeBody {
  name: string;
  background1: string;
  background2: string;
  text: string;
  accent1: string;
  accent2: string;
  accent3: string;
}

/** What an image is for: `GET /images?type=…` lists one type. */
export type ImageType =
  | "unknown"
  | "three-sixty-background"
  | "android-wallpaper"
  | "app-icon"
  | "video-icon"
  | "organization-icon"
  | "unmanaged-app-icon"
  | "webxr-link-icon"
  | "headset-xp-skybox"
  | "headset-xp-banner"
  | "headset-xp-menu-icon";

export interface Image extends Timestamps {
  id: string;
  isSystemOwned: boolean;
  objectName: string | null;
  originalFileName: string | null;
  mimeType?: string | null;
  sizeBytes?: number | null;
  type: string;
  status?: string;
  downloadUrl?: string | null;
}

export interface Custom3DEnvironment extends Timestamps {
  id: string;
  objectName: string;
  sizeBytes?: number | null;
  status?: string;
  downloadUrl?: string | null;
}

/** An app, video, unmanaged app or WebXR link shown by an experience. */
export interface ExperienceContent {
  id: string;
  type: string;
}

export interface ExperienceBackground {
  type: string;
  bannerImageId?: string | null;
  skyboxImageId?: string | null;
  threeSixtyImageId?: string | null;
  custom3DEnvironmentId?: string | null;
}

export interface SharedModeSettings {
  enableOfflineMode: boolean;
  requireManagedMetaLogin: boolean;
  requiredPasswordComplexity?: string | null;
  enableControllerFree: boolean;
  wakeControllers?: boolean | null;
  adjustDeviceFit: boolean;
  defaultToStationaryBoundary: boolean;
}

export interface MetaHmsSettings {
  isStoreEnabled: boolean;
  isSocialEnabled: boolean;
  isAddAccountsEnabled: boolean;
}

/**
 * A headset experience as `GET …/headset-experience` shows it: `mode` is `arborxr-home`, `arborxr-kiosk`,
 * `device-default` (configured through `default-home`) or `custom-launcher` (through `in-house-launcher`), with
 * the fields of that mode. `id` and the timestamps are null while nobody configured one.
 */
export interface HeadsetExperience {
  id: string | null;
  mode: string;
  visibleContents?: ExperienceContent[];
  language?: string | null;
  menuTitle?: string | null;
  menuIconImageId?: string | null;
  removePoweredByArborXrBranding?: boolean | null;
  shortcuts?: string[] | null;
  adminPin?: string | null;
  categorizationTags?: string[] | null;
  background?: ExperienceBackground | null;
  themeId?: string | null;
  sharedModeSettings?: SharedModeSettings | null;
  kioskContent?: ExperienceContent | null;
  isMenuEnabled?: boolean | null;
  metaHmsSettings?: MetaHmsSettings | null;
  launcherContent?: ExperienceContent | null;
  returnToLauncherViaHomeButton?: boolean | null;
  createdAt: string | null;
  updatedAt: string | null;
}

/** A device experience as `GET …/device-experience` shows it: `lock-task`, `device-default` or `custom-launcher`. */
export interface DeviceExperience {
  id: string | null;
  mode: string;
  visibleContents?: ExperienceContent[];
  launcherContent?: ExperienceContent | null;
  createdAt: string | null;
  updatedAt: string | null;
}

// ---- Devices, content and releases (issue 20): tags, app versions and bundles, channel sharing -------------

/** A tag of the organization's catalogue; groups, devices, apps, files and videos carry tag names. */
export interface Tag extends Timestamps {
  id: string;
  name: string;
}

/** One bundle of an app (`GET /apps/{id}/app-bundles`): a version ready to deliver; `label` may be null. */
export interface AppBundle extends Timestamps {
  id: string;
  label?: string | null;
  status?: string;
  appBuild?: AppBuild;
}

/** A data file of an app bundle (`GET /app-bundles/{id}/files`): where the bundle puts it on devices. */
export interface AppBundleFile extends Timestamps {
  id: string;
  name: string;
  location: string;
  /** Each place this bundle puts the file (folder and name). */
  bundlePaths: string[];
  sizeBytes: number | null;
  checksum: Checksum;
}

/** What `POST …/share` and `…/unshare` answer. */
export interface ShareResult {
  message?: string;
}
