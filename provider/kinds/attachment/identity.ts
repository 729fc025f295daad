/**
 * Who the six attachment kinds are: each one's key, type token, properties and claim (an owner holds a thing
 * once: every attachment is a natural key, its owner and attached ids), declared once for the definitions and
 * the shared handler.
 */
import { byProperties, type ClaimSpec, defineIdentity } from "../../framework";
import {
  deviceFileAttachment,
  deviceReleaseChannelAttachment,
  deviceVideoAttachment,
  groupFileAttachment,
  groupReleaseChannelAttachment,
  groupVideoAttachment,
} from "./properties";

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
