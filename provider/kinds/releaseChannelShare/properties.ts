/**
 * The ReleaseChannelShare kind's properties, declared once (framework/properties.ts): the channel and the other
 * organization's slug. The API cannot list a channel's shares, so none is read from a live object.
 */
import { z } from "zod";
import {
  uuid,
  carried,
  type PropertySpecs,
  type StateOf,
  defineIdentity,
  byProperties,
} from "../../framework";

export const releaseChannelShareProperties = {
  appId: { schema: uuid("appId"), change: "replace" },
  releaseChannelId: { schema: uuid("releaseChannelId"), change: "replace" },
  organizationSlug: {
    schema: z
      .string({ error: "organizationSlug must be the other organization's slug, e.g. acme-staging" })
      .trim()
      .min(1, { error: "organizationSlug must not be empty" }),
    change: "replace",
  },
  connection: carried.connection,
} satisfies PropertySpecs<never>;

export type ReleaseChannelShareProperties = typeof releaseChannelShareProperties;
export type ReleaseChannelShareState = StateOf<ReleaseChannelShareProperties>;

/**
 * Who the ReleaseChannelShare kind is: its key, type token, properties, natural key and claim, declared once for the
 * definition, the handler and the kind's other files.
 */
export const releaseChannelShareIdentity = defineIdentity({
  kind: "releaseChannelShare",
  type: "ReleaseChannelShare",
  naturalKey: true,
  properties: releaseChannelShareProperties,
  claim: {
    property: "organizationSlug",
    keys: byProperties(["appId", "releaseChannelId", "organizationSlug"]),
    describe: (p) =>
      `the share of channel ${String(p.releaseChannelId)} with "${String(p.organizationSlug)}"`,
  },
});
