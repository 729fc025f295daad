/**
 * The operations behind what a headset shows: themes, images, custom 3D environments, and the headset and
 * device experiences of configured groups and ungrouped devices. Kept apart from operations.ts, which they join
 * through `createExperienceOperations`.
 */
import type { z } from "zod";
import { PageIterator, type PageSizeMemory } from "./pagination";
import * as s from "./schemas";
import * as x from "./experienceSchemas";
import type { QueryValue } from "./transport";
import type {
  Custom3DEnvironment,
  Custom3DEnvironmentUploadStart,
  DeviceExperience,
  HeadsetExperience,
  Image,
  ImageType,
  ImageUploadStart,
  Page,
  PresignedPart,
  Theme,
  ThemeBody,
  UploadedPart,
} from "./types";
import type { Executor } from "./executor";
import { type Invalidates, INVALIDATES_NOTHING, REPEATABLE, UPLOAD_INITIATE } from "./invalidates";

/** Whose experience: a configured group's, or an ungrouped device's. */
export type ExperienceHolder = { groupId: string } | { deviceId: string };

/** The path segments of `POST …/headset-experience/{segment}` (the GET's `mode` names two of them differently). */
export type HeadsetExperiencePath = "arborxr-home" | "arborxr-kiosk" | "default-home" | "in-house-launcher";
/** The path segments of `POST …/device-experience/{segment}`. */
export type DeviceExperiencePath = "lock-task" | "default-home" | "in-house-launcher";

export interface ThemeOperations {
  list(): PageIterator<Theme>;
  all(): Promise<Theme[]>;
  get(themeId: string): Promise<Theme>;
  create(body: ThemeBody): Promise<Theme>;
  /** Replaces the whole theme (system themes are refused). */
  update(themeId: string, body: ThemeBody): Promise<Theme>;
  delete(themeId: string): Promise<void>;
}

export interface ImageOperations {
  /** The images of one type (the API lists no other way). */
  list(type: ImageType): PageIterator<Image>;
  all(type: ImageType): Promise<Image[]>;
  get(imageId: string): Promise<Image>;
  /** Starts an upload (only a filename: the API takes no type); the image exists once `completeUpload` answered. */
  initiateUpload(body: { filename: string }): Promise<ImageUploadStart>;
  /** Pre-signed URLs for at most 4 parts (an API call: it counts against the rate budget). */
  presignUpload(imageId: string, body: PresignUploadBody): Promise<PresignedPart[]>;
  /** Makes the image from the parts storage received; answers it `pending`, with no checksum. */
  completeUpload(imageId: string, body: CompleteUploadBody): Promise<Image>;
}

export interface Custom3DEnvironmentOperations {
  list(): PageIterator<Custom3DEnvironment>;
  all(): Promise<Custom3DEnvironment[]>;
  get(custom3DEnvironmentId: string): Promise<Custom3DEnvironment>;
  /** Starts an upload of a `.glb`; the environment exists once `completeUpload` answered. */
  initiateUpload(body: { filename: string }): Promise<Custom3DEnvironmentUploadStart>;
  presignUpload(custom3DEnvironmentId: string, body: PresignUploadBody): Promise<PresignedPart[]>;
  /** Makes the environment from the parts storage received; answers it `pending`, with no checksum. */
  completeUpload(custom3DEnvironmentId: string, body: CompleteUploadBody): Promise<Custom3DEnvironment>;
}

/** `POST …/pre-sign` (operations.ts's PresignUploadBody; that module imports this one, so it is not imported here). */
interface PresignUploadBody {
  key: string;
  uploadId: string;
  partNumbers: number[];
}

/** `POST …/complete` of an image or environment: every part, ascending, with the ETag storage answered. */
export interface CompleteUploadBody {
  key: string;
  uploadId: string;
  parts: UploadedPart[];
}

export interface HeadsetExperienceOperations {
  get(holder: ExperienceHolder): Promise<HeadsetExperience>;
  /** Configures the mode `path` with `body` (the whole experience: there is no partial update); 204. */
  set(holder: ExperienceHolder, path: HeadsetExperiencePath, body: object): Promise<void>;
}

export interface DeviceExperienceOperations {
  get(holder: ExperienceHolder): Promise<DeviceExperience>;
  /** Configures the mode `path` with `body`; 204. */
  set(holder: ExperienceHolder, path: DeviceExperiencePath, body: object): Promise<void>;
}

export interface ExperienceOperations {
  themes: ThemeOperations;
  images: ImageOperations;
  custom3DEnvironments: Custom3DEnvironmentOperations;
  headsetExperiences: HeadsetExperienceOperations;
  deviceExperiences: DeviceExperienceOperations;
}

const themesPage = s.pageSchema(x.themeSchema);
const imagesPage = s.pageSchema(x.imageSchema);
const environmentsPage = s.pageSchema(x.custom3DEnvironmentSchema);

