/** The DeviceMigration kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework";
import { deviceMigrationDrift } from "./drift";
import { deviceMigrationSection } from "./export";
import { deviceMigrationHandler } from "./handler";
import { deviceMigrationIdentity } from "./properties";

export const deviceMigrationKind = defineKind({
  ...deviceMigrationIdentity,
  docs: {
    declares: "a device handed over to another organization",
    guide: "devices",
    inputs: {
      inputs: "`deviceId`, `organizationSlug` (target), `groupId` (optional, in the target org)",
      inPlace: "—",
      replaces: "any change",
      outputsAdded: "`migratedAt`",
    },
    adoption: { adoptId: "—", others: "an action: migrates the device" },
  },
  outputs: ["migratedAt"],
  handler: deviceMigrationHandler,
  logsOnResource: true,
  drift: deviceMigrationDrift,
  export: deviceMigrationSection,
});
