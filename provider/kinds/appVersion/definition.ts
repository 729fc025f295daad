/** The AppVersion kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework/kind";
import { appVersionDrift } from "./drift";
import { appVersionSection } from "./export";
import { appVersionHandler } from "./handler";
import { appVersionProperties } from "./properties";

export const appVersionKind = defineKind({
  kind: "appVersion",
  type: "AppVersion",
  // Builds of one hash are taken over, not made twice; nothing is deleted, so no delete-first replacement.
  naturalKey: false,
  properties: appVersionProperties,
  outputs: ["code", "sizeBytes", "status", "createdAt"],
  handler: appVersionHandler,
  logsOnResource: true,
  drift: appVersionDrift,
  export: appVersionSection,
});
