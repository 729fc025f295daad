/**
 * App versions and bundles, a release channel's version (PUT), and the simulated rollout that follows: devices
 * move from pending to installed over `durationMs` on the emulator clock, which tests advance instead of sleeping;
 * fault control makes chosen devices fail or stall.
 */
import type { RunningEmulator } from "../../emulator";
import {
  call,
  client,
  createConfiguredGroup,
  ISO_MS,
  listAll,
  start,
  UUID,
  validationErrors,
  type Client,
  type Json,
} from "./helpers";

const MISSING_ID = "00000000-0000-4000-8000-000000000000";
const HOUR = 3_600_000;

interface Fixture {
  emulator: RunningEmulator;
  admin: Client;
  app: Json;
  /** Training Simulator's Production channel (2.4.1 at the start). */
  channel: Json;
  versions: Json[];
  path: string;
}

async function fixture(options: Parameters<typeof start>[0] = {}): Promise<Fixture> {
  const emulator = await start({ rollouts: { durationMs: HOUR }, ...options });
  const admin = client(emulator, emulator.tokens.admin);
  const app = (await listAll(admin, "/apps")).find((a: Json) => a.name === "Training Simulator");
  const channels: Json[] = (await admin.get(`/apps/${app.id}/release-channels`)).body.data;
  const channel = channels.find((c) => c.name === "Production");
  const versions = await listAll(admin, `/apps/${app.id}/versions`);
  return { emulator, admin, app, channel, versions, path: `/apps/${app.id}/release-channels/${channel.id}` };
}

const versionId = (f: Fixture, version: string) => f.versions.find((v) => v.version === version).id;

/** A configured group with `count` devices, the channel attached; returns the device ids. */
async function site(f: Fixture, name: string, count: number, offset: number): Promise<string[]> {
  const group = await createConfiguredGroup(f.admin, name, null);
  const devices: Json[] = (await listAll(f.admin, "/devices")).slice(offset, offset + count);
  for (const device of devices)
    expect((await f.admin.put(`/devices/${device.id}`, { groupId: group })).status).toBe(200);
  const attach = await f.admin.post(`/groups/${group}/release-channels`, { releaseChannelId: f.channel.id });
  expect(attach.status).toBe(204);
  return devices.map((d) => d.id);
}

async function statuses(f: Fixture): Promise<Json[]> {
  return listAll(f.admin, `${f.path}/device-statuses`);
}

const countBy = (items: Json[]) =>
  items.reduce<Record<string, number>>(
    (counts, s) => ({ ...counts, [s.status]: (counts[s.status] ?? 0) + 1 }),
    {},
  );

describe("versions and bundles", () => {
  let f: Fixture;
  beforeAll(async () => (f = await fixture()));
  afterAll(() => f.emulator.close());

  it("GET /apps/{appId}/versions lists the app's versions newest first, in the app-build shape", async () => {
    expect(f.versions.map((v) => v.version)).toEqual(["2.5.0-beta.3", "2.4.1", "2.4.0", "2.3.0"]);
    for (const version of f.versions)
      expect(version).toEqual({
        id: expect.stringMatching(UUID),
        version: expect.any(String),
        code: expect.any(Number),
        sizeBytes: expect.any(Number),
        checksum: { algorithm: "SHA-256", value: expect.stringMatching(/^[0-9a-f]{64}$/) },
        status: "available",
        downloadUrl: null,
        createdAt: expect.stringMatching(ISO_MS),
        updatedAt: expect.stringMatching(ISO_MS),
      });
    // The channels deliver versions of the list.
    expect(f.channel.version.id).toBe(versionId(f, "2.4.1"));
  });

  it("sha256[] filters by checksum (1..10 values); unknown app 404", async () => {
    const [a, b] = f.versions;
    const found = await f.admin.get(`/apps/${f.app.id}/versions`, {
      query: { "sha256[]": [a.checksum.value.toUpperCase(), b.checksum.value] },
    });
    expect(found.body.data.map((v: Json) => v.id)).toEqual([a.id, b.id]);
    const tooMany = Array.from({ length: 11 }, (_, i) => `x${i}`);
    expect(
      validationErrors(await f.admin.get(`/apps/${f.app.id}/versions`, { query: { "sha256[]": tooMany } })),
    ).toEqual({ sha256: ["The sha256 field must not have more than 10 items."] });
    expect((await f.admin.get(`/apps/${MISSING_ID}/versions`)).status).toBe(404);
  });

  it("GET /apps/{appId}/app-bundles lists one bundle per version, the channel's among them", async () => {
    const bundles: Json[] = await listAll(f.admin, `/apps/${f.app.id}/app-bundles`);
    expect(bundles).toHaveLength(4);
    expect(bundles.map((b) => b.appBuild.id).sort()).toEqual(f.versions.map((v) => v.id).sort());
    expect(bundles.map((b) => b.id)).toContain(f.channel.bundle.id);
    // The channel shows its bundle as the bundle list does.
    expect(bundles.find((b) => b.id === f.channel.bundle.id).label).toBe(f.channel.bundle.label);
    expect(
      (await f.admin.get(`/apps/${f.app.id}/app-bundles`, { query: { status: "pending" } })).body.data,
    ).toEqual([]);
  });
});

