/** Public types of the emulator's in-process API (the contract other parts of the project build on). */
import type { ImageType } from "./experienceModel";
import type { RolloutConfig } from "./rollout";

export type { DeviceInstallStatus, RolloutConfig } from "./rollout";

export interface FaultConfig {
  /** Added to every /api request before it is handled. */
  latencyMs: number;
  /** Share (0..1) of /api requests answered with 500, 502 or 503 without being executed. */
  errorRate: number;
  /**
   * Injected 429 bursts: of every `every` consecutive /api requests, the last `length` are answered with 429
   * (Retry-After: 1) without being executed. null = off.
   */
  rateLimitBurst: { every: number; length: number } | null;
  /** Share (0..1) of writes whose connection is destroyed before the write is applied. */
  dropBeforeWriteRate: number;
  /** Share (0..1) of writes whose connection is destroyed after the write is applied (and persisted). */
  dropAfterWriteRate: number;
  /** Seed of the fault dice; setting it (again) restarts the deterministic sequence. */
  seed: number;
  /** Upload faults (counts, each taken by the next occurrence): pre-signed URLs handed out already expired. */
  expireUploadUrls: number;
  /** Part PUTs the storage endpoint answers 500 without storing the part. */
  failUploadParts: number;
  /** Upload initiates (of a file, video, image, 3D environment or app build) applied, then answered by dropping the connection. */
  loseInitiateAnswers: number;
  /** Upload completes that are applied, then answered by dropping the connection. */
  loseCompleteAnswers: number;
  /** App builds whose processing, after their complete, ends in `error` (with a reason) instead of `available`. */
  failAppBuilds: number;
  /**
   * Uploaded images and custom 3D environments whose processing, after their complete, ends in `failed` instead
   * of `available` (the documents name no failed status for them: the emulator's reading of one).
   */
  failContentProcessing: number;
  /** Finalized app bundles whose processing ends in `failed` instead of `available`. */
  failBundleProcessing: number;
}

export interface RateLimitConfig {
  limit: number;
  windowMs: number;
}

/**
 * Strictness switches for behaviour the API documentation leaves open. Off by default (the lenient behaviour
 * the emulator always had); turn them on to check that a client copes with the stricter reading.
 */
