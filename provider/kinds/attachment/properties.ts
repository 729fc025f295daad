/**
 * The properties of the attachment kinds, declared once: an owner (a group, a device) and what is attached to it
 * (a release channel, a file, a video), both replacing, plus adoption and connection. An attachment is its pair
 * and nothing else: no property has `fromLive`, so the drift report compares nothing beyond the pair its key
 * already matches, and refresh sees only whether the pair is there.
 */
import { z } from "zod";
import {
  uuid,
  carried,
  type PropertySpec,
  byProperties,
  type ClaimSpec,
  defineIdentity,
} from "../../framework";

/** The owners an attachment can have, by the property that names them. */
export const OWNERS = {
  groupId: { noun: "group" },
  deviceId: { noun: "device" },
} as const;
export type OwnerKey = keyof typeof OWNERS;

/** Attachment ids are `<owner id>/<attached id>`, so an existing attachment can be named and adopted. */
export const attachmentId = (ownerId: string, attachedId: string) => `${ownerId}/${attachedId}`;

export function parseAttachmentId(id: string): { ownerId: string; attachedId: string } | undefined {
  const [ownerId, attachedId, ...rest] = id.split("/");
  return ownerId && attachedId && rest.length === 0 ? { ownerId, attachedId } : undefined;
}

/** What a file or video attachment names its item by. */
export type ContentKey = "fileId" | "videoId";
export const contentNoun = (key: ContentKey) => (key === "fileId" ? "file" : "video");
/** The kind that attaches a file or video to a group (where a grouped device's own content goes instead). */
export const groupContentType = (key: ContentKey) => (key === "fileId" ? "GroupFile" : "GroupVideo");

/** An attachment as the drift report reads it: the owner's id and the attached item's id. */
export interface LiveAttachment {
  ownerId: string;
  attachedId: string;
}

/** The declared properties of an attachment: owner and attached (both replace), adoption and connection. */
export type AttachmentProperties<Owner extends string, Attached extends string> = {
  [K in Owner | Attached]: PropertySpec<LiveAttachment, string>;
} & {
  adoptId: PropertySpec<LiveAttachment, string | undefined>;
  connection: typeof carried.connection;
};

/** The declared state of one attachment, named alike for every pairing. */
export interface AttachmentState {
  ownerId: string;
  attachedId: string;
  adoptId?: string;
}

/**
 * One pairing's declaration: its property names, its properties, and how its declared state names the pair. The
 * shared handler is generic over the properties; `stateOf` reads the kind's own typed state (checked against it
 * where the kind's handler is typed, in definitions.ts), so the handler reads no property by a computed name.
 */
export interface AttachmentDeclaration<Owner extends OwnerKey, Attached extends string> {
  ownerKey: Owner;
  attachedKey: Attached;
  properties: AttachmentProperties<Owner, Attached>;
  stateOf(state: Record<Owner | Attached, string> & { adoptId?: string }): AttachmentState;
}

function attachment<const Owner extends OwnerKey, const Attached extends string>(
  ownerKey: Owner,
  attachedKey: Attached,
): AttachmentDeclaration<Owner, Attached> {
  const adoptIdError = `adoptId must be the attachment's id, <${ownerKey}>/<${attachedKey}>`;
  const replacing = (key: string, description: string): PropertySpec<LiveAttachment, string> => ({
    schema: uuid(key),
    change: "replace",
    description,
  });
  // TypeScript types an object whose keys are of a generic type as an index signature: the one assertion.
  const pairKeys = {
    [ownerKey]: replacing(
      ownerKey,
      `The ${OWNERS[ownerKey].noun}'s id; changing it replaces the attachment.`,
    ),
    [attachedKey]: replacing(attachedKey, `The attached item's id; changing it replaces the attachment.`),
  } as Record<Owner | Attached, PropertySpec<LiveAttachment, string>>;
  return {
    ownerKey,
    attachedKey,
    properties: {
      ...pairKeys,
      adoptId: {
        schema: z
          .string({ error: adoptIdError })
          .refine((id) => parseAttachmentId(id) !== undefined, { error: adoptIdError })
          .transform((id) => id.toLowerCase())
          .optional(),
        change: "createOnly",
      },
      connection: carried.connection,
    },
    stateOf: (state) => ({
      ownerId: state[ownerKey],
      attachedId: state[attachedKey],
      adoptId: state.adoptId,
    }),
  };
}

export const groupReleaseChannelAttachment = attachment("groupId", "releaseChannelId");
export const deviceReleaseChannelAttachment = attachment("deviceId", "releaseChannelId");
export const groupFileAttachment = attachment("groupId", "fileId");
export const groupVideoAttachment = attachment("groupId", "videoId");
export const deviceFileAttachment = attachment("deviceId", "fileId");
export const deviceVideoAttachment = attachment("deviceId", "videoId");

export type GroupReleaseChannelProperties = typeof groupReleaseChannelAttachment.properties;
export type DeviceReleaseChannelProperties = typeof deviceReleaseChannelAttachment.properties;
export type GroupFileProperties = typeof groupFileAttachment.properties;
export type GroupVideoProperties = typeof groupVideoAttachment.properties;
export type DeviceFileProperties = typeof deviceFileAttachment.properties;
export type DeviceVideoProperties = typeof deviceVideoAttachment.properties;

/**
 * Who the six attachment kinds are: each one's key, type token, properties and claim (an owner holds a thing
 * once: every attachment is a natural key, its owner and attached ids), declared once for the definitions and
 * the shared handler.
 */

/** An attachment named by its owner and what it attaches: "file <id> on <owner id>". */
const pairClaim = (owner: string, attached: string, noun: string): ClaimSpec => ({
  property: attached,
  keys: byProperties([owner, attached]),
  describe: (p) => `${noun} ${String(p[attached])} on ${String(p[owner])}`,
});

export const groupReleaseChannelIdentity = defineIdentity({
  kind: "groupReleaseChannel",
  type: "GroupReleaseChannel",
  naturalKey: true,
  properties: groupReleaseChannelAttachment.properties,
  claim: pairClaim("groupId", "releaseChannelId", "release channel"),
});

export const deviceReleaseChannelIdentity = defineIdentity({
  kind: "deviceReleaseChannel",
  type: "DeviceReleaseChannel",
  naturalKey: true,
  properties: deviceReleaseChannelAttachment.properties,
  claim: pairClaim("deviceId", "releaseChannelId", "release channel"),
});

export const groupFileIdentity = defineIdentity({
  kind: "groupFile",
  type: "GroupFile",
  naturalKey: true,
  properties: groupFileAttachment.properties,
  claim: pairClaim("groupId", "fileId", "file"),
});

export const groupVideoIdentity = defineIdentity({
  kind: "groupVideo",
  type: "GroupVideo",
  naturalKey: true,
  properties: groupVideoAttachment.properties,
  claim: pairClaim("groupId", "videoId", "video"),
});

export const deviceFileIdentity = defineIdentity({
  kind: "deviceFile",
  type: "DeviceFile",
  naturalKey: true,
  properties: deviceFileAttachment.properties,
  claim: pairClaim("deviceId", "fileId", "file"),
});

export const deviceVideoIdentity = defineIdentity({
  kind: "deviceVideo",
  type: "DeviceVideo",
  naturalKey: true,
  properties: deviceVideoAttachment.properties,
  claim: pairClaim("deviceId", "videoId", "video"),
});
