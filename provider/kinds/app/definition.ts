/** The App kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework/kind";
import { appDrift } from "./drift";
import { appSection } from "./export";
import { appHandler } from "./handler";
import { appProperties } from "./properties";

export const appKind = defineKind({
  kind: "app",
  type: "App",
  naturalKey: false,
  properties: appProperties,
  outputs: ["createdAt", "updatedAt"],
  handler: appHandler,
  logsOnResource: true,
  drift: appDrift,
  export: appSection,
});
