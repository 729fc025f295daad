/**
 * zod schemas of the v3 resources, each typed by its interface in ./types (which the public `./client` entry
 * exports instead of these: the published declarations must not depend on zod). Strict on what the spec defines, tolerant of everything else:
 * - required: the fields the prose spec names for a resource and the fields the OpenAPI document marks
 *   required, with their types (nullable only where the spec says so);
 * - optional: the other OpenAPI fields, and the two fields the documents disagree on (Role.description and
 *   ApiInfo.description appear in the prose only);
 * - unknown fields are dropped, so a new server field breaks nobody.
 * Identifiers are checked as 8-4-4-4-12 hex GUIDs rather than RFC 9562 UUIDs: the spec only says "uuid
 * format", and seeded or imported data need not carry version bits.
 */
import { z } from "zod";
import type * as t from "./types";

// The interfaces are the public names of what these schemas parse to; internal code may import either module.
export type * from "./types";
export { parentIdOf } from "./types";

import { id, parsesTo, timestamp, timestamps } from "./schemaSupport";

export const tokenInfoSchema = parsesTo<t.TokenInfo>()(
  z.object({
    token_name: z.string(),
    display_token: z.string(),
    api_version: z.enum(["v2", "v3"]),
    organization_id: id,
    base_path: z.enum(["/api/v2", "/api/v3"]),
  }),
  true,
);

export const apiInfoSchema = parsesTo<t.ApiInfo>()(
  z.object({
    name: z.string(),
    // Named by the prose spec, absent from the OpenAPI document.
    description: z.string().optional(),
    version: z.string(),
    documentation: z.string(),
    authentication: z.string(),
    rateLimiting: z.string(),
    contact: z.string(),
    termsOfService: z.string(),
  }),
  true,
);

export const organizationSchema = parsesTo<t.Organization>()(
  z.object({ id, name: z.string(), slug: z.string(), ...timestamps }),
  true,
);

export const roleTypeSchema = z.enum(["organization", "group"]);
export const roleSchema = parsesTo<t.Role>()(
  z.object({
    id,
    name: z.string(),
    // Named by the prose spec, absent from the OpenAPI document.
    description: z.string().nullable().optional(),
    type: roleTypeSchema,
    isOwnedBySystem: z.boolean(),
    ...timestamps,
  }),
  true,
);

export const accessControlSchema = parsesTo<t.AccessControl>()(
  z.object({
    id,
    userId: id,
    role: roleSchema,
    protectable: z.object({ id, type: z.enum(["organization", "group", "device"]) }),
    ...timestamps,
  }),
  true,
);

export const userSchema = parsesTo<t.User>()(
  z.object({
    id,
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    accessControls: z.array(accessControlSchema),
    ...timestamps,
  }),
  true,
);

/** The parent of a group is itself expanded one level; its own `parent` is left opaque by the spec. */
const groupParentSchema = parsesTo<t.GroupParent>()(
  z.object({
    id,
    name: z.string(),
    deviceCount: z.number().int().nullable().optional(),
    isConfigured: z.boolean(),
    parent: z.object({}).loose().nullable().optional(),
    ...timestamps,
  }),
  true,
);

export const groupSchema = parsesTo<t.Group>()(
  z.object({
    id,
    name: z.string(),
    deviceCount: z.number().int().nullable().optional(),
    isConfigured: z.boolean(),
    parent: groupParentSchema.nullable(),
    ...timestamps,
  }),
  true,
);

/** Recursive, so typed by annotation (the children refer back to it); the node itself is checked like the rest. */
export const groupHierarchyNodeSchema: z.ZodType<t.GroupHierarchyNode> = z.lazy(() =>
  parsesTo<t.GroupHierarchyNode>()(
    z.object({
      id,
      name: z.string(),
      isConfigured: z.boolean(),
      deviceCount: z.number().int().optional(),
      children: z.array(groupHierarchyNodeSchema).optional(),
      ...timestamps,
    }),
    true,
  ),
);
export const groupHierarchySchema = z.object({ data: z.array(groupHierarchyNodeSchema) });

export const deviceModelSchema = parsesTo<t.DeviceModel>()(
  z.object({
    id,
    name: z.string(),
    manufacturer: z.string().optional(),
    isSupported: z.boolean(),
    ...timestamps,
  }),
  true,
);

