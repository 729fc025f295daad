/** The ReleaseChannelVersion kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework";
import { releaseChannelVersionDrift } from "./drift";
import { releaseChannelVersionSection } from "./export";
import { releaseChannelVersionHandler } from "./handler";
import { releaseChannelVersionIdentity } from "./properties";

export const releaseChannelVersionKind = defineKind({
  ...releaseChannelVersionIdentity,
  docs: {
    declares: "the version or bundle a channel delivers, with an optional rollout gate",
    guide: "releases",
    inputs: {
      inputs: "`appId`, `releaseChannelId`, `versionId` or `bundleId`, optional `rollout` gate",
      inPlace: "the version",
      replaces: "channel",
      outputsAdded:
        "`version`, `channelName`, `previousVersion`, `rolloutStatus`, `rolloutSummary`, `rolloutVersionId`",
    },
    adoption: { adoptId: "—", others: "moves the existing channel to the declared version" },
  },
  outputs: [
    "version",
    "channelName",
    "previousVersion",
    "rolloutStatus",
    "rolloutSummary",
    "rolloutVersionId",
  ],
  handler: releaseChannelVersionHandler,
  drift: releaseChannelVersionDrift,
  export: releaseChannelVersionSection,
});
