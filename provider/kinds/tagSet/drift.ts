/**
 * What the drift report reads of tag sets: the tags of the apps, files and videos the stacks' sets name; fields
 * by the declared mapping. A group's set is not compared: its representation in the API has no tags.
 */
import { str, type DriftFacet } from "../../drift/driftKind";
import { liveStateOf } from "../../framework";
import { tagSetProperties, type TagOwner } from "./properties";

/** The list that names an owner of each type. */
const OWNER_LISTS = new Map<unknown, "apps" | "files" | "videos" | "groups">([
  ["app", "apps"],
  ["file", "files"],
  ["video", "videos"],
  ["group", "groups"],
]);

export const tagSetDrift: DriftFacet = {
  title: "Tags of groups, apps, files and videos",
  key: (r) => `${str(r.outputs.ownerType)}/${str(r.outputs.ownerId)}`,
  // Carrying tags is not an object of its own: tags on something no stack declares a set for are not managed.
  reportsUnmanaged: false,
  stateLabel: (r) => `tags of ${str(r.outputs.ownerType)} ${str(r.outputs.ownerId)}`,
  labelReferences: (r) => {
    const list = OWNER_LISTS.get(r.outputs.ownerType);
    return list ? [{ id: str(r.outputs.ownerId), from: { list } }] : [];
  },
  uncompared: (r) =>
    r.outputs.ownerType === "group"
      ? "a group's representation in the API has no tags, so a group's tags cannot be read back"
      : undefined,
  concerns: (record) => /tags/i.test(record.action),
  read: async (org, managed) => {
    const types = new Set(managed.map((r) => r.outputs.ownerType));
    const owners: { type: string; name: string; owner: TagOwner }[] = [
      ...(types.has("app") ? (await org.apps()).map((a) => ({ type: "app", name: a.name, owner: a })) : []),
      ...(types.has("file")
        ? (await org.files()).map((f) => ({ type: "file", name: f.filename, owner: f }))
        : []),
      ...(types.has("video")
        ? (await org.videos()).map((v) => ({ type: "video", name: v.name, owner: v }))
        : []),
    ];
    return owners.map(({ type, name, owner }) => {
      const fields = liveStateOf(tagSetProperties, owner);
      return {
        key: `${type}/${owner.id}`,
        label: `tags of ${type} "${name}": ${fields.tags.join(", ") || "none"}`,
        fields,
        auditIds: [owner.id],
        names: [name],
      };
    });
  },
};
