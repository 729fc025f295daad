/**
 * What the drift report reads of app bundles: each bundle a stack declares, by id (the API lists bundles per app
 * only, and a bundle's files need a read of their own), labelled by its label; fields by the declared mapping (a
 * label changed in the portal shows as a changed label). A bundle no stack declares is not reported: bundles are
 * made in the portal as much as by programs, and the exporter declares none (export.ts).
 */
import { referencesUnder, str, type DriftFacet } from "../../drift/driftKind";
import { liveStateOf } from "../../framework";
import { readAppBundle } from "./live";
import { appBundleProperties } from "./properties";

export const appBundleDrift: DriftFacet = {
  title: "App bundles",
  key: (r) => r.id,
  reportsUnmanaged: false,
  stateLabel: (r) => (str(r.outputs.label) ? `"${str(r.outputs.label)}"` : r.id),
  references: (field, value, r) =>
    referencesUnder(field, value, { versionId: { list: "builds", appId: str(r.outputs.appId) } }),
  read: async (org, managed) =>
    (
      await org.byIds(
        "app-bundles",
        managed.map((r) => r.id),
        readAppBundle,
      )
    ).map((b) => ({
      key: b.id,
      label: b.label ? `"${b.label}"` : b.id,
      fields: liveStateOf(appBundleProperties, b),
      auditIds: [b.id],
      names: b.label ? [b.label] : [],
    })),
};
