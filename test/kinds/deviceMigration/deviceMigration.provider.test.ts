// DeviceMigration through the real dynamic-provider plugin against the emulator. The stack's token is Morgan
// Multi's, who is Admin in both organizations (a migration needs rights in the source and in the target).
import { DeviceMgmtClient } from "../../../provider/client";
import type { PropertyMap } from "../../harness/providerPlugin";
import { failure, loggedWarning, Managed, startStack, type Stack } from "../../harness/providerStack";

let stack: Stack;
/** Morgan in the target organization: an outside actor there. */
let staging: DeviceMgmtClient;
let deviceIds: string[];
let nextDevice = 0;
const TARGET = "acme-staging";
const MISSING = "34343434-3434-4343-8343-343434343434";

beforeAll(async () => {
  stack = await startStack({
    token: (e) => e.tokens.multiOrgAdmin,
    emulator: { seed: { devices: 16 } },
  });
  staging = new DeviceMgmtClient({
    baseUrl: stack.emulator.baseUrl,
    apiToken: stack.emulator.tokens.multiOrgAdminSecondary,
  });
  deviceIds = (await stack.admin.devices.all()).map((d) => d.id);
});
afterAll(() => stack.close());

/** Each test migrates its own device. */
const takeDevice = () => deviceIds[nextDevice++];
const inSource = (deviceId: string) => stack.emulator.snapshot().devices.find((d) => d.id === deviceId);
const inTarget = (deviceId: string) => stack.emulator.snapshot(TARGET).devices.find((d) => d.id === deviceId);
const migration = (deviceId: string, extra: PropertyMap = {}): PropertyMap => ({
  deviceId,
  organizationSlug: TARGET,
  ...extra,
});

async function stagingGroup(name: string, configured: boolean): Promise<string> {
  const group = await staging.groups.create({ name, parentId: null });
  if (configured) await staging.groups.configure(group.id);
  return group.id;
}

