/**
 * Who the ReleaseChannelVersion kind is: its key, type token, properties, natural key and claim, declared once for the
 * definition, the handler and the kind's other files.
 */
import { defineIdentity, byProperties } from "../../framework";
import { releaseChannelVersionProperties } from "./properties";

export const releaseChannelVersionIdentity = defineIdentity({
  kind: "releaseChannelVersion",
  type: "ReleaseChannelVersion",
  naturalKey: false,
  properties: releaseChannelVersionProperties,
  claim: {
    property: "releaseChannelId",
    keys: byProperties(["appId", "releaseChannelId"]),
    describe: (p) => `the version of release channel ${String(p.releaseChannelId)}`,
  },
});
