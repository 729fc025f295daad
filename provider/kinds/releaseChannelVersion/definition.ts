/** The ReleaseChannelVersion kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework";
import { releaseChannelVersionDrift } from "./drift";
import { releaseChannelVersionSection } from "./export";
import { releaseChannelVersionHandler } from "./handler";
import { releaseChannelVersionIdentity } from "./properties";

export const releaseChannelVersionKind = defineKind({
  ...releaseChannelVersionIdentity,
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