describe("DeviceMigration", () => {
  it("migrates, reads back without a diff, and on delete only warns that a migration cannot be undone", async () => {
    const deviceId = takeDevice();
    const moved = await Managed.of(stack.plugin, "deviceMigration", "move");
    const outs = await moved.create(migration(deviceId));
    expect(moved.id).toBe(`${deviceId}/${TARGET}`);
    expect(outs).toMatchObject({ deviceId, organizationSlug: TARGET, groupId: null });
    expect(Date.parse(outs.migratedAt as string)).not.toBeNaN();
    expect(inSource(deviceId)).toBeUndefined();
    expect(inTarget(deviceId)).toMatchObject({ groupId: null });

    expect(await moved.diff(migration(deviceId))).toMatchObject({ changes: "none" });
    const read = await moved.read();
    expect(read.id).toBe(moved.id);
    expect(read.properties.migratedAt).toBe(outs.migratedAt);
    // Nothing changed outside: no inputs come back, so the engine keeps the recorded ones (step.go, RefreshStep).
    expect(read.inputs).toBeUndefined();
    expect(moved.inputs).not.toHaveProperty("migratedAt");
    expect(await moved.diff(migration(deviceId))).toMatchObject({ changes: "none" });

    stack.emulator.resetStats();
    await moved.delete();
    expect(stack.emulator.stats().writes).toBe(0);
    expect(inTarget(deviceId)).toBeDefined();
    await loggedWarning(stack.plugin, `DeviceMigration ${moved.id}: a migration cannot be undone`);
    await loggedWarning(stack.plugin, "the device stays in the target organization");
  });

  it("migrates into a configured group of the target organization", async () => {
    const deviceId = takeDevice();
    const groupId = await stagingGroup("Arrivals", true);
    const moved = await Managed.of(stack.plugin, "deviceMigration", "into-group");
    await moved.create(migration(deviceId, { groupId }));
    expect(inTarget(deviceId)).toMatchObject({ groupId });
    expect(await moved.diff(migration(deviceId, { groupId }))).toMatchObject({ changes: "none" });
    await moved.read();
    expect(await moved.diff(migration(deviceId, { groupId }))).toMatchObject({ changes: "none" });
  });

  it("replaces on any change: device, organization or group", async () => {
    const deviceId = takeDevice();
    const moved = await Managed.of(stack.plugin, "deviceMigration", "changing");
    await moved.create(migration(deviceId));
    expect(await moved.diff(migration(deviceId, { groupId: MISSING }))).toMatchObject({
      changes: "some",
      replaces: ["groupId"],
    });
    expect(await moved.diff(migration(deviceId, { groupId: null }))).toMatchObject({ changes: "none" });
    expect(await moved.diff(migration(MISSING))).toMatchObject({ changes: "some", replaces: ["deviceId"] });
    expect(await moved.diff(migration(deviceId, { organizationSlug: "acme-other" }))).toMatchObject({
      changes: "some",
      replaces: ["organizationSlug"],
    });

    // Replacing with another device migrates that one; deleting the old migration leaves its device where it is.
    const other = takeDevice();
    const { oldId } = await moved.replace(migration(other));
    expect(oldId).toBe(`${deviceId}/${TARGET}`);
    expect(inTarget(deviceId)).toBeDefined();
    expect(inTarget(other)).toBeDefined();
  });

  it("reports the migration gone once the device is back in the source organization; the next up migrates again", async () => {
    const deviceId = takeDevice();
    const moved = await Managed.of(stack.plugin, "deviceMigration", "returning");
    await moved.create(migration(deviceId));
    await staging.devices.migrate(deviceId, "acme");
    expect(inSource(deviceId)).toBeDefined();
    expect((await moved.read()).id).toBe("");

    const again = await Managed.of(stack.plugin, "deviceMigration", "returning");
    await again.create(migration(deviceId));
    expect(inSource(deviceId)).toBeUndefined();
    expect(inTarget(deviceId)).toBeDefined();
  });

  it("counts a device already migrated as done (an interrupted run, a rename), and reads it by id", async () => {
    const deviceId = takeDevice();
    await new DeviceMgmtClient({
      baseUrl: stack.emulator.baseUrl,
      apiToken: stack.emulator.tokens.multiOrgAdmin,
    }).devices.migrate(deviceId, TARGET);

    const late = await Managed.of(stack.plugin, "deviceMigration", "late");
    await late.create(migration(deviceId));
    expect(late.id).toBe(`${deviceId}/${TARGET}`);
    expect(inTarget(deviceId)).toBeDefined();

    const imported = await Managed.of(stack.plugin, "deviceMigration", "imported");
    const read = await imported.readById(`${deviceId}/${TARGET}`);
    expect(read.id).toBe(`${deviceId}/${TARGET}`);
    expect(read.inputs).toMatchObject({ deviceId, organizationSlug: TARGET });
    expect(await imported.diff(migration(deviceId))).toMatchObject({ changes: "none" });
  });

  it("migrates once when the answer to the migration was lost", async () => {
    const deviceId = takeDevice();
    const moved = await Managed.of(stack.plugin, "deviceMigration", "lost");
    stack.emulator.setFaults({ dropAfterWriteRate: 1 });
    try {
      await moved.create(migration(deviceId));
    } finally {
      stack.emulator.setFaults({ dropAfterWriteRate: 0 });
    }
    expect(stack.emulator.stats().faults.droppedAfterWrite).toBeGreaterThan(0);
    expect(inSource(deviceId)).toBeUndefined();
    expect(inTarget(deviceId)).toBeDefined();
  });

  it("explains an unknown organization slug (404)", async () => {
    const deviceId = takeDevice();
    const moved = await Managed.of(stack.plugin, "deviceMigration", "nowhere");
    const noOrg = await failure(moved.create(migration(deviceId, { organizationSlug: "no-such-org" })));
    expect(noOrg.message).toMatch(/no organization has the slug "no-such-org"/);
    expect(inSource(deviceId)).toBeDefined();
  });

  it("passes the server's 422 through: the source organization itself, a group that is not configured", async () => {
    const deviceId = takeDevice();
    const moved = await Managed.of(stack.plugin, "deviceMigration", "refused");
    const sameOrg = await failure(moved.create(migration(deviceId, { organizationSlug: "acme" })));
    expect(sameOrg.message).toMatch(/422/);
    expect(sameOrg.message).toMatch(/organizationSlug/);
    const folder = await stagingGroup("Folder", false);
    const unconfigured = await failure(moved.create(migration(deviceId, { groupId: folder })));
    expect(unconfigured.message).toMatch(/422/);
    expect(unconfigured.message).toMatch(/groupId/);
    expect(inSource(deviceId)).toBeDefined();
  });

  it("reports every bad input in check, one failure per property, before any API call", async () => {
    const moved = await Managed.of(stack.plugin, "deviceMigration", "bad");
    stack.emulator.resetStats();
    const { failures } = await moved.check({
      deviceId: "headset-1",
      organizationSlug: "Acme Staging!",
      groupId: 5,
      connection: { baseUrl: "ftp:nothing", extra: true },
      migratedAt: "yesterday",
    });
    expect(failures.map((f) => f.property).sort()).toEqual([
      "connection",
      "deviceId",
      "groupId",
      "migratedAt",
      "organizationSlug",
    ]);
    const missing = await moved.check({});
    expect(missing.failures.map((f) => f.property).sort()).toEqual(["deviceId", "organizationSlug"]);
    expect(stack.emulator.stats().requests).toBe(0);
  });
});

