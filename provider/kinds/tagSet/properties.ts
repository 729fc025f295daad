/**
 * The TagSet kind's properties, declared once (framework/properties.ts): which owner carries the tags, and the
 * whole set of them. The API shows an app's, file's or video's tags in its representation (a group's: not at
 * all), so the owner is the live object the set's tags are read from.
 */
import { z } from "zod";
import type { App, DeviceFile, TagOwnerType, Video } from "../../client";
import {
  uuid,
  carried,
  type PropertySpecs,
  type StateOf,
  defineIdentity,
  byProperties,
} from "../../framework";
import { tagDifference } from "../device/tags";
import { tagNames } from "../tag/properties";

export const OWNER_TYPES = ["group", "app", "file", "video"] as const;
export type OwnerType = (typeof OWNER_TYPES)[number];
export const pathOf = (owner: OwnerType): TagOwnerType => `${owner}s`;

/** What carries a set's tags where the API shows them. */
export type TagOwner = App | DeviceFile | Video;

/** The same set of tags: names without case, in any order. */
const tagsEqual = (a: unknown, b: unknown) =>
  Array.isArray(a) &&
  Array.isArray(b) &&
  tagDifference(a, b).attach.length === 0 &&
  tagDifference(a, b).detach.length === 0;

export const tagSetProperties = {
  ownerType: {
    description: "What carries the tags: group, app, file or video. Changing it replaces the set.",
    schema: z.enum(OWNER_TYPES, { error: `ownerType must be one of ${OWNER_TYPES.join(", ")}` }),
    change: "replace",
  },
  ownerId: {
    schema: uuid("ownerId"),
    change: "replace",
    description: "The group's, app's, file's or video's id. Changing it replaces the set.",
  },
  tags: {
    description: "The owner's tags, the whole set (names of catalogue tags, matched without case).",
    schema: tagNames("tags"),
    change: "update",
    fromLive: (owner: TagOwner) => owner.tags ?? [],
    equal: tagsEqual,
  },
  connection: carried.connection,
} satisfies PropertySpecs<TagOwner>;

export type TagSetProperties = typeof tagSetProperties;
export type TagSetState = StateOf<TagSetProperties>;

/**
 * Who the TagSet kind is: its key, type token, properties, natural key and claim, declared once for the
 * definition, the handler and the kind's other files.
 */
export const tagSetIdentity = defineIdentity({
  kind: "tagSet",
  type: "TagSet",
  naturalKey: true,
  properties: tagSetProperties,
  claim: {
    property: "ownerId",
    keys: byProperties(["ownerType", "ownerId"]),
    describe: (p) => `the tag set of ${String(p.ownerType)} ${String(p.ownerId)}`,
  },
});
