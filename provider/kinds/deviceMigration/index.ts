/** What the package exports of the DeviceMigration kind: the resource. */
export { DeviceMigration, type DeviceMigrationArgs } from "./resource";
