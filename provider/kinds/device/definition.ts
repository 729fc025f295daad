/** The Device kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework/kind";
import { deviceDrift } from "./drift";
import { deviceSection } from "./export";
import { deviceHandler } from "./handler";
import { deviceProperties } from "./properties";

export const deviceKind = defineKind({
  kind: "device",
  type: "Device",
  naturalKey: false,
  properties: deviceProperties,
  outputs: ["deviceModel"],
  handler: deviceHandler,
  drift: deviceDrift,
  export: deviceSection,
});
