/**
 * Deterministic seed data: two organizations whose catalogues match by name (the product rebuilds a staging
 * organization from production by names), fixed tokens, ids derived from stable keys.
 */
import { createHash } from "node:crypto";
import type {
  AccessControl,
  App,
  AppBuild,
  Device,
  DeviceModel,
  FileItem,
  ReleaseChannel,
  Role,
  User,
  Video,
} from "./model";
import { SYSTEM_ROLES } from "./permissions";
import type { StoredOrg, StoredState } from "./storedState";

/** A UUID (version 5 layout) derived from a key, so seeded ids are the same on every start. */
export function seedId(key: string): string {
  const hex = createHash("sha1").update(`devicemgmt-emulator/${key}`).digest("hex");
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function digest(algorithm: "sha256" | "sha512", key: string): string {
  return createHash(algorithm).update(key).digest("hex");
}

/** Fixed instants, minute by minute from a base date, so seeded lists have a stable order. */
function at(base: string, minutes: number): string {
  return new Date(Date.parse(base) + minutes * 60_000).toISOString();
}

const ORG_EPOCH = "2024-01-08T09:00:00.000Z";
const CATALOGUE_EPOCH = "2024-02-01T10:00:00.000Z";
const USER_EPOCH = "2024-02-15T08:30:00.000Z";
const DEVICE_EPOCH = "2024-03-04T07:00:00.000Z";

/** Laravel Sanctum's "<id>|<40 characters>" shape; the characters spell what the token is for. */
function sanctumToken(id: number, label: string): string {
  return `${id}|${label.padEnd(40, "0")}`;
}

export const SEED_ORGS = {
  primary: { id: seedId("org/acme"), slug: "acme", name: "Acme Devices" },
  secondary: { id: seedId("org/acme-staging"), slug: "acme-staging", name: "Acme Staging" },
} as const;

/** `display` is the shortened form token-info shows ("AcmeAdmi..."), never the whole secret. */
export type TokenRecord =
  | { kind: "v3"; name: string; display: string; orgId: string; userId: string }
  | { kind: "v2"; name: string; display: string; orgId: string };

function displayToken(token: string): string {
  return `${token.slice(token.indexOf("|") + 1).slice(0, 8)}...`;
}

interface SeedUser {
  key: string;
  org: keyof typeof SEED_ORGS;
  firstName: string;
  lastName: string;
  email: string;
  role: string;
}

const SEED_USERS: readonly SeedUser[] = [
  {
    key: "admin",
    org: "primary",
    firstName: "Ada",
    lastName: "Admin",
    email: "ada.admin@acme.example",
    role: "Admin",
  },
  {
    key: "read-only",
    org: "primary",
    firstName: "Rory",
    lastName: "Reader",
    email: "rory.reader@acme.example",
    role: "Read Only",
  },
  {
    key: "no-migrate",
    org: "primary",
    firstName: "Dana",
    lastName: "Manager",
    email: "dana.manager@acme.example",
    role: "Device Manager",
  },
  {
    key: "multi-org",
    org: "primary",
    firstName: "Morgan",
    lastName: "Multi",
    email: "morgan.multi@acme.example",
    role: "Admin",
  },
  {
    key: "multi-org",
    org: "secondary",
    firstName: "Morgan",
    lastName: "Multi",
    email: "morgan.multi@acme.example",
    role: "Admin",
  },
];

function userId(org: keyof typeof SEED_ORGS, key: string): string {
  return seedId(`${SEED_ORGS[org].slug}/user/${key}`);
}

export const SEED_TOKENS = {
  admin: sanctumToken(1, "AcmeAdmin"),
  readOnly: sanctumToken(2, "AcmeReadOnly"),
  noMigrate: sanctumToken(3, "AcmeNoMigrate"),
  multiOrgAdmin: sanctumToken(4, "AcmeMultiOrgAdmin"),
  multiOrgAdminSecondary: sanctumToken(5, "StagingMultiOrgAdmin"),
  v2: sanctumToken(6, "AcmeLegacyV2"),
} as const;

const v3 = (
  token: string,
  name: string,
  org: keyof typeof SEED_ORGS,
  userKey: string,
): [string, TokenRecord] => [
  token,
  { kind: "v3", name, display: displayToken(token), orgId: SEED_ORGS[org].id, userId: userId(org, userKey) },
];

export const SEED_TOKEN_RECORDS: ReadonlyMap<string, TokenRecord> = new Map<string, TokenRecord>([
  v3(SEED_TOKENS.admin, "Ada Admin (acme)", "primary", "admin"),
  v3(SEED_TOKENS.readOnly, "Rory Reader (acme)", "primary", "read-only"),
  v3(SEED_TOKENS.noMigrate, "Dana Manager (acme)", "primary", "no-migrate"),
  v3(SEED_TOKENS.multiOrgAdmin, "Morgan Multi (acme)", "primary", "multi-org"),
  v3(SEED_TOKENS.multiOrgAdminSecondary, "Morgan Multi (acme-staging)", "secondary", "multi-org"),
  [
    SEED_TOKENS.v2,
    {
      kind: "v2",
      name: "Legacy v2 integration (acme)",
      display: displayToken(SEED_TOKENS.v2),
      orgId: SEED_ORGS.primary.id,
    },
  ],
]);

const DEVICE_MODELS: readonly { name: string; manufacturer: string; isSupported: boolean }[] = [
  { name: "Quest 2", manufacturer: "Meta", isSupported: true },
  { name: "Quest 3", manufacturer: "Meta", isSupported: true },
  { name: "Quest Pro", manufacturer: "Meta", isSupported: true },
  { name: "Pico 4 Enterprise", manufacturer: "Pico", isSupported: true },
  { name: "Pico Neo 3 Pro", manufacturer: "Pico", isSupported: true },
  { name: "Vive Focus 3", manufacturer: "HTC", isSupported: true },
  /** Unsupported and enrolled by seeded devices, so it is listed. */
  { name: "Mirage Solo", manufacturer: "Lenovo", isSupported: false },
  /** Unsupported and enrolled by nobody, so it is not listed. */
  { name: "Go", manufacturer: "Oculus", isSupported: false },
];

const ENROLLED_UNSUPPORTED_MODEL = "Mirage Solo";

const APPS: readonly {
  name: string;
  packageName: string;
  tags: string[];
  models: string[];
  channels: { name: string; version: string; code: number }[];
}[] = [
  {
    name: "Training Simulator",
    packageName: "com.acme.trainingsimulator",
    tags: ["training"],
    models: ["Quest 2", "Quest 3", "Pico 4 Enterprise"],
    channels: [
      { name: "Production", version: "2.4.1", code: 241 },
      { name: "Beta", version: "2.5.0-beta.3", code: 250 },
    ],
  },
  {
    name: "Safety Briefing",
    packageName: "com.acme.safetybriefing",
    tags: ["safety", "onboarding"],
    models: ["Quest 2", "Quest 3", "Quest Pro", "Vive Focus 3"],
    channels: [{ name: "Stable", version: "1.8.0", code: 180 }],
  },
  {
    name: "Warehouse Picker",
    packageName: "com.acme.warehousepicker",
    tags: ["operations"],
    models: ["Quest 3", "Pico Neo 3 Pro"],
    channels: [
      { name: "Production", version: "3.1.2", code: 312 },
      { name: "Pilot", version: "3.2.0", code: 320 },
    ],
  },
];

const FILES: readonly { filename: string; sizeBytes: number; tags: string[] }[] = [
  { filename: "safety-manual.pdf", sizeBytes: 2_483_211, tags: ["safety"] },
  { filename: "warehouse-floorplan.png", sizeBytes: 845_102, tags: ["operations"] },
  { filename: "onboarding-checklist.pdf", sizeBytes: 126_877, tags: ["onboarding"] },
  { filename: "kiosk-config.json", sizeBytes: 4_096, tags: [] },
];

const VIDEOS: readonly {
  name: string;
  filename: string;
  sizeBytes: number;
  playtimeSeconds: number;
  videoType: Video["videoType"];
}[] = [
  {
    name: "Welcome Tour",
    filename: "welcome-tour.mp4",
    sizeBytes: 187_300_112,
    playtimeSeconds: 312.5,
    videoType: "TwoDimensional",
  },
  {
    name: "Forklift Safety 360",
    filename: "forklift-safety-360.mp4",
    sizeBytes: 1_204_551_990,
    playtimeSeconds: 644,
    videoType: "ThreeSixty",
  },
  {
    name: "Evacuation Drill",
    filename: "evacuation-drill-180.mp4",
    sizeBytes: 733_018_442,
    playtimeSeconds: 421.25,
    videoType: "OneEighty",
  },
];

export const DEFAULT_SEED_DEVICES = 8;

function seedDeviceModels(): DeviceModel[] {
  return DEVICE_MODELS.map((model, i) => ({
    id: seedId(`device-model/${model.manufacturer}/${model.name}`),
    ...model,
    createdAt: at("2023-06-01T00:00:00.000Z", i),
    updatedAt: at("2023-06-01T00:00:00.000Z", i),
  }));
}

function build(key: string, version: string, code: number, createdAt: string): AppBuild {
  return {
    id: seedId(`${key}/build`),
    version,
    code,
    sizeBytes: 48_000_000 + code * 1_024,
    checksum: { algorithm: "SHA-256", value: digest("sha256", `${key}/${version}`) },
    createdAt,
    updatedAt: createdAt,
  };
}

function seedOrganization(
  which: keyof typeof SEED_ORGS,
  deviceModels: DeviceModel[],
  deviceCount: number,
): StoredOrg {
  const ref = SEED_ORGS[which];
  const slug = ref.slug;
  const modelId = new Map(deviceModels.map((m) => [m.name, m.id]));
  const orgCreatedAt = at(ORG_EPOCH, which === "primary" ? 0 : 60);

  const roles: Role[] = SYSTEM_ROLES.map((definition, i) => ({
    id: seedId(`${slug}/role/${definition.name}`),
    name: definition.name,
    description: definition.description,
    type: definition.type,
    permissions: [...definition.permissions],
    isOwnedBySystem: true,
    createdAt: at(orgCreatedAt, i),
    updatedAt: at(orgCreatedAt, i),
  }));
  const roleIdByName = new Map(roles.map((r) => [r.name, r.id]));

  const users: User[] = SEED_USERS.filter((u) => u.org === which).map((u, i) => {
    const id = userId(which, u.key);
    const createdAt = at(USER_EPOCH, i);
    const defaultRole: AccessControl = {
      id: seedId(`${slug}/user/${u.key}/access-control/organization`),
      roleId: roleIdByName.get(u.role) as string,
      protectable: { type: "organization", id: ref.id },
      createdAt,
      updatedAt: createdAt,
    };
    return {
      id,
      firstName: u.firstName,
      lastName: u.lastName,
      email: u.email,
      accessControls: [defaultRole],
      createdAt,
      updatedAt: createdAt,
    };
  });

  const apps: App[] = [];
  const releaseChannels: ReleaseChannel[] = [];
  APPS.forEach((definition, i) => {
    const key = `${slug}/app/${definition.name}`;
    const createdAt = at(CATALOGUE_EPOCH, i * 10);
    const latest = definition.channels[0];
    apps.push({
      id: seedId(key),
      name: definition.name,
      packageName: definition.packageName,
      tags: [...definition.tags],
      deviceModelIds: definition.models.map((name) => modelId.get(name) as string),
      iconId: seedId(`${key}/icon`),
      latestBuild: build(`${key}/channel/${latest.name}`, latest.version, latest.code, createdAt),
      createdAt,
      updatedAt: createdAt,
    });
    definition.channels.forEach((channel, j) => {
      const channelKey = `${key}/channel/${channel.name}`;
      const channelCreatedAt = at(createdAt, j + 1);
      releaseChannels.push({
        id: seedId(channelKey),
        appId: seedId(key),
        name: channel.name,
        build: build(channelKey, channel.version, channel.code, channelCreatedAt),
        bundleId: seedId(`${channelKey}/bundle`),
        sharedWithOrgIds: [],
        createdAt: channelCreatedAt,
        updatedAt: channelCreatedAt,
      });
    });
  });

  const files: FileItem[] = FILES.map((file, i) => {
    const createdAt = at(CATALOGUE_EPOCH, 100 + i);
    return {
      id: seedId(`${slug}/file/${file.filename}`),
      filename: file.filename,
      location: `organizations/${slug}/files/${file.filename}`,
      sizeBytes: file.sizeBytes,
      checksum: { algorithm: "SHA-512", value: digest("sha512", `${slug}/${file.filename}`) },
      tags: [...file.tags],
      createdAt,
      updatedAt: createdAt,
    };
  });

  const videos: Video[] = VIDEOS.map((video, i) => {
    const createdAt = at(CATALOGUE_EPOCH, 200 + i);
    return {
      id: seedId(`${slug}/video/${video.filename}`),
      name: video.name,
      filename: video.filename,
      location: `organizations/${slug}/videos/${video.filename}`,
      sizeBytes: video.sizeBytes,
      checksum: { algorithm: "SHA-512", value: digest("sha512", `${slug}/${video.filename}`) },
      tags: [],
      playtimeSeconds: video.playtimeSeconds,
      videoType: video.videoType,
      createdAt,
      updatedAt: createdAt,
    };
  });

  const supportedModels = deviceModels.filter((m) => m.isSupported);
  const width = Math.max(2, String(deviceCount).length);
  const devices: Device[] = [];
  for (let i = 0; i < deviceCount; i++) {
    const name = `Headset ${String(i + 1).padStart(width, "0")}`;
    const key = `${slug}/device/${name}`;
    const hash = digest("sha256", key);
    // Every eighth device is an enrolled unsupported model; the rest cycle through the supported ones.
    const model =
      i % 8 === 7
        ? (modelId.get(ENROLLED_UNSUPPORTED_MODEL) as string)
        : supportedModels[i % supportedModels.length].id;
    // Two devices per minute: equal created_at values exercise the id tie-break of list ordering.
    const createdAt = at(DEVICE_EPOCH, Math.floor(i / 2));
    const online = i % 3 !== 2;
    const octet = (n: number) => hash.slice(n * 2, n * 2 + 2);
    devices.push({
      id: seedId(key),
      name,
      serialNumber: `${which === "primary" ? "ACM" : "STG"}${hash.slice(0, 9).toUpperCase()}`,
      groupId: null,
      deviceModelId: model,
      tags: i % 4 === 0 ? ["lobby"] : [],
      releaseChannels: [],
      files: [],
      videos: [],
      enrollmentDate: createdAt,
      telemetry: {
        lastCommunicatedAt: at("2024-06-01T12:00:00.000Z", i),
        isOnline: online,
        clientVersion: "4.12.0",
        launcherVersion: "2.30.1",
        systemVersion: "SQ3A.220705.003",
        osVersion: "12",
        ssid: online ? "acme-devices" : null,
        macAddress: `02:00:${octet(0)}:${octet(1)}:${octet(2)}:${octet(3)}`,
        randomizedMacAddress: null,
        storageSpaceFreeBytes: 64_000_000_000 - (i % 10) * 3_000_000_000,
        storageSpaceTotalBytes: 128_000_000_000,
        batteryHealth: "good",
        batteryCharging: i % 2 === 0,
        batteryPercentage: 40 + ((i * 7) % 60),
        batteryTemperatureC: 29.5 + (i % 5),
        ipAddress: online ? `10.20.${Math.floor(i / 250)}.${(i % 250) + 2}` : null,
        signalStrength: online ? -48 - (i % 20) : null,
        frequencyMhz: online ? 5180 : null,
        linkSpeedMbps: online ? 866 : null,
        lastLocationLatitude: null,
        lastLocationLongitude: null,
        lastLocationAt: null,
        runningApp: online ? { packageName: "com.acme.trainingsimulator", name: "Training Simulator" } : null,
        customFields: [{ name: "Asset tag", value: `AT-${String(i + 1).padStart(5, "0")}` }],
        complianceStatus: online ? "up-to-date" : "waiting",
        controllers: [
          { name: "Left controller", batteryLevel: 60 + (i % 40), isConnected: online },
          { name: "Right controller", batteryLevel: 55 + (i % 45), isConnected: online },
        ],
      },
      createdAt,
      updatedAt: createdAt,
    });
  }

  return {
    org: { ...ref, createdAt: orgCreatedAt, updatedAt: orgCreatedAt },
    roles,
    users,
    groups: [],
    devices,
    apps,
    releaseChannels,
    files,
    videos,
  };
}

export function seedState(options: { devices?: number } = {}): StoredState {
  const deviceCount = options.devices ?? DEFAULT_SEED_DEVICES;
  const deviceModels = seedDeviceModels();
  return {
    format: "devicemgmt-emulator-state",
    version: 1,
    deviceModels,
    orgs: [
      seedOrganization("primary", deviceModels, deviceCount),
      seedOrganization("secondary", deviceModels, deviceCount),
    ],
  };
}
