/**
 * What the drift report reads of videos: every video, labelled by its name and file name; fields by the declared
 * mapping (content replaced shows as a changed sha512, a rename or new rendering as those fields). A video no
 * stack declares is not reported: videos are uploaded in the portal as much as by programs, and the exporter
 * declares only those whose bytes the API lets it download (export.ts; none where the API answers no download
 * URL, its documented Video schema).
 */
import { str, type DriftFacet } from "../../drift/driftKind";
import { liveStateOf } from "../../framework";
import { videoProperties } from "./properties";

export const videoDrift: DriftFacet = {
  title: "Videos",
  key: (r) => r.id,
  reportsUnmanaged: false,
  stateLabel: (r) => `"${str(r.outputs.name ?? r.outputs.filename ?? r.id)}"`,
  // Only a stack's videos can be changed or gone: without one, the list is not read.
  read: async (org, managed) =>
    (managed.length ? await org.videos() : []).map((v) => ({
      key: v.id,
      label: `"${v.name}" (${v.filename})`,
      fields: liveStateOf(videoProperties, v),
      auditIds: [v.id],
      names: [v.name, v.filename],
    })),
};