/** Path segments are escaped so an identifier can never change which endpoint is called. */
const e = encodeURIComponent;

const holderPath = (holder: ExperienceHolder) =>
  "groupId" in holder ? `/groups/${e(holder.groupId)}` : `/devices/${e(holder.deviceId)}`;

/** A group's experience is part of the group (its `updatedAt` may move); devices are not cached. */
const holderChanged = (holder: ExperienceHolder): Invalidates =>
  "groupId" in holder ? [{ kind: "groups" }] : INVALIDATES_NOTHING;

/** Only the theme's own fields travel: a Theme read back (with id, timestamps) can be passed as a body. */
const themeBody = (body: ThemeBody): ThemeBody => ({
  name: body.name,
  background1: body.background1,
  background2: body.background2,
  text: body.text,
  accent1: body.accent1,
  accent2: body.accent2,
  accent3: body.accent3,
});

export function createExperienceOperations(
  run: Executor & { pageSizes?: PageSizeMemory },
): ExperienceOperations {
  const list = <T>(path: string, schema: z.ZodType<Page<T>>, query: Record<string, QueryValue> = {}) =>
    new PageIterator<T>(
      (request) => run.get(path, schema, { ...query, page: request.page, per_page: request.perPage }),
      run.pageSizes,
    );

  return {
    themes: {
      list: () => list(`/themes`, themesPage),
      all: () => list(`/themes`, themesPage).all(),
      get: (themeId) => run.get(`/themes/${e(themeId)}`, x.themeSchema),
      // Themes are in no cached list.
      create: (body) => run.write("POST", `/themes`, INVALIDATES_NOTHING, themeBody(body), x.themeSchema),
      update: (themeId, body) =>
        run.write("PUT", `/themes/${e(themeId)}`, INVALIDATES_NOTHING, themeBody(body), x.themeSchema),
      delete: (themeId) => run.write<void>("DELETE", `/themes/${e(themeId)}`, INVALIDATES_NOTHING),
    },

    images: {
      list: (type) => list(`/images`, imagesPage, { type }),
      all: (type) => list(`/images`, imagesPage, { type }).all(),
      get: (imageId) => run.get(`/images/${e(imageId)}`, x.imageSchema),
      // Images are in no cached list: an upload makes nothing stale. Pre-signing changes nothing: retried.
      initiateUpload: (body) =>
        run.write(
          "POST",
          `/images`,
          INVALIDATES_NOTHING,
          { filename: body.filename },
          x.imageUploadStartSchema,
          undefined,
          UPLOAD_INITIATE,
        ),
      presignUpload: (imageId, body) =>
        run.write(
          "POST",
          `/images/${e(imageId)}/pre-sign`,
          INVALIDATES_NOTHING,
          body,
          s.presignedPartsSchema,
          undefined,
          REPEATABLE,
        ),
      completeUpload: (imageId, body) =>
        run.write("POST", `/images/${e(imageId)}/complete`, INVALIDATES_NOTHING, body, x.imageSchema),
    },

    custom3DEnvironments: {
      list: () => list(`/custom-3d-environments`, environmentsPage),
      all: () => list(`/custom-3d-environments`, environmentsPage).all(),
      get: (environmentId) =>
        run.get(`/custom-3d-environments/${e(environmentId)}`, x.custom3DEnvironmentResultSchema),
      initiateUpload: (body) =>
        run.write(
          "POST",
          `/custom-3d-environments`,
          INVALIDATES_NOTHING,
          { filename: body.filename },
          x.custom3DEnvironmentUploadStartSchema,
          undefined,
          UPLOAD_INITIATE,
        ),
      presignUpload: (environmentId, body) =>
        run.write(
          "POST",
          `/custom-3d-environments/${e(environmentId)}/pre-sign`,
          INVALIDATES_NOTHING,
          body,
          s.presignedPartsSchema,
          undefined,
          REPEATABLE,
        ),
      completeUpload: (environmentId, body) =>
        run.write(
          "POST",
          `/custom-3d-environments/${e(environmentId)}/complete`,
          INVALIDATES_NOTHING,
          body,
          x.custom3DEnvironmentResultSchema,
        ),
    },

    headsetExperiences: {
      get: (holder) => run.get(`${holderPath(holder)}/headset-experience`, x.headsetExperienceSchema),
      set: (holder, path, body) =>
        run.write<void>(
          "POST",
          `${holderPath(holder)}/headset-experience/${e(path)}`,
          holderChanged(holder),
          body,
          undefined,
          undefined,
          REPEATABLE,
        ),
    },

    deviceExperiences: {
      get: (holder) => run.get(`${holderPath(holder)}/device-experience`, x.deviceExperienceSchema),
      set: (holder, path, body) =>
        run.write<void>(
          "POST",
          `${holderPath(holder)}/device-experience/${e(path)}`,
          holderChanged(holder),
          body,
          undefined,
          undefined,
          REPEATABLE,
        ),
    },
  };
}
