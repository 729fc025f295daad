/** What the drift report says of shares: the API cannot list them, so they are not compared. */
import type { DriftFacet } from "../../drift/driftKind";

export const releaseChannelShareDrift: DriftFacet = {
  title: "Release channel shares",
  notCompared: "the API cannot list a channel's shares, so an unshare made in the portal cannot be seen",
  key: () => undefined,
  stateLabel: (r) => `share ${r.id}`,
};
