/**
 * The operations of devices, content and releases (issue 20): the tag catalogue and the tags of groups,
 * devices, apps, files and videos; a device's custom fields and its own files and videos; app versions and
 * bundles; what a release channel delivers, where its devices stand, and sharing it with another organization.
 * Kept apart from operations.ts, which they join through `createContentOperations`.
 */
import type { z } from "zod";
import { PageIterator, type PageSizeMemory } from "./pagination";
import * as s from "./schemas";
import type { QueryValue } from "./transport";
import type {
  AppBuild,
  AppBundle,
  AppVersionUploadStart,
  AppBundleFile,
  Device,
  DeviceFile,
  Page,
  PresignedPart,
  ReleaseChannel,
  ReleaseChannelDeviceStatus,
  ShareResult,
  Tag,
  UploadedPart,
  Video,
} from "./types";
import type { Executor } from "./executor";
import { type Invalidates, INVALIDATES_NOTHING, REPEATABLE, UPLOAD_INITIATE } from "./invalidates";

/** What carries tags: the path segment of `PATCH /{owner}/{id}/tags/attach|detach`. */
export type TagOwnerType = "groups" | "devices" | "apps" | "files" | "videos";

export interface TagOperations {
  /** `search`: a substring of the name (the API's matching). */
  list(search?: string): PageIterator<Tag>;
  all(search?: string): Promise<Tag[]>;
  get(tagId: string): Promise<Tag>;
  create(name: string): Promise<Tag>;
  /** Renames the tag (on every owner too). */
  update(tagId: string, name: string): Promise<Tag>;
  /** Deletes the tag (and removes it from every owner). */
  delete(tagId: string): Promise<void>;
  /** Adds tags (by name) to one owner; 1..100 names. */
  attach(owner: TagOwnerType, ownerId: string, names: readonly string[]): Promise<void>;
  /** Removes tags (by name) from one owner; 1..100 names. */
  detach(owner: TagOwnerType, ownerId: string, names: readonly string[]): Promise<void>;
}

export interface CustomField {
  name: string;
  value?: string;
}

/** `attach` adds or updates by name, `detach` removes by name, `sync` makes the list the whole set. */
export type CustomFieldAction = "attach" | "detach" | "sync";

export interface DeviceContentOperations {
  setCustomFields(
    deviceId: string,
    action: CustomFieldAction,
    fields: readonly CustomField[],
  ): Promise<Device>;
  /** The files of an ungrouped device itself. */
  files(deviceId: string): PageIterator<DeviceFile>;
  addFile(deviceId: string, fileId: string): Promise<void>;
  removeFile(deviceId: string, fileId: string): Promise<void>;
  /** The videos of an ungrouped device itself. */
  videos(deviceId: string): PageIterator<Video>;
  addVideo(deviceId: string, videoId: string): Promise<void>;
  removeVideo(deviceId: string, videoId: string): Promise<void>;
}

/** What a channel is to deliver: a version (its first bundle), or one bundle. */
export type ChannelTarget = { versionId: string } | { bundleId: string };

/** `POST /apps/{appId}/versions/{versionId}/complete`: every part, and the build's name and notes. */
export interface CompleteAppVersionUploadBody {
  key: string;
  uploadId: string;
  parts: UploadedPart[];
  versionName?: string | null;
  releaseNotes?: string | null;
}

export interface ReleaseOperations {
  /** The app's versions, newest first; with `sha256`, only builds of those checksums (1..10). */
  versions(appId: string, sha256?: readonly string[]): PageIterator<AppBuild>;
  /** Starts a build's upload (`filename`: the .apk's name); the build is listed once `completeVersionUpload` answered. */
  initiateVersionUpload(appId: string, filename: string): Promise<AppVersionUploadStart>;
  /** Pre-signed URLs for at most 4 parts (an API call: it counts against the rate budget). */
  presignVersionUpload(
    appId: string,
    versionId: string,
    body: { key: string; uploadId: string; partNumbers: number[] },
  ): Promise<PresignedPart[]>;
  /** Makes the build from the parts storage received; answers it (status `uploaded`) with its size and checksum. */
  completeVersionUpload(
    appId: string,
    versionId: string,
    body: CompleteAppVersionUploadBody,
  ): Promise<AppBuild>;
  /** With `status`, only the bundles in it (a pending one is unfinished). */
  bundles(appId: string, status?: "pending" | "processing" | "available" | "failed"): PageIterator<AppBundle>;
  /** Makes the channel deliver this version or bundle; answers with the channel. */
  setChannelVersion(appId: string, releaseChannelId: string, target: ChannelTarget): Promise<ReleaseChannel>;
  /** Where each device the channel reaches stands with its version. */
  deviceStatuses(appId: string, releaseChannelId: string): PageIterator<ReleaseChannelDeviceStatus>;
  share(appId: string, releaseChannelId: string, organizationSlug: string): Promise<ShareResult>;
  unshare(appId: string, releaseChannelId: string, organizationSlug: string): Promise<ShareResult>;
}

