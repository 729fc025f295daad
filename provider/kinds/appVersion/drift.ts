/**
 * What the drift report reads of app builds: the builds of the apps a stack's AppVersions name (builds are listed
 * per app), labelled by version and app; fields by the declared mapping (a build of another hash under the same
 * id shows as a changed sha256, one gone as gone). A build no stack declares is not reported: builds are
 * uploaded in the portal and by the vendor's CLI as much as by programs, and the exporter declares only the
 * builds channels deliver that it can download (export.ts).
 */
import { str, type DriftFacet } from "../../drift/driftKind";
import { liveStateOf } from "../../framework";
import { appVersionProperties } from "./properties";

export const appVersionDrift: DriftFacet = {
  title: "App versions",
  key: (r) => r.id,
  reportsUnmanaged: false,
  stateLabel: (r) => `"${str(r.outputs.versionName ?? r.id)}" of app ${str(r.outputs.appId)}`,
  labelReferences: (r) => [{ id: str(r.outputs.appId), from: { list: "apps" } }],
  read: async (org, managed) => {
    const appIds = [...new Set(managed.map((r) => r.outputs.appId).filter((id) => typeof id === "string"))];
    const appNames = new Map(appIds.length ? (await org.apps()).map((a) => [a.id, a.name]) : []);
    const perApp = await Promise.all(
      appIds.map(async (appId) =>
        (await org.appVersions(appId)).map((b) => ({
          key: b.id,
          label: `"${b.version ?? b.id}" of ${appNames.has(appId) ? `"${appNames.get(appId)}"` : `app ${appId}`}`,
          fields: liveStateOf(appVersionProperties, b),
          auditIds: [b.id],
          names: [b.version ?? b.id],
        })),
      ),
    );
    return perApp.flat();
  },
};
