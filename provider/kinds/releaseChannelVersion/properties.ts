/**
 * The ReleaseChannelVersion kind's properties, declared once (framework/properties.ts): the channel, the version
 * or bundle it delivers, and the rollout gate. Everything else of the kind reads them from here.
 */
import type { ReleaseChannel as ApiChannel } from "../../client";
import {
  deepEqual,
  uuid,
  carried,
  type PropertySpecs,
  type StateOf,
  defineIdentity,
  byProperties,
} from "../../framework";
import { rolloutSchema } from "./rolloutGate";

/** Left out, a property is not compared: `versionId` is what a declared bundle delivers, and the reverse. */
const unlessUndeclared = (recorded: unknown, declared: unknown) =>
  declared === undefined || deepEqual(recorded, declared);

export const releaseChannelVersionProperties = {
  appId: { schema: uuid("appId"), change: "replace" },
  releaseChannelId: { schema: uuid("releaseChannelId"), change: "replace" },
  versionId: {
    schema: uuid("versionId").optional(),
    change: "update",
    equal: unlessUndeclared,
    // The channel shows the version it delivers, never the bundle it came from.
    fromLive: (live: ApiChannel) => live.version.id,
  },
  bundleId: { schema: uuid("bundleId").optional(), change: "update", equal: unlessUndeclared },
  rollout: { schema: rolloutSchema, change: "update" },
  connection: carried.connection,
} satisfies PropertySpecs<ApiChannel>;

export type ReleaseChannelVersionProperties = typeof releaseChannelVersionProperties;
export type ReleaseChannelVersionState = StateOf<ReleaseChannelVersionProperties>;

/**
 * Who the ReleaseChannelVersion kind is: its key, type token, properties, natural key and claim, declared once for the
 * definition, the handler and the kind's other files.
 */
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
