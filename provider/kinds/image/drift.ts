/**
 * What the drift report reads of images and custom 3D environments: the stack's own, by id (the API lists images
 * only by type), compared by name. Their content cannot be compared: the API answers no checksum for them, so
 * an image replaced in the portal under the same id is not seen. Objects no stack declares are not reported:
 * images and environments are uploaded in the portal as much as by programs, and the exporter declares only the
 * environments it can download (export.ts).
 */
import type { DriftFacet } from "../../drift/driftKind";
import { liveStateOf } from "../../framework";
import { custom3DEnvironmentProperties, imageProperties } from "./properties";

export const imageDrift: DriftFacet = {
  title: "Images",
  key: (r) => r.id,
  reportsUnmanaged: false,
  stateLabel: (r) => `"${String(r.outputs.filename ?? r.id)}"`,
  read: async (org, managed) =>
    (await org.imagesById(managed.map((r) => r.id))).map((image) => ({
      key: image.id,
      label: `"${image.originalFileName ?? image.id}" (${image.type})`,
      fields: liveStateOf(imageProperties, image),
      auditIds: [image.id],
      names: image.originalFileName ? [image.originalFileName] : [],
    })),
};

export const custom3DEnvironmentDrift: DriftFacet = {
  title: "Custom 3D environments",
  key: (r) => r.id,
  reportsUnmanaged: false,
  stateLabel: (r) => `"${String(r.outputs.filename ?? r.id)}"`,
  read: async (org, managed) =>
    (managed.length ? await org.custom3DEnvironments() : []).map((environment) => ({
      key: environment.id,
      label: `"${environment.objectName}"`,
      fields: liveStateOf(custom3DEnvironmentProperties, environment),
      auditIds: [environment.id],
      names: [environment.objectName],
    })),
};