export const deviceSchema = parsesTo<t.Device>()(
  z.object({
    id,
    organization: organizationSchema.optional(),
    name: z.string(),
    serialNumber: z.string(),
    group: groupSchema.nullable().optional(),
    deviceModel: deviceModelSchema,
    tags: z.array(z.string()),
    lastCommunicatedAt: timestamp.nullable().optional(),
    isOnline: z.boolean(),
    clientVersion: z.string().nullable().optional(),
    launcherVersion: z.string().nullable().optional(),
    enrollmentDate: timestamp.nullable(),
    systemVersion: z.string().nullable().optional(),
    osVersion: z.string().nullable().optional(),
    ssid: z.string().nullable().optional(),
    macAddress: z.string().nullable().optional(),
    randomizedMacAddress: z.string().nullable().optional(),
    storageSpaceFreeBytes: z.number().int().nullable().optional(),
    storageSpaceTotalBytes: z.number().int().nullable().optional(),
    batteryHealth: z.string().nullable().optional(),
    batteryCharging: z.boolean().nullable().optional(),
    batteryPercentage: z.number().int().nullable().optional(),
    batteryTemperatureC: z.number().nullable().optional(),
    ipAddress: z.string().nullable().optional(),
    signalStrength: z.number().nullable().optional(),
    frequencyMhz: z.number().int().nullable().optional(),
    linkSpeedMbps: z.number().int().nullable().optional(),
    lastLocationLatitude: z.string().nullable().optional(),
    lastLocationLongitude: z.string().nullable().optional(),
    lastLocationAt: timestamp.nullable().optional(),
    runningApp: z
      .object({ packageName: z.string(), name: z.string().nullable().optional() })
      .nullable()
      .optional(),
    customFields: z.array(z.object({ name: z.string(), value: z.string() })),
    complianceStatus: z.enum(["up-to-date", "out-of-date", "syncing", "waiting", "error"]),
    controllers: z.array(
      z.object({ name: z.string(), batteryLevel: z.number().int(), isConnected: z.boolean() }),
    ),
    ...timestamps,
  }),
  true,
);

const checksumSchema = z.object({ algorithm: z.string(), value: z.string() });

export const appSchema = parsesTo<t.App>()(
  z.object({
    id,
    name: z.string(),
    description: z.string().nullable().optional(),
    tags: z.array(z.string()).optional(),
    deviceModels: z.array(deviceModelSchema).optional(),
    packageName: z.string().nullable().optional(),
    installedDeviceCount: z.number().int().optional(),
    latestAvailableVersion: z.string().nullable().optional(),
    ownerOrganization: organizationSchema.optional(),
    ...timestamps,
  }),
  true,
);

const appBuildSchema = z.object({
  id,
  version: z.string().nullable().optional(),
  code: z.number().int().nullable().optional(),
  sizeBytes: z.number().int().nullable().optional(),
  checksum: checksumSchema.optional(),
  status: z.string().optional(),
  statusReason: z.string().nullable().optional(),
  downloadUrl: z.string().nullable().optional(),
  ...timestamps,
});

const releaseChannelDeviceStatusSchema = z.object({
  deviceId: id,
  status: z.string(),
  targetVersion: z.string(),
  installedVersion: z.string().nullable(),
  statusTimestamp: timestamp,
});

export const releaseChannelSchema = parsesTo<t.ReleaseChannel>()(
  z.object({
    id,
    name: z.string(),
    app: appSchema,
    version: appBuildSchema,
    deviceStatuses: z.array(releaseChannelDeviceStatusSchema),
    ...timestamps,
  }),
  true,
);

const contentDeviceStatusSchema = z.object({ deviceId: id, status: z.string(), statusTimestamp: timestamp });

export const fileSchema = parsesTo<t.DeviceFile>()(
  z.object({
    id,
    filename: z.string(),
    location: z.string().optional(),
    sizeBytes: z.number().int().nullable(),
    checksum: checksumSchema,
    tags: z.array(z.string()).optional(),
    deviceStatuses: z.array(contentDeviceStatusSchema),
    downloadUrl: z.string().nullable().optional(),
    ...timestamps,
  }),
  true,
);

export const fileUploadStartSchema = parsesTo<t.FileUploadStart>()(
  z.object({ key: z.string().min(1), uploadId: z.string().min(1), fileId: id }),
  true,
);

export const videoUploadStartSchema = parsesTo<t.VideoUploadStart>()(
  z.object({ key: z.string().min(1), uploadId: z.string().min(1), videoId: id }),
  true,
);

export const appVersionUploadStartSchema = parsesTo<t.AppVersionUploadStart>()(
  z.object({ key: z.string().min(1), uploadId: z.string().min(1), versionId: id }),
  true,
);

