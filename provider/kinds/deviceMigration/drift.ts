/** Device migrations in the drift report: listed as not compared, since a migration is not an object to read. */
import { str, type DriftFacet } from "../../drift/driftKind";

export const deviceMigrationDrift: DriftFacet = {
  title: "Device migrations",
  notCompared: "a migration is something done to a device, not an object of this organization",
  key: () => undefined,
  stateLabel: (r) => `device ${str(r.outputs.deviceId ?? r.id)}`,
};
