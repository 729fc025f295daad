/**
 * The drift report's entries for the kinds of devices and content: tags, tag sets, files and videos on groups
 * and devices. Each reads from list pages where the API has them;
 * where it cannot show something, the entry says why, and the report lists such resources as not compared.
 */
import type { ResourceKind } from "../kindKeys";
import { nameSet, str, text, type LegacyDriftKind } from "./driftKind";

type ContentKind = Extract<ResourceKind, "tag" | "tagSet">;

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
};