/** Pre-sign answers: files, videos and images say `presignedUrl`; app versions' schema `url` (its example the other). */
export const presignedPartsSchema = parsesTo<t.PresignedPart[]>()(
  z.array(
    z
      .union([
        z.object({ partNumber: z.number().int(), presignedUrl: z.url() }),
        z.object({ partNumber: z.number().int(), url: z.url() }),
      ])
      .transform((part) => ({
        partNumber: part.partNumber,
        url: "presignedUrl" in part ? part.presignedUrl : part.url,
      })),
  ),
  true,
);

const videoDetailsSchema = z.object({
  videoType: z.enum(["ThreeSixty", "OneEighty", "TwoDimensional"]),
  videoMapping: z.enum(["EQUIRECTANGULAR", "CUBEMAP"]).nullable().optional(),
  videoDisplay: z.enum(["Stereoscopic", "Monoscopic"]).nullable().optional(),
  videoPacking: z.enum(["TOP_BOTTOM", "LEFT_RIGHT"]).nullable().optional(),
  audioEncoding: z.string().optional(),
  playtimeSeconds: z.number().nullable().optional(),
});

export const videoSchema = parsesTo<t.Video>()(
  z.object({
    id,
    name: z.string(),
    filename: z.string(),
    location: z.string().optional(),
    description: z.string().nullable().optional(),
    sizeBytes: z.number().int(),
    checksum: checksumSchema,
    details: videoDetailsSchema.optional(),
    tags: z.array(z.string()).optional(),
    deviceStatuses: z.array(contentDeviceStatusSchema),
    downloadUrl: z.string().nullable().optional(),
    ...timestamps,
  }),
  true,
);

const paginationSchema = {
  links: z.object({
    first: z.string(),
    last: z.string(),
    prev: z.string().nullable(),
    next: z.string().nullable(),
  }),
  meta: z.object({
    current_page: z.number().int(),
    from: z.number().int().nullable(),
    last_page: z.number().int(),
    links: z.array(z.object({ url: z.string().nullable(), label: z.string(), active: z.boolean() })),
    path: z.string(),
    per_page: z.number().int(),
    to: z.number().int().nullable(),
    total: z.number().int(),
  }),
};

export const auditRecordSchema = parsesTo<t.AuditRecord>()(
  z.object({
    id: z.number().int(),
    description: z.string(),
    action: z.string(),
    type: z.enum(["created", "read", "updated", "deleted", "remote_action", "exported"]),
    // Typed uuid by the OpenAPI, but records of removed or system objects need not follow it: any text.
    resourceId: z.string().nullable().optional(),
    resourceType: z.string().nullable().optional(),
    resourceName: z.string().nullable().optional(),
    userId: z.string().nullable().optional(),
    userEmail: z.string(),
    userIpAddress: z.string().nullable().optional(),
    ...timestamps,
  }),
  true,
);

/** The Laravel pagination envelope around a list of `item`. */
export function pageSchema<T>(item: z.ZodType<T>): z.ZodType<t.Page<T>> {
  return z.object({ data: z.array(item), ...paginationSchema });
}

// ---- Devices, content and releases (issue 20) ----------------------------------------------------------------

export const tagSchema = parsesTo<t.Tag>()(z.object({ id, name: z.string(), ...timestamps }), true);

/** A version of an app as `GET /apps/{id}/versions` lists it: the same shape as a channel's `version`. */
export const appVersionSchema = parsesTo<t.AppBuild>()(appBuildSchema, true);

export const appBundleSchema = parsesTo<t.AppBundle>()(
  z.object({
    id,
    label: z.string().nullable().optional(),
    status: z.string().optional(),
    appBuild: appBuildSchema.optional(),
    ...timestamps,
  }),
  true,
);

export const appBundleFileSchema = parsesTo<t.AppBundleFile>()(
  z.object({
    id,
    name: z.string(),
    location: z.string(),
    bundlePaths: z.array(z.string()),
    sizeBytes: z.number().int().nullable(),
    checksum: checksumSchema,
    ...timestamps,
  }),
  true,
);

export const releaseChannelDeviceStatusItemSchema = parsesTo<t.ReleaseChannelDeviceStatus>()(
  releaseChannelDeviceStatusSchema,
  true,
);

export const shareResultSchema = parsesTo<t.ShareResult>()(
  z.object({ message: z.string().optional() }),
  true,
);
