/** The AppBundle kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework";
import { appBundleDrift } from "./drift";
import { appBundleSection } from "./export";
import { appBundleHandler } from "./handler";
import { appBundleIdentity } from "./properties";

export const appBundleKind = defineKind({
  ...appBundleIdentity,
  outputs: ["status", "createdAt", "updatedAt"],
  handler: appBundleHandler,
  logsOnResource: true,
  drift: appBundleDrift,
  export: appBundleSection,
});
