/**
 * Who the ReleaseChannelShare kind is: its key, type token, properties, natural key and claim, declared once for the
 * definition, the handler and the kind's other files.
 */
import { defineIdentity, byProperties } from "../../framework";
import { releaseChannelShareProperties } from "./properties";

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
