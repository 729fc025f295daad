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

export const appVersionSection: KindSection = {
  content: contentSection(
    "appVersion",
    "// App builds the release channels deliver, uploaded from content/ (downloaded by the export, verified against the API's SHA-256).",
    (c) => [
      ["appId", `dm.getAppOutput({ name: ${tsString(String(c.content.properties?.appName))} }).id`],
      ["versionName", tsString(String(c.content.properties?.versionName))],
    ],
  ),
};