export interface StrictOptions {
  /**
   * `POST /user-invites` records a pending invitation instead of creating the user; the user record exists
   * only after `POST /_emulator/invitations/accept` (admin token). Pending invitations are not persisted.
   */
  pendingInvitations?: boolean;
  /** `PUT /users/{id}` attaching a group role the user already has answers 422 instead of a no-op 200. */
  rejectRepeatedRoleAttach?: boolean;
  /**
   * `GET …/headset-experience` / `…/device-experience` of a group or device nobody configured (or an unconfigured
   * group) answers 404 instead of the `device-default` mode with null `id`, `createdAt` and `updatedAt`.
   */
  unsetExperienceNotFound?: boolean;
  /**
   * A device's own experiences are dropped when it joins a group (after leaving the group it reads as unset)
   * instead of applying again once it is ungrouped.
   */
  dropDeviceExperienceOnGroupJoin?: boolean;
  /** GET of an experience answers `adminPin: null` instead of the stored PIN. */
  withholdAdminPin?: boolean;
  /**
   * Fields the chosen mode, background type or `isMenuEnabled` does not take are 422 ("prohibited") instead of
   * being ignored (not stored, not read back).
   */
  rejectUnusedExperienceFields?: boolean;
  /**
   * Lists in an experience (`visibleContents`, `shortcuts`, `categorizationTags`) read back sorted instead of in
   * the order they were sent.
   */
  sortExperienceLists?: boolean;
  /** Deleting a theme that an experience uses is 422 instead of leaving those experiences with no theme. */
  rejectDeletingUsedTheme?: boolean;
  /** A theme name another theme (system or custom, case-insensitively) has is 422 instead of allowed. */
  uniqueThemeNames?: boolean;
  /** Theme colours are stored and read back lowercased instead of as sent. */
  lowercaseThemeColors?: boolean;
  /**
   * No device counts as a "Meta HMS device": devices never need `sharedModeSettings` / `metaHmsSettings`,
   * instead of every device of a Meta model needing them.
   */
  noMetaHmsDevices?: boolean;
  /** `PUT /devices/{id}` with `tags` adds them to the device's tags instead of replacing them. */
  mergeDeviceTagsOnPut?: boolean;
  /** A tag name that names no tag (`PUT /devices`, tags attach) is 422 instead of creating the tag. */
  rejectUnknownTags?: boolean;
  /** Attaching a tag the owner has, or detaching one it lacks, is 422 instead of a no-op 204. */
  rejectRepeatedTagAttach?: boolean;
  /** Attaching a file or video a group or device already has is a no-op 204 instead of 422. */
  ignoreRepeatedContentAttach?: boolean;
  /** Sharing a channel with an organization it is shared with (or unsharing one it is not) is 200 instead of 422. */
  repeatShareIsNoOp?: boolean;
  /** `GET /groups/{id}/files` and `/videos` (absent from the OpenAPI document) list what a group holds. */
  listGroupContent?: boolean;
  /**
   * Attaching or detaching a release channel, file or video on a group, or a release channel on a device, is
   * audited under the attached item (`resourceType` "release-channel", its id and name) instead of the owner
   * (documents silent).
   */
  auditAttachmentsByItem?: boolean;
  /** `POST /apps` / `PUT /apps/{id}` with a name another app of the organization has (case-insensitively) is 422. */
  uniqueAppNames?: boolean;
  /** `POST /apps` without `deviceModelIds` makes an app for every supported model instead of for none. */
  defaultAppModelsToSupported?: boolean;
  /** `PUT /apps/{id}` with `tags` adds them to the app's tags instead of replacing them. */
  mergeAppTagsOnPut?: boolean;
  /** `PUT /videos/{id}` `tags` are added to the video's tags instead of replacing them. */
  mergeVideoTagsOnPut?: boolean;
  /** `PUT /apps/{id}` with `description: ""` keeps the empty string instead of reading it as null. */
  keepEmptyAppDescription?: boolean;
  /**
   * `conflictStrategy: "replace"` of an upload's complete gives the new content to the file it replaces, which
   * keeps its id (the id initiate answered never becomes a file), instead of the new file (the initiated id)
   * taking the replaced file's place, tags and attachments.
   */
  replaceKeepsFileId?: boolean;
  /**
   * A file upload with `appBundleId` makes a data file of the bundle's app without putting it into the bundle
   * (`POST /app-bundles/{id}/files` then adds it), instead of adding it to the bundle at its path.
   */
  uploadsLeaveBundle?: boolean;
  /** A finalized bundle reads `processing` for a minute of the emulator clock before `available` (instead of at once). */
  slowBundleProcessing?: boolean;
  /**
   * A complete without `conflictStrategy` over a file of the same name at the same path is 422 instead of keeping
   * both.
   */
  requireConflictStrategy?: boolean;
  /**
   * S3's part rules: every part but the last at least 5 MiB (422 at complete), none above 5 GiB (storage 400),
   * instead of parts of any size.
   */
  s3PartSizes?: boolean;
  /**
   * Files and videos answer `downloadUrl` (absent from their OpenAPI schemas, which images, 3D environments and
   * app builds have): a signed GET of the uploaded bytes on the storage endpoint, null for one without bytes
   * (seeded, or loaded from `--state`); off, they answer no such field.
   */
  fileDownloadUrls?: boolean;
  /**
   * App versions' pre-sign answers each part's URL as `url` (the OpenAPI's schema) instead of `presignedUrl` (its
   * example, and what files and videos answer).
   */
  presignAnswersUrl?: boolean;
  /**
   * A build whose processing ended in `error` is listed with `statusReason` (why; not a field of the OpenAPI)
   * instead of with its status alone.
   */
  buildStatusReasons?: boolean;
  /**
   * The type an uploaded image gets (`POST /images` takes none; documents silent): absent, `unknown`, which any
   * image slot of an experience takes (the slot says what the image is for); a type, then only slots of that
   * type take uploaded images.
   */
  uploadedImageType?: ImageType;
  /**
   * A 429 of the rate limit carries neither `Retry-After` nor `X-RateLimit-Reset` (the documents do not show its
   * headers) instead of both, so a client cannot learn when the window resets.
   */
  noRetryAfter?: boolean;
}