/** A file of a bundle and the folder it goes to on devices (absent: the file's own). */
export interface AppBundleFileEntry {
  fileId: string;
  path?: string;
}

/** `POST /app-bundles`: a pending bundle of a build, with files already uploaded for the app. */
export interface CreateAppBundleBody {
  appBuildId: string;
  files?: AppBundleFileEntry[];
}

/** The SHA-512 checksums `GET /apps/{appId}/files` takes per request (the OpenAPI's maximum). */
export const APP_FILES_PER_LOOKUP = 10;

/** OpenAPI tag "App Bundles": a build plus data files, made pending, filled, finalized; its label in place. */
export interface AppBundleOperations {
  get(appBundleId: string): Promise<AppBundle>;
  create(body: CreateAppBundleBody): Promise<AppBundle>;
  /** Sets (or, with null, removes) the bundle's label. */
  setLabel(appBundleId: string, label: string | null): Promise<AppBundle>;
  files(appBundleId: string): PageIterator<AppBundleFile>;
  /** Adds files already uploaded for the app (a pending bundle only). */
  addFiles(appBundleId: string, files: readonly AppBundleFileEntry[]): Promise<AppBundle>;
  /** Closes the bundle (no more files); it then processes to available. */
  finalize(appBundleId: string): Promise<AppBundle>;
  /** The app's bundle files, newest first; with `sha512`, only those of these checksums (1..10). */
  appFiles(appId: string, sha512?: readonly string[]): PageIterator<DeviceFile>;
  /** The app's bundle files of any of these checksums, asked for 10 at a time. */
  appFilesBySha512(appId: string, sha512: readonly string[]): Promise<DeviceFile[]>;
}

export interface ContentOperations {
  tags: TagOperations;
  deviceContent: DeviceContentOperations;
  releases: ReleaseOperations;
  appBundles: AppBundleOperations;
}

const tagsPage = s.pageSchema(s.tagSchema);
const filesPage = s.pageSchema(s.fileSchema);
const videosPage = s.pageSchema(s.videoSchema);
const versionsPage = s.pageSchema(s.appVersionSchema);
const bundlesPage = s.pageSchema(s.appBundleSchema);
const statusesPage = s.pageSchema(s.releaseChannelDeviceStatusItemSchema);
const bundleFilesPage = s.pageSchema(s.appBundleFileSchema);

/**
 * Devices are cached in the groups' scope (coalescedReads.ts: a device embeds its group); a write that may change
 * how a device reads (its tags, custom fields, content status) declares it.
 */
const DEVICES: Invalidates = [{ kind: "groups" }];
/** An unshared channel may be detached from the other organization's groups and devices. */
const UNSHARED: Invalidates = [{ kind: "groupReleaseChannels" }, { kind: "deviceReleaseChannels" }];

/** Path segments are escaped so an identifier can never change which endpoint is called. */
const e = encodeURIComponent;