describe("DeviceMigration permissions", () => {
  const withToken = (token: string, deviceId: string, extra: PropertyMap = {}): PropertyMap =>
    migration(deviceId, { connection: { baseUrl: stack.emulator.baseUrl, apiToken: token }, ...extra });
  const PERMISSIONS = [/DEVICE__MIGRATE/, /ENROLLMENT__ENROLL_DEVICE/, /GROUP__ADD_REMOVE_DEVICES/];

  it("a 403 for a token without DEVICE__MIGRATE names the three permissions a migration needs", async () => {
    const deviceId = takeDevice();
    const moved = await Managed.of(stack.plugin, "deviceMigration", "no-migrate");
    const error = await failure(moved.create(withToken(stack.emulator.tokens.noMigrate, deviceId)));
    expect(error.message).toMatch(/403/);
    for (const permission of PERMISSIONS) expect(error.message).toMatch(permission);
    expect(inSource(deviceId)).toBeDefined();
  });

  it("a 403 for a user who is not in the target organization names them too, with the target group", async () => {
    const deviceId = takeDevice();
    const groupId = await stagingGroup("Unreachable", true);
    const moved = await Managed.of(stack.plugin, "deviceMigration", "not-a-member");
    const error = await failure(moved.create(withToken(stack.emulator.tokens.admin, deviceId, { groupId })));
    expect(error.message).toMatch(/403/);
    for (const permission of PERMISSIONS) expect(error.message).toMatch(permission);
    expect(error.message).toContain(TARGET);
    expect(error.message).toContain(groupId);
    expect(inSource(deviceId)).toBeDefined();
  });

  it("an unknown token gets a 401 that does not print the token", async () => {
    const deviceId = takeDevice();
    const moved = await Managed.of(stack.plugin, "deviceMigration", "unknown-token");
    const error = await failure(
      moved.create(withToken("96|NotAMigrationToken0000000000000000000000", deviceId)),
    );
    expect(error.message).toMatch(/401/);
    expect(error.message + stack.plugin.stderr()).not.toContain("NotAMigrationToken");
    expect(inSource(deviceId)).toBeDefined();
  });
});
