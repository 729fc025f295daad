/** The DeviceMigration kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework/kind";
import { deviceMigrationDrift } from "./drift";
import { deviceMigrationSection } from "./export";
import { deviceMigrationHandler } from "./handler";
import { migrationProperties } from "./properties";

export const deviceMigrationKind = defineKind({
  kind: "deviceMigration",
  type: "DeviceMigration",
  naturalKey: false,
  properties: migrationProperties,
  outputs: ["migratedAt"],
  handler: deviceMigrationHandler,
  logsOnResource: true,
  drift: deviceMigrationDrift,
  export: deviceMigrationSection,
});
