/**
 * The DeviceMigration kind's CRUD, on typed inputs: create migrates the device (once, even when an answer is
 * lost), read tells from the source organization whether it is still migrated, delete only forgets it (the API
 * cannot move a device back).
 */
import * as pulumi from "@pulumi/pulumi";
import {
  resourceLog,
  clientForProps,
  carriedInputs,
  jsonClean,
  unlessGone,
  type Props,
  checkKind,
  diffKind,
  diffKindAsked,
  type KindHandler,
} from "../../framework";
import { MalformedIdError, NotPossibleError } from "../../errors";
import { AmbiguousWriteError, ForbiddenError, NotFoundError, type DeviceMgmtClient } from "../../client";
import { type MigrationProperties, type MigrationState, deviceMigrationIdentity } from "./properties";

export function diffMigration(
  olds: Props,
  news: Props,
  sameOrganization?: boolean,
): pulumi.dynamic.DiffResult {
  return diffKind(deviceMigrationIdentity, olds, news, sameOrganization);
}

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

/** The migration as declared, and when it happened (absent in state that never recorded it). */
const outputs = (migration: MigrationState, migratedAt: string | undefined): Props =>
  jsonClean({
    deviceId: migration.deviceId,
    organizationSlug: migration.organizationSlug,
    groupId: migration.groupId ?? null,
    migratedAt,
    ...carriedInputs(migration),
  });

export const deviceMigrationHandler: KindHandler<MigrationProperties> = {
  async check(_olds, news) {
    return checkKind(deviceMigrationIdentity, news);
  },

  async diff(_id, olds, news) {
    return diffKindAsked(deviceMigrationIdentity, olds, news);
  },

  async create(inputs) {
    const client = clientForProps(inputs);
    const { deviceId, organizationSlug: slug } = inputs;
    const groupId = inputs.groupId ?? null;
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
    // An import reads with nothing recorded: the id names the device and the target.
    const deviceId = props.deviceId ?? parsed?.deviceId;
    const slug = props.organizationSlug ?? parsed?.organizationSlug;
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
      groupId: props.groupId ?? null,
      // Unknown for a migration made outside Pulumi: when it was found.
      migratedAt: typeof props.migratedAt === "string" ? props.migratedAt : new Date().toISOString(),
    });
    const { migratedAt: _migratedAt, ...inputs } = live;
    return { id, props: live, inputs };
  },

  async update(_id, olds, news) {
    // Every property replaces; only the token (connection) can change in place.
    return { outs: outputs(news, typeof olds.migratedAt === "string" ? olds.migratedAt : undefined) };
  },

  async delete(id) {
    await resourceLog.warn(
      `DeviceMigration ${id}: a migration cannot be undone through the API; the device stays in the target ` +
        `organization. Removed from the stack only.`,
    );
  },
};
