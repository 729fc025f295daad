/**
 * The one door into the framework: what a kind (and the rest of the provider outside `framework/`) may use of it.
 * Files inside `framework/` import each other directly, never this file, so that it stays the top of the folder;
 * `.dependency-cruiser.json` keeps kinds from reaching past it.
 *
 * By concern: the protocol with the plugin (protocol.ts), input schemas (schemas.ts), diffs (diff.ts), what
 * writes share (writes.ts), declared properties (properties.ts), the kind definition (kind.ts), the facets the
 * drift report and the exporter read (facets.ts), claims (claims.ts) and preview's catalogue checks
 * (catalogueChecks.ts), messages about a resource (resourceLog.ts), and the run's context (context.ts,
 * runLedger.ts, coalescedReads.ts, …).
 */
export * from "./protocol";
export * from "./schemas";
export * from "./diff";
export * from "./writes";
export * from "./properties";
export * from "./kind";
export * from "./claims";
export * from "./catalogueChecks";
export * from "./coalescedReads";
export * from "./common";
export * from "./context";
export * from "./inputIntegrity";
export * from "./interruptedCreates";
export * from "./organization";
export * from "./promiseStacks";
export * from "./registrationTrace";
export * from "./runLedger";
export * from "./secretConnection";
export * from "./source";
export * from "./tagNames";
export * from "./facets";
export * from "./managedResource";
export * from "./concurrency";
export * from "./resourceLog";