export function createContentOperations(run: Executor & { pageSizes?: PageSizeMemory }): ContentOperations {
  const list = <T>(path: string, schema: z.ZodType<Page<T>>, query: Record<string, QueryValue> = {}) =>
    new PageIterator<T>(
      (request) => run.get(path, schema, { ...query, page: request.page, per_page: request.perPage }),
      run.pageSizes,
    );
  const channel = (appId: string, releaseChannelId: string) =>
    `/apps/${e(appId)}/release-channels/${e(releaseChannelId)}`;

  const bundle = (appBundleId: string) => `/app-bundles/${e(appBundleId)}`;
  const appFiles = (appId: string, sha512?: readonly string[]) =>
    list(`/apps/${e(appId)}/files`, filesPage, sha512 ? { "sha512[]": sha512 } : {});

  return {
    appBundles: {
      get: (appBundleId) => run.get(bundle(appBundleId), s.appBundleSchema),
      create: (body) => run.write("POST", "/app-bundles", INVALIDATES_NOTHING, body, s.appBundleSchema),
      setLabel: (appBundleId, label) =>
        run.write("PATCH", bundle(appBundleId), INVALIDATES_NOTHING, { label }, s.appBundleSchema),
      files: (appBundleId) => list(`${bundle(appBundleId)}/files`, bundleFilesPage),
      addFiles: (appBundleId, files) =>
        run.write("POST", `${bundle(appBundleId)}/files`, INVALIDATES_NOTHING, { files }, s.appBundleSchema),
      finalize: (appBundleId) =>
        run.write(
          "POST",
          `${bundle(appBundleId)}/finalize`,
          INVALIDATES_NOTHING,
          undefined,
          s.appBundleSchema,
        ),
      appFiles,
      appFilesBySha512: async (appId, sha512) => {
        const found: DeviceFile[] = [];
        for (let i = 0; i < sha512.length; i += APP_FILES_PER_LOOKUP)
          found.push(...(await appFiles(appId, sha512.slice(i, i + APP_FILES_PER_LOOKUP)).all()));
        return found;
      },
    },
    tags: {
      list: (search) => list(`/tags`, tagsPage, { search }),
      all: (search) => list(`/tags`, tagsPage, { search }).all(),
      get: (tagId) => run.get(`/tags/${e(tagId)}`, s.tagSchema),
      create: (name) => run.write("POST", `/tags`, INVALIDATES_NOTHING, { name }, s.tagSchema),
      update: (tagId, name) => run.write("PUT", `/tags/${e(tagId)}`, DEVICES, { name }, s.tagSchema),
      delete: (tagId) => run.write<void>("DELETE", `/tags/${e(tagId)}`, DEVICES),
      attach: (owner, ownerId, names) =>
        run.write<void>("PATCH", `/${owner}/${e(ownerId)}/tags/attach`, DEVICES, { tags: [...names] }),
      detach: (owner, ownerId, names) =>
        run.write<void>("PATCH", `/${owner}/${e(ownerId)}/tags/detach`, DEVICES, { tags: [...names] }),
    },

    deviceContent: {
      setCustomFields: (deviceId, action, fields) =>
        run.write(
          "PATCH",
          `/devices/${e(deviceId)}/custom-fields`,
          DEVICES,
          { action, customFields: fields.map((f) => (f.value === undefined ? { name: f.name } : f)) },
          s.deviceSchema,
        ),
      files: (deviceId) => list(`/devices/${e(deviceId)}/files`, filesPage),
      addFile: (deviceId, fileId) =>
        run.write<void>("POST", `/devices/${e(deviceId)}/files`, DEVICES, { fileId }),
      removeFile: (deviceId, fileId) =>
        run.write<void>("DELETE", `/devices/${e(deviceId)}/files/${e(fileId)}`, DEVICES),
      videos: (deviceId) => list(`/devices/${e(deviceId)}/videos`, videosPage),
      addVideo: (deviceId, videoId) =>
        run.write<void>("POST", `/devices/${e(deviceId)}/videos`, DEVICES, { videoId }),
      removeVideo: (deviceId, videoId) =>
        run.write<void>("DELETE", `/devices/${e(deviceId)}/videos/${e(videoId)}`, DEVICES),
    },

    releases: {
      versions: (appId, sha256) =>
        list(`/apps/${e(appId)}/versions`, versionsPage, sha256 ? { "sha256[]": sha256 } : {}),
      // Versions are in no cached list: an upload makes nothing stale.
      initiateVersionUpload: (appId, filename) =>
        run.write(
          "POST",
          `/apps/${e(appId)}/versions`,
          INVALIDATES_NOTHING,
          { filename },
          s.appVersionUploadStartSchema,
          undefined,
          UPLOAD_INITIATE,
        ),
      // Pre-signing changes nothing (it hands out URLs): retried like a PUT.
      presignVersionUpload: (appId, versionId, body) =>
        run.write(
          "POST",
          `/apps/${e(appId)}/versions/${e(versionId)}/pre-sign`,
          INVALIDATES_NOTHING,
          body,
          s.presignedPartsSchema,
          undefined,
          REPEATABLE,
        ),
      completeVersionUpload: (appId, versionId, body) =>
        run.write(
          "POST",
          `/apps/${e(appId)}/versions/${e(versionId)}/complete`,
          INVALIDATES_NOTHING,
          body,
          s.appVersionSchema,
        ),
      bundles: (appId, status) => list(`/apps/${e(appId)}/app-bundles`, bundlesPage, { status }),
      setChannelVersion: (appId, releaseChannelId, target) =>
        run.write(
          "PUT",
          channel(appId, releaseChannelId),
          INVALIDATES_NOTHING, // which channels are attached where does not change
          "versionId" in target ? { versionId: target.versionId } : { bundleId: target.bundleId },
          s.releaseChannelSchema,
        ),
      deviceStatuses: (appId, releaseChannelId) =>
        list(`${channel(appId, releaseChannelId)}/device-statuses`, statusesPage),
      share: (appId, releaseChannelId, organizationSlug) =>
        run.write(
          "POST",
          `${channel(appId, releaseChannelId)}/share`,
          INVALIDATES_NOTHING,
          { organizationSlug },
          s.shareResultSchema,
        ),
      unshare: (appId, releaseChannelId, organizationSlug) =>
        run.write(
          "POST",
          `${channel(appId, releaseChannelId)}/unshare`,
          UNSHARED,
          { organizationSlug },
          s.shareResultSchema,
          undefined,
          REPEATABLE,
        ),
    },
  };
}
