/**
 * The AppVersion section of the generated program: each build a release channel delivers whose bytes the
 * exporter downloaded into `content/` (export/content.ts; the OpenAPI's build schema answers a `downloadUrl`) is
 * declared with that copy as its `source`, its app found by name and its version name, so a staging stack's
 * `up` uploads the same build and its channels deliver it; the production stack adopts it by id (`adoptId`: the
 * same SHA-256 and version name only). Release channels then refer to the declared build instead of
 * `getAppVersion`. A build the API gives no URL for stays a lookup (`getAppVersion`) and the generated README
 * lists it with why; builds no channel delivers are not exported.
 */
import { contentSection } from "../../export/contentSection";
import type { KindSection } from "../../export/layout";
import { tsString } from "../../export/text";
import type { DeviceMgmtClient } from "../../client";
import type { ContentItem } from "../../framework";

/**
 * The builds release channels deliver (what a staging organization needs to deliver the same), each named
 * `<app> <version>.apk` for its local copy; declared with its app found by name (`getApp`) and its version
 * name. A build no channel delivers is not read: an app keeps every build it ever had, and copying them all
 * would make an export cost the app's whole history.
 */
async function listBuilds(client: DeviceMgmtClient): Promise<ContentItem[]> {
  const apps = await client.apps.all();
  const named = (name: string) => apps.filter((a) => a.name === name).length;
  const builds: ContentItem[] = [];
  for (const app of apps) {
    const channels = await client.apps.releaseChannels(app.id).all();
    const delivered = new Set(channels.map((c) => c.version.id));
    if (!delivered.size) continue;
    for (const build of await client.releases.versions(app.id).all()) {
      if (!delivered.has(build.id)) continue;
      const version = build.version ?? "";
      builds.push({
        id: build.id,
        name: `${app.name} ${version || build.id}.apk`.replace(/[/\\]/g, "_"),
        path: null,
        properties: { appId: app.id, appName: app.name, versionName: version },
        ...(named(app.name) !== 1
          ? {
              unfit: `${named(app.name)} apps are named "${app.name}", so the program cannot find its app by name`,
            }
          : version
            ? {}
            : { unfit: "it has no version name, which an AppVersion declares" }),
        sizeBytes: build.sizeBytes,
        checksum: build.checksum,
        downloadUrl: build.downloadUrl,
      });
    }
  }
  return builds;
}

export const appVersionSection: KindSection = {
  content: contentSection(
    "appVersion",
    "// App builds the release channels deliver, uploaded from content/ (downloaded by the export, verified against the API's SHA-256).",
    (c) => [
      ["appId", `dm.getAppOutput({ name: ${tsString(String(c.content.properties?.appName))} }).id`],
      ["versionName", tsString(String(c.content.properties?.versionName))],
    ],
  ),
  read: {
    noun: "app build",
    needsPath: false,
    list: listBuilds,
    // There is no single-build GET: the build is found among its app's builds of that SHA-256.
    downloadUrlOf: async (client, c) =>
      (
        await client.releases
          .versions(String(c.properties?.appId), c.checksum ? [c.checksum.value] : undefined)
          .all()
      ).find((b) => b.id === c.id)?.downloadUrl,
  },
};
