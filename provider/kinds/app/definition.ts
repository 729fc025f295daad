/** The App kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework";
import { appDrift } from "./drift";
import { appSection } from "./export";
import { appHandler } from "./handler";
import { appIdentity } from "./properties";
import { appNamesLookedUp } from "./lookups";

export const appKind = defineKind({
  ...appIdentity,
  docs: {
    declares: "an app of the organization: name, description, headset models",
    guide: "releases",
    inputs: {
      inputs: "`name`, `description` (optional), `deviceModelIds` (optional; set at create only)",
      inPlace: "name, description",
      replaces: "`deviceModelIds` (with a new `name`)",
      outputsAdded: "`createdAt`, `updatedAt`",
    },
    adoption: { adoptId: "the object's id", others: "" },
  },
  outputs: ["createdAt", "updatedAt"],
  namesLookedUp: appNamesLookedUp,
  handler: appHandler,
  logsOnResource: true,
  drift: appDrift,
  export: appSection,
});
