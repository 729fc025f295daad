/** The Theme kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework";
import { themeDrift } from "./drift";
import { themeSection } from "./export";
import { themeHandler } from "./handler";
import { themeIdentity } from "./properties";

export const themeKind = defineKind({
  ...themeIdentity,
  outputs: ["createdAt", "updatedAt"],
  handler: themeHandler,
  drift: themeDrift,
  export: themeSection,
});
