/**
 * The drift report's entries for the kinds of devices, content and releases: tags, tag sets, files and videos on
 * groups and devices, release-channel versions and shares. Each reads from list pages where the API has them;
 * where it cannot show something, the entry says why, and the report lists such resources as not compared.
 */
import type { ResourceKind } from "../kindKeys";
import { nameSet, str, text, type LegacyDriftKind } from "./driftKind";

type ContentKind = Extract<ResourceKind, "tag" | "tagSet" | "releaseChannelVersion" | "releaseChannelShare">;

/** A kind the API gives no way to read back: listed under "not compared" with the reason. */
function unreadable(
  noun: string,
  title: string,
  reason: string,
  label: (id: string) => string,
): LegacyDriftKind {
  return {
    title,
    noun,
    notCompared: reason,
    key: () => undefined,
    compared: {},
    stateLabel: (r) => label(r.id),
  };
}

export const contentKinds: Record<ContentKind, LegacyDriftKind> = {
  tag: {
    title: "Tags",
    noun: "tag",
    key: (r) => r.id,
    compared: { name: text },
    stateLabel: (r) => `tag "${str(r.outputs.name ?? r.id)}"`,
    read: async (org) =>
      (await org.tags()).map((t) => ({
        key: t.id,
        label: `"${t.name}"`,
        fields: { name: t.name },
        auditIds: [t.id],
        names: [t.name],
      })),
  },
  tagSet: {
    title: "Tags of groups, apps, files and videos",
    noun: "tagSet",
    key: (r) => `${str(r.outputs.ownerType)}/${str(r.outputs.ownerId)}`,
    compared: { tags: nameSet },
    // Carrying tags is not an object of its own: tags on something no stack declares a set for are not managed.
    reportsUnmanaged: false,
    stateLabel: (r) => `tags of ${str(r.outputs.ownerType)} ${str(r.outputs.ownerId)}`,
    uncompared: (r) =>
      r.outputs.ownerType === "group"
        ? "a group's representation in the API has no tags, so a group's tags cannot be read back"
        : undefined,
    concerns: (record) => /tags/i.test(record.action),
    read: async (org, managed) => {
      const types = new Set(managed.map((r) => r.outputs.ownerType));
      const owners = [
        ...(types.has("app") ? (await org.apps()).map((a) => ["app", a.id, a.name, a.tags] as const) : []),
        ...(types.has("file")
          ? (await org.files()).map((f) => ["file", f.id, f.filename, f.tags] as const)
          : []),
        ...(types.has("video")
          ? (await org.videos()).map((v) => ["video", v.id, v.name, v.tags] as const)
          : []),
      ];
      return owners.map(([type, id, name, tags]) => ({
        key: `${type}/${id}`,
        label: `tags of ${type} "${name}": ${(tags ?? []).join(", ") || "none"}`,
        fields: { tags: tags ?? [] },
        auditIds: [id],
        names: [name],
      }));
    },
  },
  releaseChannelVersion: {
    title: "Release channel versions",
    noun: "releaseChannelVersion",
    key: (r) => `${str(r.outputs.appId)}/${str(r.outputs.releaseChannelId)}`,
    compared: { versionId: text, version: text },
    // Every channel delivers some version; one no stack pins is not managed.
    reportsUnmanaged: false,
    stateLabel: (r) =>
      `release channel ${str(r.outputs.channelName ?? r.outputs.releaseChannelId)} at version ${str(r.outputs.version)}`,
    // Records name the channel; a promotion is one that changed its version.
    concerns: (record) => /version/i.test(record.description),
    read: async (org, managed) => {
      if (!managed.length) return [];
      return (await org.releaseChannels()).map((rc) => ({
        key: `${rc.app.id}/${rc.id}`,
        label: `"${rc.app.name} / ${rc.name}" delivers ${rc.version.version ?? rc.version.id}`,
        fields: { versionId: rc.version.id, version: rc.version.version ?? null },
        auditIds: [rc.id],
        names: [`${rc.app.name} / ${rc.name}`],
      }));
    },
  },
  releaseChannelShare: unreadable(
    "releaseChannelShare",
    "Release channel shares",
    "the API cannot list a channel's shares, so an unshare made in the portal cannot be seen",
    (id) => `share ${id}`,
  ),
};
