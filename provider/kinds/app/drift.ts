/**
 * What the drift report reads of apps: every app, labelled by its name; fields by the declared mapping. An app no
 * stack declares is not reported: apps are made by uploads in the portal as much as by programs, and the exporter
 * declares none (export.ts), so every exported organization would otherwise report each of its apps.
 */
import { str, type DriftFacet } from "../../drift/driftKind";
import { liveStateOf } from "../../framework";
import { appProperties } from "./properties";

export const appDrift: DriftFacet = {
  title: "Apps",
  key: (r) => r.id,
  reportsUnmanaged: false,
  stateLabel: (r) => `"${str(r.outputs.name ?? r.id)}"`,
  // Only a stack's apps can be changed or gone: without one, the list is not read.
  read: async (org, managed) =>
    (managed.length ? await org.apps() : []).map((a) => ({
      key: a.id,
      label: `"${a.name}"`,
      fields: liveStateOf(appProperties, a),
      auditIds: [a.id],
      names: [a.name],
    })),
};
