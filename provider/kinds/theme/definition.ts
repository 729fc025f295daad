/** The Theme kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework";
import { themeDrift } from "./drift";
import { themeSection } from "./export";
import { themeHandler } from "./handler";
import { themeIdentity } from "./properties";

export const themeKind = defineKind({
  ...themeIdentity,
  docs: {
    declares: "a custom menu colour theme",
    guide: "experiences",
    inputs: {
      inputs:
        "`name`, `background1`, `background2`, `text`, `accent1`, `accent2`, `accent3` (each `#RRGGBB`)",
      inPlace: "everything",
      replaces: "—",
      outputsAdded: "`createdAt`, `updatedAt`",
    },
    adoption: { adoptId: "the object's id", others: "" },
  },
  outputs: ["createdAt", "updatedAt"],
  handler: themeHandler,
  drift: themeDrift,
  export: themeSection,
});