describe("PUT /apps/{appId}/release-channels/{releaseChannelId}", () => {
  let f: Fixture;
  beforeAll(async () => (f = await fixture()));
  afterAll(() => f.emulator.close());

  const auditTotal = async () =>
    (await f.admin.get("/audit-logs", { query: { per_page: 1 } })).body.meta.total;

  it("versionId moves the channel to that version and its bundle (200, audited); again changes nothing", async () => {
    const before = await auditTotal();
    const response = await f.admin.put(f.path, { versionId: versionId(f, "2.4.0") });
    expect(response.status).toBe(200);
    expect(response.body.version).toMatchObject({ id: versionId(f, "2.4.0"), version: "2.4.0" });
    expect(response.body.bundle.appBuild.version).toBe("2.4.0");
    expect(response.body.updatedAt > f.channel.updatedAt).toBe(true);
    expect((await f.admin.get(f.path)).body.version.version).toBe("2.4.0");
    expect(f.emulator.snapshot().releaseChannels.find((c) => c.id === f.channel.id)).toMatchObject({
      versionId: versionId(f, "2.4.0"),
      version: "2.4.0",
      bundleId: response.body.bundle.id,
    });
    expect(await auditTotal()).toBe(before + 1);
    const [record] = (await f.admin.get("/audit-logs", { query: { per_page: 1 } })).body.data;
    expect(record).toMatchObject({
      action: "update-release-channel",
      resourceType: "release-channel",
      resourceId: f.channel.id,
      description: "Changed release channel 'Training Simulator Production' from version '2.4.1' to '2.4.0'.",
    });
    const again = await f.admin.put(f.path, { versionId: versionId(f, "2.4.0") });
    expect(again.status).toBe(200);
    expect(again.body.updatedAt).toBe(response.body.updatedAt);
    expect(await auditTotal()).toBe(before + 1);
  });

  it("bundleId moves the channel to the bundle's version", async () => {
    const bundles: Json[] = await listAll(f.admin, `/apps/${f.app.id}/app-bundles`);
    const beta = bundles.find((b) => b.appBuild.version === "2.5.0-beta.3");
    const response = await f.admin.put(f.path, { bundleId: beta.id });
    expect(response.status).toBe(200);
    expect(response.body.version.version).toBe("2.5.0-beta.3");
    expect(response.body.bundle.id).toBe(beta.id);
  });

  it("exactly one of versionId and bundleId, naming a version or bundle of the channel's app (422)", async () => {
    expect(validationErrors(await f.admin.put(f.path, {}))).toEqual({
      versionId: ["The version id field is required when bundle id is not present."],
    });
    const both = { versionId: versionId(f, "2.3.0"), bundleId: f.channel.bundle.id };
    expect(validationErrors(await f.admin.put(f.path, both))).toEqual({
      versionId: ["The version id field prohibits bundle id from being present."],
    });
    const otherApp = (await listAll(f.admin, "/apps")).find((a: Json) => a.name === "Safety Briefing");
    const foreign = (await f.admin.get(`/apps/${otherApp.id}/versions`)).body.data[0].id;
    expect(validationErrors(await f.admin.put(f.path, { versionId: foreign }))).toEqual({
      versionId: ["The selected version id is invalid."],
    });
    expect(validationErrors(await f.admin.put(f.path, { bundleId: MISSING_ID }))).toEqual({
      bundleId: ["The selected bundle id is invalid."],
    });
    expect(validationErrors(await f.admin.put(f.path, { versionId: "not-a-uuid" }))).toEqual({
      versionId: ["The version id field must be a valid UUID."],
    });
  });

  it("404 for an unknown app or channel (or another app's channel); 403 without RELEASE_CHANNEL__MANAGE", async () => {
    const body = { versionId: versionId(f, "2.3.0") };
    expect((await f.admin.put(`/apps/${MISSING_ID}/release-channels/${f.channel.id}`, body)).status).toBe(
      404,
    );
    expect((await f.admin.put(`/apps/${f.app.id}/release-channels/${MISSING_ID}`, body)).status).toBe(404);
    const otherApp = (await listAll(f.admin, "/apps")).find((a: Json) => a.name === "Safety Briefing");
    expect((await f.admin.put(`/apps/${otherApp.id}/release-channels/${f.channel.id}`, body)).status).toBe(
      404,
    );
    const reader = client(f.emulator, f.emulator.tokens.readOnly);
    expect((await reader.put(f.path, body)).status).toBe(403);
  });
});

