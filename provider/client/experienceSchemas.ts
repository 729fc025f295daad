/** Schemas of what a headset shows: themes, images, custom 3D environments, headset and device experiences. */
import { z } from "zod";
import { id, parsesTo, timestamp, timestamps } from "./schemaSupport";
import type * as t from "./types";

export const themeSchema = parsesTo<t.Theme>()(
  z.object({
    id,
    name: z.string(),
    isSystemOwned: z.boolean(),
    background1: z.string(),
    background2: z.string(),
    text: z.string(),
    accent1: z.string(),
    accent2: z.string(),
    accent3: z.string(),
    ...timestamps,
  }),
  true,
);

export const imageSchema = parsesTo<t.Image>()(
  z.object({
    id,
    isSystemOwned: z.boolean(),
    objectName: z.string().nullable(),
    originalFileName: z.string().nullable(),
    mimeType: z.string().nullable().optional(),
    sizeBytes: z.number().int().nullable().optional(),
    type: z.string(),
    status: z.string().optional(),
    downloadUrl: z.string().nullable().optional(),
    ...timestamps,
  }),
  true,
);

export const custom3DEnvironmentSchema = parsesTo<t.Custom3DEnvironment>()(
  z.object({
    id,
    objectName: z.string(),
    sizeBytes: z.number().int().nullable().optional(),
    status: z.string().optional(),
    downloadUrl: z.string().nullable().optional(),
    ...timestamps,
  }),
  true,
);

/** GetCustom3DEnvironment_200_response (the single read and the complete): the record wrapped in `data`. */
export const custom3DEnvironmentResultSchema = z
  .object({ data: custom3DEnvironmentSchema })
  .transform((answer) => answer.data);

export const imageUploadStartSchema = parsesTo<t.ImageUploadStart>()(
  z.object({ key: z.string().min(1), uploadId: z.string().min(1), imageId: id }),
  true,
);

export const custom3DEnvironmentUploadStartSchema = parsesTo<t.Custom3DEnvironmentUploadStart>()(
  z.object({ key: z.string().min(1), uploadId: z.string().min(1), custom3DEnvironmentId: id }),
  true,
);

const experienceContentSchema = z.object({ id, type: z.string() });
const experienceBackgroundSchema = z.object({
  type: z.string(),
  bannerImageId: id.nullable().optional(),
  skyboxImageId: id.nullable().optional(),
  threeSixtyImageId: id.nullable().optional(),
  custom3DEnvironmentId: id.nullable().optional(),
});
const sharedModeSettingsSchema = z.object({
  enableOfflineMode: z.boolean(),
  requireManagedMetaLogin: z.boolean(),
  requiredPasswordComplexity: z.string().nullable().optional(),
  enableControllerFree: z.boolean(),
  wakeControllers: z.boolean().nullable().optional(),
  adjustDeviceFit: z.boolean(),
  defaultToStationaryBoundary: z.boolean(),
});
const metaHmsSettingsSchema = z.object({
  isStoreEnabled: z.boolean(),
  isSocialEnabled: z.boolean(),
  isAddAccountsEnabled: z.boolean(),
});
const nullableTimestamps = { createdAt: timestamp.nullable(), updatedAt: timestamp.nullable() };

export const headsetExperienceSchema = parsesTo<t.HeadsetExperience>()(
  z.object({
    id: id.nullable(),
    mode: z.string(),
    visibleContents: z.array(experienceContentSchema).optional(),
    language: z.string().nullable().optional(),
    menuTitle: z.string().nullable().optional(),
    menuIconImageId: id.nullable().optional(),
    removePoweredByArborXrBranding: z.boolean().nullable().optional(),
    shortcuts: z.array(z.string()).nullable().optional(),
    adminPin: z.string().nullable().optional(),
    categorizationTags: z.array(z.string()).nullable().optional(),
    background: experienceBackgroundSchema.nullable().optional(),
    themeId: id.nullable().optional(),
    sharedModeSettings: sharedModeSettingsSchema.nullable().optional(),
    kioskContent: experienceContentSchema.nullable().optional(),
    isMenuEnabled: z.boolean().nullable().optional(),
    metaHmsSettings: metaHmsSettingsSchema.nullable().optional(),
    launcherContent: experienceContentSchema.nullable().optional(),
    returnToLauncherViaHomeButton: z.boolean().nullable().optional(),
    ...nullableTimestamps,
  }),
  true,
);

export const deviceExperienceSchema = parsesTo<t.DeviceExperience>()(
  z.object({
    id: id.nullable(),
    mode: z.string(),
    visibleContents: z.array(experienceContentSchema).optional(),
    launcherContent: experienceContentSchema.nullable().optional(),
    ...nullableTimestamps,
  }),
  true,
);
