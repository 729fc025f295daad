/**
 * What the drift report reads of channel versions: every channel of every app (once a stack pins one), its
 * version by the declared mapping and, beside it, the version's name, which the report shows as a reviewer reads it.
 * A channel shows the version it delivers, never the bundle it came from: as the resource's read does, a declared
 * bundle is taken to hold while the channel still delivers the bundle's version, and to be gone (null) once the
 * channel delivers another, so that the report names the bundle the stack declared beside the builds.
 */
import { referencesUnder, str, type DriftFacet } from "../../drift/driftKind";
import { liveStateOf } from "../../framework";
import { releaseChannelVersionProperties } from "./properties";

export const releaseChannelVersionDrift: DriftFacet = {
  title: "Release channel versions",
  key: (r) => `${str(r.outputs.appId)}/${str(r.outputs.releaseChannelId)}`,
  // The version's name is an output, not a property: a promotion shows as "2.4.0" → "2.4.1" beside the two ids.
  comparedOutputs: ["version", "bundleId"],
  // Every channel delivers some version; one no stack pins is not managed.
  reportsUnmanaged: false,
  stateLabel: (r) =>
    `release channel ${str(r.outputs.channelName ?? r.outputs.releaseChannelId)} at version ${str(r.outputs.version)}`,
  references: (field, value, r) =>
    referencesUnder(field, value, {
      versionId: { list: "builds", appId: str(r.outputs.appId) },
      bundleId: { list: "bundles", appId: str(r.outputs.appId) },
    }),
  labelReferences: (r) => [{ id: str(r.outputs.releaseChannelId), from: { list: "releaseChannels" } }],
  // Records name the channel; a promotion is one that changed its version.
  concerns: (record) => /version/i.test(record.description),
  read: async (org, managed) => {
    if (!managed.length) return [];
    const bundleOf = (key: string, versionId: string) =>
      managed.find(
        (r) =>
          releaseChannelVersionDrift.key(r) === key &&
          typeof r.outputs.bundleId === "string" &&
          r.outputs.versionId === versionId,
      )?.outputs.bundleId ?? null;
    return (await org.releaseChannels()).map((rc) => ({
      key: `${rc.app.id}/${rc.id}`,
      label: `"${rc.app.name} / ${rc.name}" delivers ${rc.version.version ?? rc.version.id}`,
      fields: {
        ...liveStateOf(releaseChannelVersionProperties, rc),
        version: rc.version.version ?? null,
        bundleId: bundleOf(`${rc.app.id}/${rc.id}`, rc.version.id),
      },
      auditIds: [rc.id],
      names: [`${rc.app.name} / ${rc.name}`],
    }));
  },
};