describe("simulated rollouts", () => {
  it("devices install over durationMs after they are reached, then update after a version change", async () => {
    const f = await fixture();
    try {
      const devices = await site(f, "North", 4, 0);
      let now = await statuses(f);
      expect(now.map((s) => s.deviceId).sort()).toEqual([...devices].sort());
      for (const status of now)
        expect(status).toEqual({
          deviceId: expect.stringMatching(UUID),
          status: "pending-install",
          targetVersion: "2.4.1",
          installedVersion: null,
          statusTimestamp: expect.stringMatching(ISO_MS),
        });
      expect((await f.admin.get(`/apps/${f.app.id}`)).body.installedDeviceCount).toBe(0);

      f.emulator.advanceClock(HOUR);
      now = await statuses(f);
      expect(now.map((s) => [s.status, s.installedVersion])).toEqual(
        devices.map(() => ["succeeded-install", "2.4.1"]),
      );
      expect((await f.admin.get(`/apps/${f.app.id}`)).body.installedDeviceCount).toBe(4);
      // The channel's own deviceStatuses say the same.
      expect((await f.admin.get(f.path)).body.deviceStatuses).toEqual(now);

      expect((await f.admin.put(f.path, { versionId: versionId(f, "2.5.0-beta.3") })).status).toBe(200);
      now = await statuses(f);
      expect(now.map((s) => [s.status, s.targetVersion, s.installedVersion])).toEqual(
        devices.map(() => ["pending-update", "2.5.0-beta.3", "2.4.1"]),
      );
      // Part of the way: each device has its own moment within the hour, none goes back.
      f.emulator.advanceClock(HOUR / 2);
      const halfway = countBy(await statuses(f));
      expect((halfway["pending-update"] ?? 0) + (halfway["succeeded-update"] ?? 0)).toBe(4);
      f.emulator.advanceClock(HOUR / 2);
      now = await statuses(f);
      expect(now.map((s) => [s.status, s.installedVersion])).toEqual(
        devices.map(() => ["succeeded-update", "2.5.0-beta.3"]),
      );
      // Paginated like every list.
      const page = await f.admin.get(`${f.path}/device-statuses`, { query: { per_page: 3 } });
      expect(page.body.meta).toMatchObject({ total: 4, per_page: 3, last_page: 2 });
    } finally {
      await f.emulator.close();
    }
  });

  it("a device that joins later starts then; a device's own channel is rolled out too", async () => {
    const f = await fixture();
    try {
      const [first] = await site(f, "South", 1, 0);
      f.emulator.advanceClock(HOUR);
      const later = (await listAll(f.admin, "/devices"))[1].id;
      const group = (await f.admin.get(`/devices/${first}`)).body.group.id;
      await f.admin.put(`/devices/${later}`, { groupId: group });
      const direct = (await listAll(f.admin, "/devices"))[2].id;
      expect(
        (await f.admin.post(`/devices/${direct}/release-channels`, { releaseChannelId: f.channel.id }))
          .status,
      ).toBe(204);
      const byDevice = async () => Object.fromEntries((await statuses(f)).map((s) => [s.deviceId, s.status]));
      expect(await byDevice()).toEqual({
        [first]: "succeeded-install",
        [later]: "pending-install",
        [direct]: "pending-install",
      });
      f.emulator.advanceClock(HOUR);
      expect(await byDevice()).toEqual({
        [first]: "succeeded-install",
        [later]: "succeeded-install",
        [direct]: "succeeded-install",
      });
    } finally {
      await f.emulator.close();
    }
  });

  it("fault control: failing devices fail (keeping their version), stalled ones stay pending past the duration", async () => {
    const f = await fixture();
    try {
      const devices = await site(f, "East", 4, 0);
      f.emulator.advanceClock(HOUR);
      f.emulator.setRollouts({ failingDeviceIds: [devices[0]], stalledDeviceIds: [devices[1]] });
      // Faults apply to installs due from now on: what is installed stays installed.
      expect((await statuses(f)).map((s) => s.status)).toEqual(devices.map(() => "succeeded-install"));
      await f.admin.put(f.path, { versionId: versionId(f, "2.5.0-beta.3") });
      f.emulator.advanceClock(10 * HOUR);
      const byDevice = Object.fromEntries(
        (await statuses(f)).map((s) => [s.deviceId, [s.status, s.installedVersion]]),
      );
      expect(byDevice).toEqual({
        [devices[0]]: ["failed-update", "2.4.1"],
        [devices[1]]: ["pending-update", "2.4.1"],
        [devices[2]]: ["succeeded-update", "2.5.0-beta.3"],
        [devices[3]]: ["succeeded-update", "2.5.0-beta.3"],
      });
      // Rolling back to what the failed device still has: it counts as installed at once.
      f.emulator.setRollouts({ failingDeviceIds: [], stalledDeviceIds: [] });
      await f.admin.put(f.path, { versionId: versionId(f, "2.4.1") });
      const back = Object.fromEntries((await statuses(f)).map((s) => [s.deviceId, s.status]));
      expect(back[devices[0]]).toBe("succeeded-update");
      expect(back[devices[2]]).toBe("pending-update");
    } finally {
      await f.emulator.close();
    }
  });

  it("failureRate fails a seeded share of devices, the same ones for the same seed", async () => {
    const outcome = async (seed: number) => {
      const f = await fixture({
        seed: { devices: 40 },
        rollouts: { durationMs: HOUR, failureRate: 0.5, seed },
      });
      try {
        await site(f, "West", 40, 0);
        f.emulator.advanceClock(HOUR);
        return (await statuses(f)).map((s) => `${s.deviceId}:${s.status}`).sort();
      } finally {
        await f.emulator.close();
      }
    };
    const first = await outcome(7);
    expect(await outcome(7)).toEqual(first);
    const failed = first.filter((s) => s.endsWith("failed-install")).length;
    expect(failed).toBeGreaterThan(5);
    expect(failed).toBeLessThan(35);
    expect(await outcome(8)).not.toEqual(first);
  });

  it("the control endpoint sets the rollout faults and advances the clock; records carry the clock's time", async () => {
    const f = await fixture();
    try {
      const admin = { token: f.emulator.adminToken };
      const set = await call("PUT", `${f.emulator.url}/_emulator/rollouts`, {
        ...admin,
        body: { durationMs: 5 },
      });
      expect(set.status).toBe(200);
      expect(set.body).toMatchObject({ durationMs: 5, failingDeviceIds: [], failureRate: 0 });
      const bad = await call("PUT", `${f.emulator.url}/_emulator/rollouts`, {
        ...admin,
        body: { durationMs: -1 },
      });
      expect(bad.status).toBe(422);
      expect((await call("PUT", `${f.emulator.url}/_emulator/rollouts`, { body: {} })).status).toBe(401);

      const before = Date.now();
      const advanced = await call("POST", `${f.emulator.url}/_emulator/clock/advance`, {
        ...admin,
        body: { ms: 30 * 24 * HOUR },
      });
      expect(advanced.status).toBe(200);
      expect(advanced.body.offsetMs).toBe(30 * 24 * HOUR);
      expect(Date.parse(advanced.body.now)).toBeGreaterThanOrEqual(before + 30 * 24 * HOUR);
      expect(
        (await call("POST", `${f.emulator.url}/_emulator/clock/advance`, { ...admin, body: { ms: -5 } }))
          .status,
      ).toBe(422);
      const group = await f.admin.post("/groups", { name: "Later", parentId: null });
      expect(Date.parse(group.body.createdAt)).toBeGreaterThanOrEqual(before + 30 * 24 * HOUR);
    } finally {
      await f.emulator.close();
    }
  });
});
