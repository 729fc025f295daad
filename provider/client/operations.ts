/**
 * The typed v3 operations, grouped by resource. Each one names its method, path and schema here and nowhere
 * else; the client supplies how a read and a write are executed (writes are preceded by the v3-token check).
 */
import type { z } from "zod";
import { PageIterator } from "./pagination";
import * as s from "./schemas";
import { createExperienceOperations, type ExperienceOperations } from "./experienceOperations";
import { createContentOperations, type ContentOperations } from "./contentOperations";
import { type Invalidates, INVALIDATES_NOTHING, REPEATABLE, UPLOAD_INITIATE } from "./invalidates";
import type { Executor, Query } from "./executor";
import type {
  App,
  AuditRecord,
  Device,
  DeviceFile,
  FileUploadStart,
  PresignedPart,
  UploadedPart,
  VideoUploadStart,
  DeviceModel,
  Group,
  GroupHierarchyNode,
  Page,
  ReleaseChannel,
  Role,
  User,
  Video,
} from "./types";

export interface CreateUserBody {
  firstName: string;
  lastName: string;
  email: string;
  /** An organization role, or a group role. */
  defaultRoleId: string;
  /** Up to 100 extra group roles assigned at creation. */
  groupRoles?: Array<{ roleId: string; groupId: string }>;
}

export interface UpdateUserBody {
  firstName?: string;
  lastName?: string;
  defaultRoleId?: string;
  groupRoles?: Array<{ roleId: string; groupId: string; action: "attach" | "detach" }>;
}

export interface InviteUserBody {
  email: string;
  isSsoEnforced?: boolean;
  defaultRoleId: string;
  groupRoles?: Array<{ roleId: string; groupId: string }>;
}

export interface GroupBody {
  name: string;
  /** The parent folder (an unconfigured group), or null for a root-level group. */
  parentId: string | null;
}

export interface UpdateDeviceBody {
  name?: string;
  groupId?: string | null;
  tags?: string[];
}

export interface DeviceFilter {
  /** Only devices in these groups (`group_ids[]`). */
  groupIds?: readonly string[];
  /** Only devices carrying every one of these tag names (`tags_all[]`). */
  tagsAll?: readonly string[];
  /** Only devices with these serial numbers (`device_serial_numbers[]`). */
  serialNumbers?: readonly string[];
  /** Only Meta HMS devices in these modes, or (`NON_APPLICABLE`) devices that are not Meta HMS devices (`hms_modes[]`). */
  hmsModes?: readonly ("INDIVIDUAL" | "SHARED" | "UNKNOWN" | "NON_APPLICABLE")[];
}

export interface DeleteGroupOptions {
  /** For a folder: the group that receives its child groups. */
  replacementGroupId?: string;
}

export interface MigrateDeviceOptions {
  /** A group of the target organization to put the device in; null or absent for none. */
  groupId?: string | null;
}

export interface UserOperations {
  list(): PageIterator<User>;
  all(): Promise<User[]>;
  get(userId: string): Promise<User>;
  create(body: CreateUserBody): Promise<User>;
  update(userId: string, body: UpdateUserBody): Promise<User>;
  delete(userId: string): Promise<void>;
  /** Invites by e-mail (the user sets a password from the link); answers without a body. */
  invite(body: InviteUserBody): Promise<void>;
}

export interface RoleOperations {
  list(): PageIterator<Role>;
  all(): Promise<Role[]>;
  get(roleId: string): Promise<Role>;
}

