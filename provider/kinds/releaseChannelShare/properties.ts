/**
 * The ReleaseChannelShare kind's properties, declared once (framework/properties.ts): the channel and the other
 * organization's slug. The API cannot list a channel's shares, so none is read from a live object.
 */
import { z } from "zod";
import { uuid, carried, type PropertySpecs, type StateOf } from "../../framework";

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
