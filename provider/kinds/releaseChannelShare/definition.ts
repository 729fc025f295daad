/** The ReleaseChannelShare kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework/kind";
import { releaseChannelShareDrift } from "./drift";
import { releaseChannelShareSection } from "./export";
import { releaseChannelShareHandler } from "./handler";
import { releaseChannelShareProperties } from "./properties";

export const releaseChannelShareKind = defineKind({
  kind: "releaseChannelShare",
  type: "ReleaseChannelShare",
  naturalKey: true,
  properties: releaseChannelShareProperties,
  outputs: [],
  handler: releaseChannelShareHandler,
  drift: releaseChannelShareDrift,
  export: releaseChannelShareSection,
});
