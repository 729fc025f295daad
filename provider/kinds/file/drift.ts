/**
 * What the drift report reads of files: every file, labelled by its name and folder; fields by the declared
 * mapping (a file replaced in the portal shows as a changed sha512). A file no stack declares is not reported:
 * files are uploaded in the portal as much as by programs, and the exporter declares only those whose bytes
 * the API lets it download (export.ts; none where the API answers no download URL, its documented File schema).
 */
import { str, type DriftFacet } from "../../drift/driftKind";
import { liveStateOf } from "../../framework/properties";
import { fileProperties } from "./properties";

export const fileDrift: DriftFacet = {
  title: "Files",
  key: (r) => r.id,
  reportsUnmanaged: false,
  stateLabel: (r) => `"${str(r.outputs.filename ?? r.id)}"`,
  // Only a stack's files can be changed or gone: without one, the list is not read.
  read: async (org, managed) =>
    (managed.length ? await org.files() : []).map((f) => ({
      key: f.id,
      label: `"${f.filename}" in ${f.location ?? "(no folder)"}`,
      fields: liveStateOf(fileProperties, f),
      auditIds: [f.id],
      names: [f.filename],
    })),
};
