// The rollout gate of a ReleaseChannelVersion across runs of the real Pulumi CLI: a gate that has not passed is
// judged again by every later `up` (refresh in between or not) until the devices install, then holds without a
// change. Each step asserts the organization (the channel's version, the devices' install statuses, read
// through the emulator's API) and what state records (`rolloutStatus`, `rolloutVersionId`).
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { DeviceMgmtClient } from "../../../provider/client";
import { createEngine, type Engine, type RunResult } from "../../engine";
import * as dm from "../../../provider";

const repoRoot = path.resolve(__dirname, "../../..");
const STATUSES_ROUTE = "GET /apps/{appId}/release-channels/{releaseChannelId}/device-statuses";

let emulator: RunningEmulator;
let engine: Engine;
let admin: DeviceMgmtClient;
let appId: string;
let productionId: string;
let site: string;
let siteDevices: string[];

/** Production on `version`, gated on every device of the site (all must install; 5 s, a poll a second). */
function program(version: string) {
  return () => {
    const production = dm.getReleaseChannelOutput({
      appName: "Training Simulator",
      channelName: "Production",
    });
    const target = dm.getAppVersionOutput({ appName: "Training Simulator", version });
    const release = new dm.ReleaseChannelVersion("production-version", {
      appId: production.appId,
      releaseChannelId: production.id,
      versionId: target.id,
      rollout: { share: 1, timeoutSeconds: 5, pollIntervalSeconds: 1, groupIds: [site] },
    });
    return { rolloutStatus: release.rolloutStatus };
  };
}

const recorded = () => engine.resource("production-version").outputs;
const channelVersion = () => emulator.snapshot().releaseChannels.find((c) => c.id === productionId)?.version;
const statusesOfSite = async () =>
  (await admin.releases.deviceStatuses(appId, productionId).all())
    .filter((s) => siteDevices.includes(s.deviceId))
    .map((s) => s.status.replace(/-(install|update)$/, ""))
    .sort();
const gateError = (result: RunResult) => result.errors.map((e) => `${e.op}: ${e.message}`).join("\n");

/** A technician's fix: the device's fault is cleared and it is taken out of the site and put back (reached anew). */
async function reinstall(deviceId: string) {
  emulator.setRollouts({ failingDeviceIds: [], stalledDeviceIds: [] });
  await admin.devices.update(deviceId, { groupId: null });
  await admin.devices.update(deviceId, { groupId: site });
  emulator.advanceClock(1_000); // its install is due
}

beforeAll(async () => {
  // Installs complete within 300 ms of being due (emulator clock): the gate's runs stay short.
  emulator = await startEmulator({ port: 0, seed: { devices: 6 }, rollouts: { durationMs: 300 } });
  admin = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
  const app = (await admin.apps.all()).find((a) => a.name === "Training Simulator");
  if (!app) throw new Error("no seeded Training Simulator");
  appId = app.id;
  for await (const channel of admin.apps.releaseChannels(appId))
    if (channel.name === "Production") productionId = channel.id;
  const group = await admin.groups.create({ name: "Site", parentId: null });
  site = (await admin.groups.configure(group.id)).id;
  siteDevices = (await admin.devices.all()).slice(0, 3).map((d) => d.id);
  for (const id of siteDevices) await admin.devices.update(id, { groupId: site });
  await admin.groups.addReleaseChannel(site, productionId);
  emulator.advanceClock(1_000); // the site's first installs are done
  engine = await createEngine({
    cwd: repoRoot,
    project: "devicemgmt-rollout-gate",
    config: { "devicemgmt:baseUrl": emulator.baseUrl },
    secretConfig: { "devicemgmt:apiToken": emulator.tokens.admin },
  });
});

afterAll(async () => {
  await engine?.close();
  await emulator?.close();
});