/** One pending invitation (strict `pendingInvitations`). */
export interface PendingInvitation {
  id: string;
  organizationId: string;
  email: string;
  defaultRoleId: string;
  groupRoles: { roleId: string; groupId: string }[];
  createdAt: string;
}

export interface EmulatorOptions {
  host?: string;
  port?: number;
  /** Persist the whole state to this JSON file (atomic replace, flushed before a write is acknowledged). */
  statePath?: string;
  /** Token for the control endpoints under /_emulator; a random one when absent. */
  adminToken?: string;
  rateLimit?: RateLimitConfig;
  maxPerPage?: number;
  faults?: Partial<FaultConfig>;
  /** Suppress the banner (listening line and seeded tokens). Defaults to true in process; the CLI passes false. */
  quiet?: boolean;
  /** Seed-data knobs (ignored when statePath names an existing state file). */
  seed?: { devices?: number };
  /** Clock of the rate limiter, in epoch milliseconds; tests pass a fake one to step through windows. */
  now?: () => number;
  /** Stricter readings of undocumented behaviour (all off by default). */
  strict?: StrictOptions;
  /** Simulated rollouts (durations and install faults), settable later with `setRollouts`. */
  rollouts?: Partial<RolloutConfig>;
  /** How long a pre-signed upload URL is valid, in seconds of the emulator clock (default 3600; documents silent). */
  uploadUrlLifetimeSeconds?: number;
  /** Keep every /api request with its body for `requests()` (tests comparing two clients' requests). */
  recordRequests?: boolean;
}

export interface SeedTokens {
  admin: string;
  readOnly: string;
  noMigrate: string;
  multiOrgAdmin: string;
  multiOrgAdminSecondary: string;
  v2: string;
}

export interface OrgRef {
  id: string;
  slug: string;
  name: string;
}

export interface FaultStats {
  latencyApplied: number;
  errorsInjected: number;
  rateLimitBursts: number;
  droppedBeforeWrite: number;
  droppedAfterWrite: number;
  uploadUrlsExpired: number;
  uploadPartsFailed: number;
  initiateAnswersLost: number;
  completeAnswersLost: number;
  appBuildsFailed: number;
  contentProcessingFailed: number;
  bundleProcessingFailed: number;
}

/** One answered /api request, as `requests()` returns it (`recordRequests`). */
export interface ApiRequestRecord {
  /** The route template, as the stats key it: "PUT /groups/{groupId}". */
  route: string;
  /** The path below the base URL, ids included: "/groups/3f2…". */
  path: string;
  /** The query string without its "?" ("" when none). */
  query: string;
  /** The parsed JSON body (undefined when none). */
  body: unknown;
  status: number;
}

/** One request the storage endpoint received (`RunningEmulator.storageRequests`). */
export interface StorageRequestRecord {
  method: string;
  /** The object key the URL names (below the bucket). */
  key: string;
  partNumber: number | null;
  /** Whether the request carried an Authorization header (refused: a pre-signed URL takes none). */
  authorization: boolean;
  /** The status answered (0 while the part is still arriving). */
  status: number;
}

export interface EmulatorStats {
  /** Every request that reached an /api route (answered, rejected or dropped). */
  requests: number;
  /** POST/PUT/PATCH/DELETE requests under /api. */
  writes: number;
  /** Answered requests by status code ("200", "422", ...). */
  byStatus: Record<string, number>;
  /** Requests by route, e.g. "GET /groups/{groupId}"; unmatched paths count as "<METHOD> (unmatched)". */
  byRoute: Record<string, number>;
  /** Requests refused by the rate limiter (injected 429 bursts are counted under faults). */
  rateLimited: number;
  faults: FaultStats;
}

export interface SnapshotAccessControl {
  id: string;
  roleId: string;
  roleName: string;
  protectable: { type: "organization" | "group"; id: string };
}

