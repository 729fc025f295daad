/**
 * The catalogue records an organization starts with. Seeded when an organization is loaded (not in seed.ts), so a
 * state file from before these records existed gains them too: a Tag for every tag name in use, and for every
 * app the versions its channels deliver, plus the older versions of the seeded apps.
 */
import { createHash } from "node:crypto";
import type { AppBundle, AppVersion, Tag } from "./catalogModel";
import { seedId } from "./seed";
import type { StoredOrg } from "./storedState";

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
    id: seedId(`${data.org.slug}/tag/${name}`),
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
        id: seedId(`${key}/version/${version}`),
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
      addBundle(seedId(`${key}/version/${version}/bundle`), record);
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
      addBundle(seedId(`${key}/version/${latest.version}/bundle`), latest);
    }
  }
  return { versions: [...versions.values()], bundles: [...bundles.values()] };
}
