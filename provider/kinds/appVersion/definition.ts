/** The AppVersion kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework";
import { appVersionDrift } from "./drift";
import { appVersionSection } from "./export";
import { appVersionHandler } from "./handler";
import { appVersionIdentity } from "./properties";

export const appVersionKind = defineKind({
  ...appVersionIdentity,
  outputs: ["code", "sizeBytes", "status", "createdAt"],
  handler: appVersionHandler,
  logsOnResource: true,
  drift: appVersionDrift,
  export: appVersionSection,
});