describe("a rollout gate across runs", () => {
  it("a device's failed install fails the up; every next up judges the gate again, refresh or not", async () => {
    expect(channelVersion()).toBe("2.4.1");
    emulator.setRollouts({ failingDeviceIds: [siteDevices[0]] });
    const first = await engine.up(program("2.4.0"));
    expect(gateError(first)).toMatch(
      /^create: .*failed on 1 device\(s\) of groups .*2 installed, 0 pending, 1 failed/s,
    );
    expect(channelVersion()).toBe("2.4.0");
    expect(await statusesOfSite()).toEqual(["failed", "succeeded", "succeeded"]);
    expect(recorded()).toMatchObject({ version: "2.4.0", rolloutStatus: "failed" });

    // A preview shows the gate's update to come, so a drift job with --expect-no-changes fails too.
    const preview = await engine.preview(program("2.4.0"), { expectNoChanges: true });
    expect(preview.ok).toBe(false);
    expect(preview.steps.update.map((s) => s.name)).toEqual(["production-version"]);

    const second = await engine.up(program("2.4.0"));
    expect(gateError(second)).toMatch(
      /^update: .*failed on 1 device\(s\).*the next up judges the gate again/s,
    );
    expect(recorded().rolloutStatus).toBe("failed");

    const refreshed = await engine.refresh();
    expect(refreshed.errors).toEqual([]);
    expect(recorded().rolloutStatus).toBe("failed");
    const third = await engine.up(program("2.4.0"));
    expect(gateError(third)).toMatch(/^update: .*failed on 1 device\(s\)/s);
    const withRefresh = await engine.up(program("2.4.0"), { refresh: true });
    expect(gateError(withRefresh)).toMatch(/^update: .*failed on 1 device\(s\)/s);
    expect(channelVersion()).toBe("2.4.0");
  }, 180_000);

  it("once the device installs the up passes, and the next up changes nothing and asks nothing", async () => {
    await reinstall(siteDevices[0]);
    expect(await statusesOfSite()).toEqual(["succeeded", "succeeded", "succeeded"]);
    const passed = await engine.up(program("2.4.0"));
    expect(passed.errors).toEqual([]);
    expect(passed.steps.update.map((s) => s.name)).toEqual(["production-version"]);
    expect(passed.outputs.rolloutStatus).toBe("passed");
    const channel = await admin.apps.releaseChannel(appId, productionId);
    expect(recorded()).toMatchObject({
      version: "2.4.0",
      rolloutStatus: "passed",
      rolloutVersionId: channel.version.id,
      rolloutSummary: expect.stringMatching(/^3 installed, 0 pending, 0 failed/),
    });

    emulator.resetStats();
    const again = await engine.up(program("2.4.0"));
    expect(again.errors).toEqual([]);
    for (const kind of ["create", "update", "replace", "delete"] as const)
      expect(again.steps[kind]).toEqual([]);
    expect(emulator.stats().writes).toBe(0);
    expect(emulator.stats().byRoute[STATUSES_ROUTE]).toBeUndefined(); // a passed gate is not judged again
    expect(recorded().rolloutStatus).toBe("passed");
    const quiet = await engine.preview(program("2.4.0"), { refresh: true, expectNoChanges: true });
    expect(quiet.ok).toBe(true);
  }, 120_000);

  it("a poll that fails after the move still records it: the next up judges the gate, not 'unchanged'", async () => {
    // The channel moves to 2.3.0, then every request fails (no retries): the gate cannot poll.
    emulator.setRollouts({ stalledDeviceIds: [siteDevices[1]] });
    const watch = setInterval(() => {
      if (channelVersion() === "2.3.0") emulator.setFaults({ errorRate: 1 });
    }, 20);
    const cut = await engine.up(program("2.3.0"), { config: { "devicemgmt:maxRetries": "0" } });
    clearInterval(watch);
    emulator.setFaults({ errorRate: 0 });
    expect(gateError(cut)).toMatch(/^update: .*(500|502|503)/s);
    expect(channelVersion()).toBe("2.3.0");
    expect(recorded()).toMatchObject({
      version: "2.3.0",
      rolloutStatus: "failed",
      rolloutSummary: expect.stringMatching(/^not judged: /),
    });

    // The stalled device keeps the gate from passing: the next up waits for it and fails at the timeout.
    const stalled = await engine.up(program("2.3.0"), { config: { "devicemgmt:maxRetries": "9" } });
    expect(gateError(stalled)).toMatch(
      /^update: .*did not reach 100 % installed .* within 5 s: 2 installed, 1 pending/s,
    );
    expect(await statusesOfSite()).toEqual(["pending", "succeeded", "succeeded"]);
    expect(recorded().rolloutStatus).toBe("failed");

    await reinstall(siteDevices[1]);
    const passed = await engine.up(program("2.3.0"));
    expect(passed.errors).toEqual([]);
    expect(recorded()).toMatchObject({ version: "2.3.0", rolloutStatus: "passed" });
    const again = await engine.up(program("2.3.0"));
    expect(again.steps.update).toEqual([]);
  }, 180_000);
});
