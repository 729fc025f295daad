/** The App kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework";
import { appDrift } from "./drift";
import { appSection } from "./export";
import { appHandler } from "./handler";
import { appIdentity } from "./properties";
import { appNamesLookedUp } from "./lookups";

export const appKind = defineKind({
  ...appIdentity,
  outputs: ["createdAt", "updatedAt"],
  namesLookedUp: appNamesLookedUp,
  handler: appHandler,
  logsOnResource: true,
  drift: appDrift,
  export: appSection,
});
