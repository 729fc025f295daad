/** The Device kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework";
import { deviceDrift } from "./drift";
import { deviceSection } from "./export";
import { deviceHandler } from "./handler";
import { deviceIdentity } from "./properties";

export const deviceKind = defineKind({
  ...deviceIdentity,
  outputs: ["deviceModel"],
  handler: deviceHandler,
  drift: deviceDrift,
  export: deviceSection,
});
