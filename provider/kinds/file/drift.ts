/**
 * What the drift report reads of files: every file, labelled by its name and folder; fields by the declared
 * mapping (a file replaced in the portal shows as a changed sha512, under either id). A file no stack declares is not reported:
 * files are uploaded in the portal as much as by programs, and the exporter declares only those whose bytes
 * the API lets it download (export.ts; none where the API answers no download URL, its documented File schema).
 */
import type { DeviceFile } from "../../client";
import { str, type DriftFacet, type LiveObject } from "../../drift/driftKind";
import { liveStateOf } from "../../framework";
import { fileProperties } from "./properties";
import { inRecordedPlace } from "./replaced";

export const fileDrift: DriftFacet = {
  title: "Files",
  key: (r) => r.id,
  reportsUnmanaged: false,
  stateLabel: (r) => `"${str(r.outputs.filename ?? r.id)}"`,
  // Only a stack's files can be changed or gone: without one, the list is not read.
  // A stack's file gone by id is the one file now in its place, as refresh reads it (replaced.ts).
  read: async (org, managed) => {
    const files = managed.length ? await org.files() : [];
    const byId = new Set(files.map((f) => f.id));
    const replaced = managed.flatMap((r) => {
      const successor = byId.has(r.id) ? undefined : inRecordedPlace(files, r.outputs, r.id);
      return successor ? [{ ...liveFile(successor), key: r.id, auditIds: [r.id, successor.id] }] : [];
    });
    return [...files.map(liveFile), ...replaced];
  },
};

function liveFile(f: DeviceFile): LiveObject {
  return {
    key: f.id,
    label: `"${f.filename}" in ${f.location ?? "(no folder)"}`,
    fields: liveStateOf(fileProperties, f),
    auditIds: [f.id],
    names: [f.filename],
  };
}
