import * as pulumi from "@pulumi/pulumi";
import { MalformedIdError, NotPossibleError } from "../../errors";
import { z } from "zod";
import { AmbiguousWriteError, ForbiddenError, NotFoundError, type DeviceMgmtClient } from "../../client";
import { clientForProps } from "../../framework/context";
import {
  carriedInputs,
  jsonClean,
  unlessGone,
  uuid,
  type Props,
  type ResourceHandler,
} from "../../framework/framework";
import { checkKind, defineKind, diffKind, diffKindAsked, registration } from "../../framework/kind";
import { carried, type PropertySpecs } from "../../framework/properties";
import { DeviceMgmtResource, type ConnectionArg } from "../../framework/common";

// ---- Properties, declared once (a migration is an event: any change means another migration) -------------

const migrationProperties = {
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

export function diffMigration(
  olds: Props,
  news: Props,
  sameOrganization?: boolean,
): pulumi.dynamic.DiffResult {
  return diffKind(deviceMigrationKind, olds, news, sameOrganization);
}

// ---- CRUD ---------------------------------------------------------------------------------------------------

export function migrationForbiddenMessage(deviceId: string, slug: string, groupId: string | null): string {
  return (
    `Migrating device ${deviceId} to organization "${slug}" was refused (403 Forbidden). The token's user needs ` +
    `DEVICE__MIGRATE in the source organization, ENROLLMENT__ENROLL_DEVICE in the target organization "${slug}"` +
    (groupId
      ? `, and GROUP__ADD_REMOVE_DEVICES on the target group ${groupId}.`
      : `, and GROUP__ADD_REMOVE_DEVICES on the target group when a groupId is given.`)
  );
}

/** True while the device is still visible in the source organization (i.e. not migrated). */
async function inSourceOrganization(client: DeviceMgmtClient, deviceId: string): Promise<boolean> {
  return (await unlessGone(client.devices.get(deviceId))) !== undefined;
}

/** Migration ids are `<device id>/<target organization slug>`: one device migrates to one place. */
const migrationId = (deviceId: string, slug: string) => `${deviceId}/${slug}`;

function parseMigrationId(id: string): { deviceId: string; organizationSlug: string } | undefined {
  const [deviceId, organizationSlug, ...rest] = id.split("/");
  return deviceId && organizationSlug && rest.length === 0 ? { deviceId, organizationSlug } : undefined;
}

const outputs = (props: Props, migratedAt: string): Props =>
  jsonClean({
    deviceId: props.deviceId,
    organizationSlug: props.organizationSlug,
    groupId: props.groupId ?? null,
    migratedAt,
    ...carriedInputs(props),
  });

export const deviceMigrationHandler: ResourceHandler = {
  async check(_olds, news) {
    return checkKind(deviceMigrationKind, news);
  },

  async diff(_id, olds, news) {
    return diffKindAsked(deviceMigrationKind, olds, news);
  },

  async create(inputs) {
    const client = clientForProps(inputs);
    const deviceId = inputs.deviceId as string;
    const slug = inputs.organizationSlug as string;
    const groupId = (inputs.groupId as string | null | undefined) ?? null;
    const migrate = () => client.devices.migrate(deviceId, slug, groupId ? { groupId } : {});
    try {
      await migrate();
    } catch (error) {
      if (error instanceof AmbiguousWriteError) {
        if (await inSourceOrganization(client, deviceId)) await migrate();
      } else if (error instanceof ForbiddenError) {
        throw new NotPossibleError(migrationForbiddenMessage(deviceId, slug, groupId), {
          kind: "DeviceMigration",
          fix: "grant the token's user the permissions named",
        });
      } else if (error instanceof NotFoundError) {
        // One status for two causes: tell them apart by whether the source organization still has the device.
        if (await inSourceOrganization(client, deviceId)) {
          throw new NotPossibleError(
            `Cannot migrate device ${deviceId}: no organization has the slug "${slug}"` +
              (groupId ? `, or it has no group ${groupId}` : "") +
              ` (${error.message}). Check organizationSlug${groupId ? " and groupId" : ""}.`,
            {
              kind: "DeviceMigration",
              property: "organizationSlug",
              fix: "check organizationSlug and groupId",
            },
          );
        }
        // The source organization no longer has the device: it was migrated already (by an earlier run that
        // lost its answer or was interrupted, or by this migration under its old name). That is the state the
        // program declares, so the migration counts as done.
      } else {
        throw error;
      }
    }
    return { id: migrationId(deviceId, slug), outs: outputs(inputs, new Date().toISOString()) };
  },

  async read(id, props) {
    const client = clientForProps(props);
    const parsed = parseMigrationId(id);
    const deviceId = (props.deviceId as string | undefined) ?? parsed?.deviceId;
    const slug = (props.organizationSlug as string | undefined) ?? parsed?.organizationSlug;
    if (!deviceId || !slug)
      throw new MalformedIdError(
        `DeviceMigration id "${id}" is not <deviceId>/<organizationSlug>.`,
        "DeviceMigration",
        id,
      );
    // The source organization cannot see the device once migrated. If it can again, the device came back (or
    // the migration was undone elsewhere): report the migration gone so the next `up` migrates it again.
    if (await inSourceOrganization(client, deviceId)) return {};
    const live = jsonClean({
      ...props,
      deviceId,
      organizationSlug: slug,
      groupId: (props.groupId as string | null | undefined) ?? null,
      // Unknown for a migration made outside Pulumi: when it was found.
      migratedAt: (props.migratedAt as string | undefined) ?? new Date().toISOString(),
    });
    const { migratedAt: _migratedAt, ...inputs } = live;
    return { id, props: live, inputs };
  },

  async update(_id, olds, news) {
    // Every property replaces; only the token (connection) can change in place.
    return { outs: outputs(news, olds.migratedAt as string) };
  },

  async delete(id) {
    await pulumi.log.warn(
      `DeviceMigration ${id}: a migration cannot be undone through the API; the device stays in the target ` +
        `organization. Removed from the stack only.`,
    );
  },
};

// ---- Resource class -----------------------------------------------------------------------------------------

/** The inputs of a {@link DeviceMigration}. Any change replaces the migration. */
export interface DeviceMigrationArgs extends ConnectionArg {
  /** The device, in the source organization (the one the token or connection belongs to). */
  deviceId: pulumi.Input<string>;
  /** The target organization's slug. */
  organizationSlug: pulumi.Input<string>;
  /** Optional configured group in the target organization. */
  groupId?: pulumi.Input<string | null>;
}

/**
 * Moves a device to another organization. Deleting the resource does not move it back (the API cannot); it
 * only leaves the stack, with a warning.
 *
 * @example
 * // By id: once moved, the device is no longer found by name in this organization.
 * new dm.DeviceMigration("loaner-to-staging", { deviceId: "<device uuid>", organizationSlug: "acme-staging" });
 */
export class DeviceMigration extends DeviceMgmtResource {
  /** The migrated device. */
  declare readonly deviceId: pulumi.Output<string>;
  /** The target organization's slug. */
  declare readonly organizationSlug: pulumi.Output<string>;
  /** The group in the target organization, or null. */
  declare readonly groupId: pulumi.Output<string | null>;
  /** When the device was migrated (ISO 8601). */
  declare readonly migratedAt: pulumi.Output<string>;

  constructor(name: string, args: DeviceMigrationArgs, opts?: pulumi.CustomResourceOptions) {
    super(...registration(deviceMigrationKind, name, args, opts));
  }
}

export const deviceMigrationKind = defineKind({
  kind: "deviceMigration",
  type: "DeviceMigration",
  naturalKey: false,
  properties: migrationProperties,
  outputs: ["migratedAt"],
  handler: deviceMigrationHandler,
});