export interface GroupOperations {
  list(): PageIterator<Group>;
  all(): Promise<Group[]>;
  get(groupId: string): Promise<Group>;
  create(body: GroupBody): Promise<Group>;
  update(groupId: string, body: GroupBody): Promise<Group>;
  /** For a folder, `replacementGroupId` receives its child groups. */
  delete(groupId: string, options?: DeleteGroupOptions): Promise<void>;
  /** Turns a folder into a leaf that can hold devices and content; this cannot be undone. */
  configure(groupId: string): Promise<Group>;
  /**
   * Copies a configured group (201): a new configured group with its configuration and no devices, named `name`;
   * the API places the copy itself (the documents do not say where: read it from the answer).
   */
  duplicate(groupId: string, body: Pick<GroupBody, "name">): Promise<Group>;
  /** The whole group tree, roots first. */
  hierarchy(): Promise<GroupHierarchyNode[]>;
  releaseChannels(groupId: string): PageIterator<ReleaseChannel>;
  addReleaseChannel(groupId: string, releaseChannelId: string): Promise<void>;
  removeReleaseChannel(groupId: string, releaseChannelId: string): Promise<void>;
  addFile(groupId: string, fileId: string): Promise<void>;
  removeFile(groupId: string, fileId: string): Promise<void>;
  addVideo(groupId: string, videoId: string): Promise<void>;
  removeVideo(groupId: string, videoId: string): Promise<void>;
}

export interface DeviceOperations {
  list(filter?: DeviceFilter): PageIterator<Device>;
  all(filter?: DeviceFilter): Promise<Device[]>;
  get(deviceId: string): Promise<Device>;
  update(deviceId: string, body: UpdateDeviceBody): Promise<Device>;
  releaseChannels(deviceId: string): PageIterator<ReleaseChannel>;
  addReleaseChannel(deviceId: string, releaseChannelId: string): Promise<void>;
  removeReleaseChannel(deviceId: string, releaseChannelId: string): Promise<void>;
  /** Moves the device to the organization with this slug, optionally into one of its groups. */
  migrate(deviceId: string, organizationSlug: string, options?: MigrateDeviceOptions): Promise<void>;
}

/** Filters of `GET /audit-logs` (ISO 8601 times; the search matches descriptions, names, e-mails, ids). */
export interface AuditLogFilter {
  search?: string;
  startTime?: string;
  endTime?: string;
}

export interface AuditLogOperations {
  /** Newest first. */
  list(filter?: AuditLogFilter): PageIterator<AuditRecord>;
}

/** `POST /apps`: the app itself; its builds, icon and package name come from uploads. */
export interface CreateAppBody {
  /** 1..100 characters. */
  name: string;
  /** The device models it is for (`deviceModels.list()`); it cannot be changed afterwards (UpdateApp has none). */
  deviceModelIds?: readonly string[];
}

/** `PUT /apps/{appId}`: each field given is set, each left out kept. */
export interface UpdateAppBody {
  name?: string;
  /** null clears it; whether `""` reads back as `""` or null is not documented. */
  description?: string | null;
  /** Tag names; whether they replace the app's tags or are added to them is not documented. */
  tags?: readonly string[];
}

export interface AppOperations {
  list(): PageIterator<App>;
  all(): Promise<App[]>;
  get(appId: string): Promise<App>;
  create(body: CreateAppBody): Promise<App>;
  update(appId: string, body: UpdateAppBody): Promise<App>;
  releaseChannels(appId: string): PageIterator<ReleaseChannel>;
  releaseChannel(appId: string, releaseChannelId: string): Promise<ReleaseChannel>;
}

export interface DeviceModelOperations {
  list(): PageIterator<DeviceModel>;
  all(): Promise<DeviceModel[]>;
  get(deviceModelId: string): Promise<DeviceModel>;
}

/** `POST /files`: a file to upload (its name on devices and the folder it goes to). */
export interface InitiateFileUploadBody {
  filename: string;
  /** The folder on the device, e.g. "/sdcard/Docs". */
  path: string;
  /** A bundle the file belongs to (only then may it be an `.obb`). */
  appBundleId?: string;
}

/** `POST …/pre-sign`: URLs for at most 4 parts of a pending upload. */
export interface PresignUploadBody {
  key: string;
  uploadId: string;
  partNumbers: number[];
}

/** What a file of the same name at the same path becomes: replaced, or kept beside the new one. */
export type ConflictStrategy = "replace" | "keep-both";

/** `POST /files/{fileId}/complete`: every part, ascending, with the ETag storage answered. */
export interface CompleteFileUploadBody {
  key: string;
  uploadId: string;
  parts: UploadedPart[];
  conflictStrategy?: ConflictStrategy;
}

