/**
 * Stored records of tags, app versions and bundles, and what the rest of the model lacks to simulate rollouts;
 * and the catalogue an organization starts with. Seeded when an organization is loaded (not in seed.ts), so a
 * state file from before these records existed gains them too: a Tag for every tag name in use, and for every
 * app the versions its channels deliver, plus the older versions of the seeded apps.
 */
import { createHash } from "node:crypto";
import type { AppBuild, Checksum, StoredState, Timestamps } from "./model";

export interface Tag extends Timestamps {
  id: string;
  name: string;
}

/** One build of an app (GetAppVersions' items). */
export interface AppVersion extends AppBuild {
  appId: string;
  /** An uploaded build: when its complete was applied (emulator clock) and why it fails (appBuilds.ts). */
  processing?: { completedAtMs: number; failure: string | null };
  /** An uploaded build's stored bytes (emulator/uploads.ts), which its `downloadUrl` signs. */
  objectKey?: string;
}

/** An app bundle: the version a release channel delivers, with its install-time companions. */
export interface AppBundle extends Timestamps {
  id: string;
  appId: string;
  versionId: string;
  /** "First bundle has no label, subsequent bundles get 'Original' and 'Copy N' labels" (OpenAPI). */
  label: string | null;
  /** Absent in seeded bundles and older state files: available. A bundle made by POST /app-bundles is pending. */
  status?: AppBundleStatus;
  /** The bundle's data files and the folder each goes to on devices; absent: none. */
  files?: { fileId: string; path: string }[];
  /** When a processing bundle becomes available (emulator clock). */
  availableAt?: string;
  /** Its processing ends in `failed` at `availableAt` (fault `failBundleProcessing`). */
  failsProcessing?: boolean;
}

export type AppBundleStatus = "pending" | "processing" | "available" | "failed";

/** Processing time of a finalized bundle under the `slowBundleProcessing` switch (emulator clock). */
export const BUNDLE_PROCESSING_MS = 60_000;

/** A bundle's status at `now` (emulator clock): processing until its `availableAt`, then available (or failed). */
export function bundleStatus(bundle: AppBundle, now: string): AppBundleStatus {
  const status = bundle.status ?? "available";
  if (status !== "processing" || bundle.availableAt === undefined || now < bundle.availableAt) return status;
  return bundle.failsProcessing ? "failed" : "available";
}

/** A data file uploaded for an app's bundles (`POST /files` with `appBundleId`): not among the organization's files. */
export interface AppFile extends Timestamps {
  id: string;
  appId: string;
  filename: string;
  location: string;
  sizeBytes: number;
  checksum: Checksum;
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

export type StoredOrg = StoredState["orgs"][number];

/** A UUID (version 5 layout) derived from a key, as seed.ts derives its ids. */
function derivedId(key: string): string {
  const hex = createHash("sha1").update(`devicemgmt-emulator/${key}`).digest("hex");
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const TAG_EPOCH = "2024-01-20T09:00:00.000Z";
const VERSION_EPOCH = "2023-11-01T10:00:00.000Z";

const at = (base: string, minutes: number) => new Date(Date.parse(base) + minutes * 60_000).toISOString();

/** Tags seeded in every organization besides those in use: site tags nothing carries yet. */
const EXTRA_TAGS = ["site-north", "site-south"];

/** Versions of the seeded apps older than what their channels deliver, oldest first. */
const OLDER_VERSIONS: Record<string, { version: string; code: number }[]> = {
  "Training Simulator": [
    { version: "2.3.0", code: 230 },
    { version: "2.4.0", code: 240 },
  ],
  "Safety Briefing": [{ version: "1.7.2", code: 172 }],
  "Warehouse Picker": [{ version: "3.1.0", code: 310 }],
};

/** A Tag for every name used by devices, apps, files, videos and groups, plus the extra site tags. */
export function seedTags(data: StoredOrg): Tag[] {
  const names = new Set<string>();
  const holders = [...data.devices, ...data.apps, ...data.files, ...data.videos, ...data.groups];
  for (const holder of holders)
    for (const name of (holder as { tags?: string[] }).tags ?? []) names.add(name);
  for (const name of EXTRA_TAGS) names.add(name);
  return [...names].sort().map((name, i) => ({
    id: derivedId(`${data.org.slug}/tag/${name}`),
    name,
    createdAt: at(TAG_EPOCH, i),
    updatedAt: at(TAG_EPOCH, i),
  }));
}

/**
 * Every app's versions: the older seeded ones, then each build its channels deliver and its latest build (by
 * id, once each); one bundle per version, the channels' own bundle ids for the builds they deliver.
 */
export function seedVersions(data: StoredOrg): { versions: AppVersion[]; bundles: AppBundle[] } {
  const versions = new Map<string, AppVersion>();
  const bundles = new Map<string, AppBundle>();
  const addBundle = (id: string, version: AppVersion) => {
    if (!bundles.has(id))
      bundles.set(id, {
        id,
        appId: version.appId,
        versionId: version.id,
        label: null,
        createdAt: version.createdAt,
        updatedAt: version.createdAt,
      });
  };
  for (const app of data.apps) {
    const key = `${data.org.slug}/app/${app.name}`;
    (OLDER_VERSIONS[app.name] ?? []).forEach(({ version, code }, i) => {
      const createdAt = at(VERSION_EPOCH, i * 60);
      const record: AppVersion = {
        id: derivedId(`${key}/version/${version}`),
        appId: app.id,
        version,
        code,
        sizeBytes: 47_000_000 + code * 1_024,
        checksum: {
          algorithm: "SHA-256",
          value: createHash("sha256").update(`${key}/${version}`).digest("hex"),
        },
        createdAt,
        updatedAt: createdAt,
      };
      versions.set(record.id, record);
      addBundle(derivedId(`${key}/version/${version}/bundle`), record);
    });
    const delivered = data.releaseChannels.filter((c) => c.appId === app.id);
    for (const channel of delivered) {
      const version = { ...channel.build, appId: app.id };
      if (!versions.has(version.id)) versions.set(version.id, version);
      addBundle(channel.bundleId, versions.get(version.id) as AppVersion);
    }
    // An app made through POST /apps has no build yet.
    if (app.latestBuild && !versions.has(app.latestBuild.id)) {
      const latest = { ...app.latestBuild, appId: app.id };
      versions.set(latest.id, latest);
      addBundle(derivedId(`${key}/version/${latest.version}/bundle`), latest);
    }
  }
  return { versions: [...versions.values()], bundles: [...bundles.values()] };
}
