/** The ReleaseChannelShare kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework";
import { releaseChannelShareDrift } from "./drift";
import { releaseChannelShareSection } from "./export";
import { releaseChannelShareHandler } from "./handler";
import { releaseChannelShareIdentity } from "./properties";

export const releaseChannelShareKind = defineKind({
  ...releaseChannelShareIdentity,
  docs: {
    declares: "a channel shared with another organization",
    guide: "releases",
    inputs: {
      inputs: "`appId`, `releaseChannelId`, `organizationSlug`",
      inPlace: "—",
      replaces: "any change",
      outputsAdded: "",
    },
    adoption: { adoptId: "—", others: "shares the channel" },
  },
  outputs: [],
  handler: releaseChannelShareHandler,
  drift: releaseChannelShareDrift,
  export: releaseChannelShareSection,
});
