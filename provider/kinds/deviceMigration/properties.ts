/**
 * The DeviceMigration kind's properties, declared once (framework/properties.ts). A migration is an event: any
 * change means another migration, and the API shows nothing of it afterwards (no `fromLive`).
 */
import { z } from "zod";
import { uuid, carried, type PropertySpecs, type StateOf, defineIdentity } from "../../framework";

export const migrationProperties = {
  deviceId: { schema: uuid("deviceId"), change: "replace" },
  organizationSlug: {
    schema: z
      .string({ error: "organizationSlug is required: the target organization's slug" })
      .trim()
      .superRefine((slug, ctx) => {
        if (/^[a-z0-9][a-z0-9-]*$/.test(slug)) return;
        const lower = slug.toLowerCase();
        ctx.addIssue({
          code: "custom",
          message: /^[a-z0-9][a-z0-9-]*$/.test(lower)
            ? `organizationSlug must be lower-case, as slugs are: use ${lower}`
            : "organizationSlug must be an organization slug (lower-case letters, digits and -) such as acme-staging",
        });
      }),
    change: "replace",
  },
  groupId: { schema: uuid("groupId").nullable().optional(), change: "replace", default: null },
  connection: carried.connection,
} satisfies PropertySpecs<never>;

export type MigrationProperties = typeof migrationProperties;
export type MigrationState = StateOf<MigrationProperties>;

/**
 * Who the DeviceMigration kind is: its key, type token, properties, natural key and claim, declared once for the
 * definition, the handler and the kind's other files.
 */
export const deviceMigrationIdentity = defineIdentity({
  kind: "deviceMigration",
  type: "DeviceMigration",
  naturalKey: false,
  properties: migrationProperties,
  // A migration is something done to a device (held by the device's own resource), not an object of its own.
  claim: null,
});
