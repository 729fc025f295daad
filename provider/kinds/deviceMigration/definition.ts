/** The DeviceMigration kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework";
import { deviceMigrationDrift } from "./drift";
import { deviceMigrationSection } from "./export";
import { deviceMigrationHandler } from "./handler";
import { deviceMigrationIdentity } from "./properties";

export const deviceMigrationKind = defineKind({
  ...deviceMigrationIdentity,
  outputs: ["migratedAt"],
  handler: deviceMigrationHandler,
  logsOnResource: true,
  drift: deviceMigrationDrift,
  export: deviceMigrationSection,
});