export interface FileOperations {
  list(): PageIterator<DeviceFile>;
  all(): Promise<DeviceFile[]>;
  get(fileId: string): Promise<DeviceFile>;
  /** Starts an upload; the file exists only once `completeUpload` answered. */
  initiateUpload(body: InitiateFileUploadBody): Promise<FileUploadStart>;
  /** Pre-signed URLs for at most 4 parts (an API call: it counts against the rate budget). */
  presignUpload(fileId: string, body: PresignUploadBody): Promise<PresignedPart[]>;
  /** Makes the file from the parts storage received; answers it with its size and checksum. */
  completeUpload(fileId: string, body: CompleteFileUploadBody): Promise<DeviceFile>;
  /** `DELETE /files/{fileId}`: the file, and its attachments to groups and devices with it. */
  delete(fileId: string): Promise<void>;
}

/**
 * `POST /videos`: a video to upload and how it renders. `videoMapping` and `videoDisplay` are for ThreeSixty and
 * OneEighty videos (not TwoDimensional), `videoPacking` for stereoscopic ones.
 */
export interface InitiateVideoUploadBody {
  /** Ends in .mp4, .mkv or .webm. */
  filename: string;
  videoType: "ThreeSixty" | "OneEighty" | "TwoDimensional";
  videoMapping?: "EQUIRECTANGULAR" | "CUBEMAP" | null;
  videoDisplay?: "Stereoscopic" | "Monoscopic" | null;
  videoPacking?: "TOP_BOTTOM" | "LEFT_RIGHT" | null;
  /** One of the OpenAPI's encodings: "STEREO", "MONO", "AMBIX_4", … */
  audioEncoding: string;
}

/** `POST /videos/{videoId}/complete`: every part, ascending, with the ETag storage answered. */
export interface CompleteVideoUploadBody {
  key: string;
  uploadId: string;
  parts: UploadedPart[];
}

/**
 * `PUT /videos/{videoId}` (UpdateVideo): the whole object. `name`, `description`, `videoType`, `audioEncoding`
 * and `tags` are required; the rendering fields follow the same rules as at the upload. The API has no way to
 * leave the tags alone: a caller that does not own them sends back the ones it read.
 */
export interface UpdateVideoBody {
  name: string;
  description: string | null;
  videoType: InitiateVideoUploadBody["videoType"];
  videoMapping?: InitiateVideoUploadBody["videoMapping"];
  videoDisplay?: InitiateVideoUploadBody["videoDisplay"];
  videoPacking?: InitiateVideoUploadBody["videoPacking"];
  audioEncoding: string;
  tags: readonly string[];
}

export interface VideoOperations {
  list(): PageIterator<Video>;
  all(): Promise<Video[]>;
  get(videoId: string): Promise<Video>;
  /** Starts an upload; the video exists only once `completeUpload` answered. */
  initiateUpload(body: InitiateVideoUploadBody): Promise<VideoUploadStart>;
  /** Pre-signed URLs for at most 4 parts (an API call: it counts against the rate budget). */
  presignUpload(videoId: string, body: PresignUploadBody): Promise<PresignedPart[]>;
  /** Makes the video from the parts storage received; answers it with its size and checksum. */
  completeUpload(videoId: string, body: CompleteVideoUploadBody): Promise<Video>;
  /** `PUT /videos/{videoId}`: name, description, rendering and tags, all of them (UpdateVideoBody). */
  update(videoId: string, body: UpdateVideoBody): Promise<Video>;
  /** `DELETE /videos/{videoId}`: the video, and its attachments to groups and devices with it. */
  delete(videoId: string): Promise<void>;
}

/**
 * The operations of the client, one property per resource (`client.users`, `client.groups`, …). Declared
 * explicitly so that the published types name each argument and result type. A `list` is fetched lazily (page by
 * page, `for await`); `all()` collects every item.
 */
export interface Operations extends ExperienceOperations, ContentOperations {
  users: UserOperations;
  roles: RoleOperations;
  groups: GroupOperations;
  devices: DeviceOperations;
  apps: AppOperations;
  deviceModels: DeviceModelOperations;
  files: FileOperations;
  videos: VideoOperations;
  auditLogs: AuditLogOperations;
}

