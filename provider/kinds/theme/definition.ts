/** The Theme kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework/kind";
import { themeDrift } from "./drift";
import { themeSection } from "./export";
import { themeHandler } from "./handler";
import { themeProperties } from "./properties";

export const themeKind = defineKind({
  kind: "theme",
  type: "Theme",
  naturalKey: false,
  properties: themeProperties,
  outputs: ["createdAt", "updatedAt"],
  handler: themeHandler,
  drift: themeDrift,
  export: themeSection,
});
