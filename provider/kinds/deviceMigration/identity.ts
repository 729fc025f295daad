/**
 * Who the DeviceMigration kind is: its key, type token, properties, natural key and claim, declared once for the
 * definition, the handler and the kind's other files.
 */
import { defineIdentity } from "../../framework";
import { migrationProperties } from "./properties";

export const deviceMigrationIdentity = defineIdentity({
  kind: "deviceMigration",
  type: "DeviceMigration",
  naturalKey: false,
  properties: migrationProperties,
  // A migration is something done to a device (held by the device's own resource), not an object of its own.
  claim: null,
});