/** Declarations shared by several routes. */
const USERS: Invalidates = [{ kind: "users" }];
/**
 * No cached list holds an app: users, groups and devices do not embed one, and release-channel lists are
 * cached only for which channels are attached (by id). Tags a PUT creates are not cached either.
 */
const APPS: Invalidates = INVALIDATES_NOTHING;
const GROUPS: Invalidates = [{ kind: "groups" }];
const groupChannels = (groupId: string): Invalidates => [{ kind: "groupReleaseChannels", ownerId: groupId }];
const deviceChannels = (deviceId: string): Invalidates => [
  { kind: "deviceReleaseChannels", ownerId: deviceId },
];
const movedDevice = (deviceId: string): Invalidates => [...GROUPS, ...deviceChannels(deviceId)];

const usersPage = s.pageSchema(s.userSchema);
const rolesPage = s.pageSchema(s.roleSchema);
const groupsPage = s.pageSchema(s.groupSchema);
const devicesPage = s.pageSchema(s.deviceSchema);
const releaseChannelsPage = s.pageSchema(s.releaseChannelSchema);
const appsPage = s.pageSchema(s.appSchema);
const deviceModelsPage = s.pageSchema(s.deviceModelSchema);
const filesPage = s.pageSchema(s.fileSchema);
const videosPage = s.pageSchema(s.videoSchema);
const auditLogsPage = s.pageSchema(s.auditRecordSchema);

/** Path segments are escaped so an identifier can never change which endpoint is called. */
const e = encodeURIComponent;

