/** Device migrations are not exported: what a migration did is already true of the other organization. */
import type { KindSection } from "../../export/layout";

export const deviceMigrationSection: KindSection = {
  notExported:
    "a migration is an event that already happened: the migrated device is in the other organization",
};
