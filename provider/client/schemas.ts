/**
 * zod schemas of the v3 resources. Strict on what the spec defines, tolerant of everything else:
 * - required: the fields the prose spec names for a resource and the fields the OpenAPI document marks
 *   required, with their types (nullable only where the spec says so);
 * - optional: the other OpenAPI fields, and the two fields the documents disagree on (Role.description and
 *   ApiInfo.description appear in the prose only);
 * - unknown fields are dropped, so a new server field breaks nobody.
 * Identifiers are checked as 8-4-4-4-12 hex GUIDs rather than RFC 9562 UUIDs: the spec only says "uuid
 * format", and seeded or imported data need not carry version bits.
 */
import { z } from "zod";

const id = z.guid();
const timestamp = z.iso.datetime({ offset: true });
const timestamps = { createdAt: timestamp, updatedAt: timestamp };

export const tokenInfoSchema = z.object({
  token_name: z.string(),
  display_token: z.string(),
  api_version: z.enum(["v2", "v3"]),
  organization_id: id,
  base_path: z.enum(["/api/v2", "/api/v3"]),
});
export type TokenInfo = z.infer<typeof tokenInfoSchema>;

export const apiInfoSchema = z.object({
  name: z.string(),
  // Named by the prose spec, absent from the OpenAPI document.
  description: z.string().optional(),
  version: z.string(),
  documentation: z.string(),
  authentication: z.string(),
  rateLimiting: z.string(),
  contact: z.string(),
  termsOfService: z.string(),
});
export type ApiInfo = z.infer<typeof apiInfoSchema>;

export const organizationSchema = z.object({ id, name: z.string(), slug: z.string(), ...timestamps });
export type Organization = z.infer<typeof organizationSchema>;

export const roleTypeSchema = z.enum(["organization", "group"]);
export const roleSchema = z.object({
  id,
  name: z.string(),
  // Named by the prose spec, absent from the OpenAPI document.
  description: z.string().nullable().optional(),
  type: roleTypeSchema,
  isOwnedBySystem: z.boolean(),
  ...timestamps,
});
export type Role = z.infer<typeof roleSchema>;

export const accessControlSchema = z.object({
  id,
  userId: id,
  role: roleSchema,
  protectable: z.object({ id, type: z.enum(["organization", "group", "device"]) }),
  ...timestamps,
});
export type AccessControl = z.infer<typeof accessControlSchema>;

export const userSchema = z.object({
  id,
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  accessControls: z.array(accessControlSchema),
  ...timestamps,
});
export type User = z.infer<typeof userSchema>;

/** The parent of a group is itself expanded one level; its own `parent` is left opaque by the spec. */
const groupParentSchema = z.object({
  id,
  name: z.string(),
  deviceCount: z.number().int().nullable().optional(),
  isConfigured: z.boolean(),
  parent: z.object({}).loose().nullable().optional(),
  ...timestamps,
});

export const groupSchema = z.object({
  id,
  name: z.string(),
  deviceCount: z.number().int().nullable().optional(),
  isConfigured: z.boolean(),
  parent: groupParentSchema.nullable(),
  ...timestamps,
});
export type Group = z.infer<typeof groupSchema>;

export interface GroupHierarchyNode {
  id: string;
  name: string;
  isConfigured: boolean;
  deviceCount?: number;
  children?: GroupHierarchyNode[];
  createdAt: string;
  updatedAt: string;
}
export const groupHierarchyNodeSchema: z.ZodType<GroupHierarchyNode> = z.lazy(() =>
  z.object({
    id,
    name: z.string(),
    isConfigured: z.boolean(),
    deviceCount: z.number().int().optional(),
    children: z.array(groupHierarchyNodeSchema).optional(),
    ...timestamps,
  }),
);
export const groupHierarchySchema = z.object({ data: z.array(groupHierarchyNodeSchema) });

export const deviceModelSchema = z.object({
  id,
  name: z.string(),
  manufacturer: z.string().optional(),
  isSupported: z.boolean(),
  ...timestamps,
});
export type DeviceModel = z.infer<typeof deviceModelSchema>;

export const deviceSchema = z.object({
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
});
export type Device = z.infer<typeof deviceSchema>;

const checksumSchema = z.object({ algorithm: z.string(), value: z.string() });

export const appSchema = z.object({
  id,
  name: z.string(),
  tags: z.array(z.string()).optional(),
  deviceModels: z.array(deviceModelSchema).optional(),
  packageName: z.string().nullable().optional(),
  installedDeviceCount: z.number().int().optional(),
  latestAvailableVersion: z.string().nullable().optional(),
  ownerOrganization: organizationSchema.optional(),
  ...timestamps,
});
export type App = z.infer<typeof appSchema>;

const appBuildSchema = z.object({
  id,
  version: z.string().nullable().optional(),
  code: z.number().int().nullable().optional(),
  sizeBytes: z.number().int().nullable().optional(),
  checksum: checksumSchema.optional(),
  status: z.string().optional(),
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

export const releaseChannelSchema = z.object({
  id,
  name: z.string(),
  app: appSchema,
  version: appBuildSchema,
  deviceStatuses: z.array(releaseChannelDeviceStatusSchema),
  ...timestamps,
});
export type ReleaseChannel = z.infer<typeof releaseChannelSchema>;

const contentDeviceStatusSchema = z.object({ deviceId: id, status: z.string(), statusTimestamp: timestamp });

export const fileSchema = z.object({
  id,
  filename: z.string(),
  location: z.string().optional(),
  sizeBytes: z.number().int().nullable(),
  checksum: checksumSchema,
  tags: z.array(z.string()).optional(),
  deviceStatuses: z.array(contentDeviceStatusSchema),
  ...timestamps,
});
export type DeviceFile = z.infer<typeof fileSchema>;

export const videoSchema = z.object({
  id,
  name: z.string(),
  filename: z.string(),
  location: z.string().optional(),
  sizeBytes: z.number().int(),
  checksum: checksumSchema,
  tags: z.array(z.string()).optional(),
  deviceStatuses: z.array(contentDeviceStatusSchema),
  ...timestamps,
});
export type Video = z.infer<typeof videoSchema>;

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

/** The Laravel pagination envelope around a list of `item`. */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), ...paginationSchema });
}
export interface Page<T> {
  data: T[];
  meta: { current_page: number; last_page: number; per_page: number; total: number };
}

/** The group's parent id, or null for a root group (the API exposes the expanded `parent` only). */
export function parentIdOf(group: Pick<Group, "parent">): string | null {
  return group.parent?.id ?? null;
}