export function createOperations(run: Executor): Operations {
  const list = <T>(path: string, schema: z.ZodType<Page<T>>, query: Query = {}) =>
    new PageIterator<T>(
      (request) => run.get(path, schema, { ...query, page: request.page, per_page: request.perPage }),
      run.pageSizes,
    );
  const remove = (path: string, invalidates: Invalidates, query?: Query) =>
    run.write<void>("DELETE", path, invalidates, undefined, undefined, query);
  const post = (path: string, invalidates: Invalidates, body: unknown) =>
    run.write<void>("POST", path, invalidates, body);
  const deviceQuery = (filter: DeviceFilter): Query => ({
    "group_ids[]": filter.groupIds,
    "tags_all[]": filter.tagsAll,
    "device_serial_numbers[]": filter.serialNumbers,
    "hms_modes[]": filter.hmsModes,
  });

  return {
    ...createExperienceOperations(run),
    ...createContentOperations(run),
    users: {
      list: () => list(`/users`, usersPage),
      all: () => list(`/users`, usersPage).all(),
      get: (userId: string) => run.get(`/users/${e(userId)}`, s.userSchema),
      create: (body: CreateUserBody) => run.write("POST", `/users`, USERS, body, s.userSchema),
      update: (userId: string, body: UpdateUserBody) =>
        run.write("PUT", `/users/${e(userId)}`, USERS, body, s.userSchema),
      delete: (userId: string) => remove(`/users/${e(userId)}`, USERS),
      /** Invites by e-mail (the user sets a password from the link); answers without a body. */
      invite: (body: InviteUserBody) => post(`/user-invites`, USERS, body),
    },

    roles: {
      list: () => list(`/roles`, rolesPage),
      all: () => list(`/roles`, rolesPage).all(),
      get: (roleId: string) => run.get(`/roles/${e(roleId)}`, s.roleSchema),
    },

    groups: {
      list: () => list(`/groups`, groupsPage),
      all: () => list(`/groups`, groupsPage).all(),
      get: (groupId: string) => run.get(`/groups/${e(groupId)}`, s.groupSchema),
      create: (body: GroupBody) =>
        run.write("POST", `/groups`, GROUPS, { name: body.name, parentId: body.parentId }, s.groupSchema),
      update: (groupId: string, body: GroupBody) =>
        run.write(
          "PUT",
          `/groups/${e(groupId)}`,
          GROUPS,
          { name: body.name, parentId: body.parentId },
          s.groupSchema,
        ),
      /** For a folder, `replacementGroupId` receives its child groups. */
      // Deleting a group also removes the roles on it and its channels, and ungroups its devices.
      delete: (groupId: string, options: DeleteGroupOptions = {}) =>
        remove(
          `/groups/${e(groupId)}`,
          [...GROUPS, ...USERS, ...groupChannels(groupId), { kind: "deviceReleaseChannels" }],
          { replacementGroupId: options.replacementGroupId },
        ),
      /** Turns a folder into a leaf that can hold devices and content; this cannot be undone. */
      configure: (groupId: string) =>
        run.write("PATCH", `/groups/${e(groupId)}/configure`, GROUPS, undefined, s.groupSchema),
      // A POST: never repeated after an ambiguous answer (AmbiguousWriteError), so a lost answer makes no second copy.
      duplicate: (groupId: string, body: Pick<GroupBody, "name">) =>
        run.write("POST", `/groups/${e(groupId)}/duplicate`, GROUPS, { name: body.name }, s.groupSchema),
      hierarchy: async () => (await run.get(`/group-hierarchy`, s.groupHierarchySchema)).data,
      releaseChannels: (groupId: string) =>
        list(`/groups/${e(groupId)}/release-channels`, releaseChannelsPage),
      addReleaseChannel: (groupId: string, releaseChannelId: string) =>
        post(`/groups/${e(groupId)}/release-channels`, groupChannels(groupId), { releaseChannelId }),
      removeReleaseChannel: (groupId: string, releaseChannelId: string) =>
        remove(`/groups/${e(groupId)}/release-channels/${e(releaseChannelId)}`, groupChannels(groupId)),
      addFile: (groupId: string, fileId: string) =>
        post(`/groups/${e(groupId)}/files`, INVALIDATES_NOTHING, { fileId }),
      removeFile: (groupId: string, fileId: string) =>
        remove(`/groups/${e(groupId)}/files/${e(fileId)}`, INVALIDATES_NOTHING),
      addVideo: (groupId: string, videoId: string) =>
        post(`/groups/${e(groupId)}/videos`, INVALIDATES_NOTHING, { videoId }),
      removeVideo: (groupId: string, videoId: string) =>
        remove(`/groups/${e(groupId)}/videos/${e(videoId)}`, INVALIDATES_NOTHING),
    },

    devices: {
      list: (filter: DeviceFilter = {}) => list(`/devices`, devicesPage, deviceQuery(filter)),
      all: (filter: DeviceFilter = {}) => list(`/devices`, devicesPage, deviceQuery(filter)).all(),
      get: (deviceId: string) => run.get(`/devices/${e(deviceId)}`, s.deviceSchema),
      update: (deviceId: string, body: UpdateDeviceBody) =>
        // A device that moves changes its groups' device counts (and may lose its own channels).
        run.write("PUT", `/devices/${e(deviceId)}`, movedDevice(deviceId), body, s.deviceSchema),
      releaseChannels: (deviceId: string) =>
        list(`/devices/${e(deviceId)}/release-channels`, releaseChannelsPage),
      addReleaseChannel: (deviceId: string, releaseChannelId: string) =>
        post(`/devices/${e(deviceId)}/release-channels`, deviceChannels(deviceId), { releaseChannelId }),
      removeReleaseChannel: (deviceId: string, releaseChannelId: string) =>
        remove(`/devices/${e(deviceId)}/release-channels/${e(releaseChannelId)}`, deviceChannels(deviceId)),
      /** Moves the device to the organization with this slug, optionally into one of its groups. */
      migrate: (deviceId: string, organizationSlug: string, options: MigrateDeviceOptions = {}) =>
        post(
          `/devices/${e(deviceId)}/migrate/${e(organizationSlug)}`,
          movedDevice(deviceId),
          options.groupId === undefined ? {} : { groupId: options.groupId },
        ),
    },

    apps: {
      list: () => list(`/apps`, appsPage),
      all: () => list(`/apps`, appsPage).all(),
      get: (appId: string) => run.get(`/apps/${e(appId)}`, s.appSchema),
      // Only the declared fields are sent; a field left undefined is not sent (a PUT keeps it).
      create: (body: CreateAppBody) =>
        run.write(
          "POST",
          `/apps`,
          APPS,
          { name: body.name, deviceModelIds: body.deviceModelIds && [...body.deviceModelIds] },
          s.appSchema,
        ),
      update: (appId: string, body: UpdateAppBody) =>
        run.write(
          "PUT",
          `/apps/${e(appId)}`,
          APPS,
          { name: body.name, description: body.description, tags: body.tags && [...body.tags] },
          s.appSchema,
        ),
      releaseChannels: (appId: string) => list(`/apps/${e(appId)}/release-channels`, releaseChannelsPage),
      releaseChannel: (appId: string, releaseChannelId: string) =>
        run.get(`/apps/${e(appId)}/release-channels/${e(releaseChannelId)}`, s.releaseChannelSchema),
    },

    deviceModels: {
      list: () => list(`/device-models`, deviceModelsPage),
      all: () => list(`/device-models`, deviceModelsPage).all(),
      get: (deviceModelId: string) => run.get(`/device-models/${e(deviceModelId)}`, s.deviceModelSchema),
    },

    files: {
      list: () => list(`/files`, filesPage),
      all: () => list(`/files`, filesPage).all(),
      get: (fileId: string) => run.get(`/files/${e(fileId)}`, s.fileSchema),
      // Files are in no cached list: an upload makes nothing stale.
      initiateUpload: (body: InitiateFileUploadBody) =>
        run.write(
          "POST",
          `/files`,
          INVALIDATES_NOTHING,
          body,
          s.fileUploadStartSchema,
          undefined,
          body.appBundleId === undefined ? UPLOAD_INITIATE : undefined,
        ),
      // Pre-signing changes nothing (it hands out URLs): retried like a PUT.
      presignUpload: (fileId: string, body: PresignUploadBody) =>
        run.write(
          "POST",
          `/files/${e(fileId)}/pre-sign`,
          INVALIDATES_NOTHING,
          body,
          s.presignedPartsSchema,
          undefined,
          REPEATABLE,
        ),
      completeUpload: (fileId: string, body: CompleteFileUploadBody) =>
        run.write("POST", `/files/${e(fileId)}/complete`, INVALIDATES_NOTHING, body, s.fileSchema),
      delete: (fileId: string) => remove(`/files/${e(fileId)}`, INVALIDATES_NOTHING),
    },

    videos: {
      list: () => list(`/videos`, videosPage),
      all: () => list(`/videos`, videosPage).all(),
      get: (videoId: string) => run.get(`/videos/${e(videoId)}`, s.videoSchema),
      initiateUpload: (body: InitiateVideoUploadBody) =>
        run.write(
          "POST",
          `/videos`,
          INVALIDATES_NOTHING,
          body,
          s.videoUploadStartSchema,
          undefined,
          UPLOAD_INITIATE,
        ),
      presignUpload: (videoId: string, body: PresignUploadBody) =>
        run.write(
          "POST",
          `/videos/${e(videoId)}/pre-sign`,
          INVALIDATES_NOTHING,
          body,
          s.presignedPartsSchema,
          undefined,
          REPEATABLE,
        ),
      completeUpload: (videoId: string, body: CompleteVideoUploadBody) =>
        run.write("POST", `/videos/${e(videoId)}/complete`, INVALIDATES_NOTHING, body, s.videoSchema),
      // Videos are in no cached list (attachment lists cache ids only): nothing goes stale.
      update: (videoId: string, body: UpdateVideoBody) =>
        run.write(
          "PUT",
          `/videos/${e(videoId)}`,
          INVALIDATES_NOTHING,
          { ...body, tags: [...body.tags] },
          s.videoSchema,
        ),
      delete: (videoId: string) => remove(`/videos/${e(videoId)}`, INVALIDATES_NOTHING),
    },

    auditLogs: {
      list: (filter: AuditLogFilter = {}) =>
        list(`/audit-logs`, auditLogsPage, {
          search: filter.search,
          start_time: filter.startTime,
          end_time: filter.endTime,
        }),
    },
  };
}