export interface OrgSnapshot {
  organization: OrgRef;
  users: {
    id: string;
    email: string;
    firstName: string;
    lastName: string;
    /** The role on the organization protectable. */
    defaultRoleId: string | null;
    groupRoles: { roleId: string; groupId: string }[];
    accessControls: SnapshotAccessControl[];
  }[];
  groups: {
    id: string;
    name: string;
    parentId: string | null;
    isConfigured: boolean;
    releaseChannelIds: string[];
    fileIds: string[];
    videoIds: string[];
    tags: string[];
  }[];
  groupReleaseChannels: { groupId: string; releaseChannelId: string }[];
  devices: {
    id: string;
    name: string;
    serialNumber: string;
    groupId: string | null;
    tags: string[];
    releaseChannelIds: string[];
    /** The device's own files and videos (ungrouped devices only). */
    fileIds: string[];
    videoIds: string[];
    customFields: { name: string; value: string }[];
  }[];
  /** The tag catalogue, oldest first. */
  tags: { id: string; name: string }[];
  /** Every release channel: the version (and bundle) it delivers, the organizations it is shared with. */
  releaseChannels: {
    id: string;
    appId: string;
    name: string;
    versionId: string;
    version: string;
    bundleId: string;
    sharedWithOrgIds: string[];
  }[];
  /** Headset and device experiences as stored (settings as the emulator keeps them, the PIN included). */
  experiences: {
    kind: "headset" | "device";
    holder: { type: "group" | "device"; id: string };
    mode: string;
    settings: Record<string, unknown>;
    /**
     * When the device joined a group while it had this experience; under `dropDeviceExperienceOnGroupJoin` such
     * an experience no longer applies (the API reads the device as never configured).
     */
    joinedGroupAt: string | null;
  }[];
  /** The organization's own themes (system themes are not part of its state). */
  themes: { id: string; name: string; colors: Record<string, string> }[];
  /** Every app of the organization (seeded or made through `POST /apps`), oldest first. */
  apps: { id: string; name: string; description: string | null; tags: string[]; deviceModelIds: string[] }[];
  /** Every file of the organization (seeded or uploaded), with its content's SHA-512 (hex, lower case). */
  files: { id: string; filename: string; location: string; sha512: string }[];
  /** Every video of the organization (seeded or uploaded), with its content's SHA-512 (hex, lower case). */
  videos: { id: string; name: string; filename: string; sha512: string }[];
  /** Every app bundle (seeded or made through `POST /app-bundles`): its build, status and files with their folders. */
  appBundles: {
    id: string;
    appId: string;
    versionId: string;
    label: string | null;
    status: string;
    files: { fileId: string; path: string }[];
  }[];
  /** The organization's own images (seeded or uploaded; system images are not its state). */
  images: {
    id: string;
    originalFileName: string | null;
    type: string;
    status: string;
    sizeBytes: number | null;
  }[];
  /** Every custom 3D environment of the organization (seeded or uploaded). */
  custom3DEnvironments: { id: string; objectName: string; status: string; sizeBytes: number | null }[];
}

export interface RunningEmulator {
  /** http://HOST:PORT */
  url: string;
  /** url + "/api/v3" */
  baseUrl: string;
  /** http://HOST:PORT of the storage endpoint the pre-signed upload URLs point at (its own port). */
  storageUrl: string;
  /** Every request the storage endpoint received, oldest first. */
  storageRequests(): StorageRequestRecord[];
  /** Every /api request answered since the start or `resetStats()`, oldest first (needs `recordRequests`). */
  requests(): ApiRequestRecord[];
  adminToken: string;
  tokens: SeedTokens;
  orgs: { primary: OrgRef; secondary: OrgRef };
  setFaults(faults: Partial<FaultConfig>): void;
  stats(): EmulatorStats;
  resetStats(): void;
  /** One organization's state (by id or slug; the primary organization when omitted). */
  snapshot(orgId?: string): OrgSnapshot;
  /** Move the emulator clock forward (record timestamps and rollouts); returns the new time. */
  advanceClock(ms: number): string;
  /** Merge a partial rollout configuration; returns the result. */
  setRollouts(patch: Partial<RolloutConfig>): RolloutConfig;
  close(): Promise<void>;
}
