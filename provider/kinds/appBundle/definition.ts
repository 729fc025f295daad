/** The AppBundle kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework/kind";
import { appBundleDrift } from "./drift";
import { appBundleSection } from "./export";
import { appBundleHandler } from "./handler";
import { appBundleProperties } from "./properties";

export const appBundleKind = defineKind({
  kind: "appBundle",
  type: "AppBundle",
  // Any number of bundles of one build may exist: no natural key (a replacement makes the new one first).
  naturalKey: false,
  properties: appBundleProperties,
  outputs: ["status", "createdAt", "updatedAt"],
  handler: appBundleHandler,
  logsOnResource: true,
  drift: appBundleDrift,
  export: appBundleSection,
});
