/**
 * The plugin's own errors: what only a program on the plugin (YAML, the generated SDKs) can meet, so not part of
 * the TypeScript package's errors (provider/errors.ts), whose base they share.
 */
import { DeviceMgmtProblem } from "../errors";

/**
 * `pulumi import` (or the `import` resource option, or a resource's `get`) named an id that the organization
 * does not hold. Without
 * this the engine would say "provider does not support importing resources", which sends the user to the wrong
 * fix.
 */
export class ImportNotFoundError extends DeviceMgmtProblem {
  constructor(
    kind: string,
    readonly id: string,
    organizationId: string,
  ) {
    super(
      `There is no ${kind} with id "${id}" in organization ${organizationId} (the one the provider's token ` +
        `reaches), so there is nothing to import (or to read, for a get). Nothing was changed. Check the id (devicemgmt-export and ` +
        `the lookups, e.g. getGroup, print ids), and that devicemgmt:baseUrl and devicemgmt:apiToken (or the ` +
        `explicit provider of the import) reach the organization that holds it.`,
      { kind, fix: "correct the id, or use the provider of the organization that holds it" },
    );
  }
}
