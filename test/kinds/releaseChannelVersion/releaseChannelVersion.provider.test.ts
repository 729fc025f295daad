// ReleaseChannelVersion (with its rollout gate against the emulator's simulated rollouts), ReleaseChannelShare
// and the content attachments (GroupFile, GroupVideo, DeviceFile, DeviceVideo) through the real plugin; the
// organization is read afterwards from the emulator's snapshot.
import { failure, Managed, startStack, type Stack } from "../../harness/providerStack";

let stack: Stack;
let appId: string;
let productionId: string;
let versions: Record<string, string>;
let site: string;
let siteDevices: string[];
let ungrouped: string[];

beforeAll(async () => {
  // Installs complete within 300 ms of wall time on the emulator clock: the gate's waits stay short.
  stack = await startStack({ emulator: { seed: { devices: 8 }, rollouts: { durationMs: 300 } } });
  const app = (await stack.admin.apps.all()).find((a) => a.name === "Training Simulator");
  if (!app) throw new Error("no seeded Training Simulator");
  appId = app.id;
  for await (const channel of stack.admin.apps.releaseChannels(appId))
    if (channel.name === "Production") productionId = channel.id;
  versions = Object.fromEntries(
    (await stack.admin.releases.versions(appId).all()).map((v) => [v.version ?? "", v.id]),
  );
  const group = await stack.admin.groups.create({ name: "Site", parentId: null });
  site = (await stack.admin.groups.configure(group.id)).id;
  const devices = await stack.admin.devices.all();
  siteDevices = devices.slice(0, 3).map((d) => d.id);
  ungrouped = devices.slice(3).map((d) => d.id);
  for (const id of siteDevices) await stack.admin.devices.update(id, { groupId: site });
  await stack.admin.groups.addReleaseChannel(site, productionId);
  stack.emulator.advanceClock(1_000); // the first installs are done
});
afterAll(() => stack.close());

const emulator = () => stack.emulator;
const channelNow = () => stack.emulator.snapshot().releaseChannels.find((c) => c.id === productionId);
const gate = (share: number, timeoutSeconds = 3) => ({ share, timeoutSeconds, pollIntervalSeconds: 1 });

describe("ReleaseChannelVersion", () => {
  it("moves the channel and passes the gate once the devices install; up twice changes nothing; destroy leaves it", async () => {
    const managed = await Managed.of(stack.plugin, "releaseChannelVersion", "production");
    const declared = {
      appId,
      releaseChannelId: productionId,
      versionId: versions["2.4.0"],
      rollout: gate(1),
    };
    const outputs = await managed.create(declared);
    expect(channelNow()?.version).toBe("2.4.0");
    expect(outputs).toMatchObject({ version: "2.4.0", previousVersion: "2.4.1", rolloutStatus: "passed" });
    expect(outputs.rolloutSummary).toMatch(/^3 installed, 0 pending, 0 failed/);
    expect((await managed.diff(declared)).changes).toBe("none");
    await managed.read();
    expect((await managed.diff(declared)).changes).toBe("none");

    // A portal-style move shows in refresh; up moves it back.
    await stack.admin.releases.setChannelVersion(appId, productionId, { versionId: versions["2.3.0"] });
    await managed.read();
    expect(managed.outputs.versionId).toBe(versions["2.3.0"]);
    expect((await managed.diff(declared)).changes).toBe("some");
    await managed.update(declared);
    expect(channelNow()?.version).toBe("2.4.0");

    await managed.delete();
    expect(channelNow()?.version).toBe("2.4.0");
  });

  it("fails with the numbers when a device stays pending past the timeout; the next up waits again", async () => {
    stack.emulator.setRollouts({ stalledDeviceIds: [siteDevices[0]], failingDeviceIds: [] });
    const managed = await Managed.of(stack.plugin, "releaseChannelVersion", "stalled");
    const declared = {
      appId,
      releaseChannelId: productionId,
      versionId: versions["2.3.0"],
      rollout: { ...gate(1, 1), groupIds: [site] },
    };
    const error = await failure(managed.create(declared));
    expect(error.message).toMatch(
      /did not reach 100 % installed of groups .* within 1 s: 2 installed, 1 pending, 0 failed/,
    );
    expect(error.message).toMatch(/Site \(.*\): 2 installed, 1 pending, 0 failed/);
    expect(channelNow()?.version).toBe("2.3.0"); // the move happened: the state records it
    await managed.recordPartialFailure(error, declared);
    expect(managed.outputs.rolloutStatus).toBe("failed");
    expect((await managed.diff(declared)).changes).toBe("some");

    // A lower share passes on the next up, without moving the channel again.
    const relaxed = { ...declared, rollout: { ...gate(0.6, 1), groupIds: [site] } };
    const outputs = await managed.update(relaxed);
    expect(outputs.rolloutStatus).toBe("passed");
    expect((await managed.diff(relaxed)).changes).toBe("none");
    stack.emulator.setRollouts({ stalledDeviceIds: [] });
  });

  it("fails at once when a device reports a failed install", async () => {
    stack.emulator.setRollouts({ failingDeviceIds: [siteDevices[1]], stalledDeviceIds: [] });
    const managed = await Managed.of(stack.plugin, "releaseChannelVersion", "failing");
    const declared = {
      appId,
      releaseChannelId: productionId,
      versionId: versions["2.4.1"],
      rollout: gate(0.5, 5),
    };
    const error = await failure(managed.create(declared));
    expect(error.message).toMatch(/failed on 1 device\(s\): \d installed, \d pending, 1 failed \(Site/);
    expect(channelNow()?.version).toBe("2.4.1");
    stack.emulator.setRollouts({ failingDeviceIds: [] });
  });

  it("delivers a bundle: compared through its version, so a portal move shows and up restores the bundle", async () => {
    const bundle = (await stack.admin.releases.bundles(appId).all()).find(
      (b) => b.appBuild?.version === "2.3.0",
    );
    if (!bundle) throw new Error("no seeded bundle of 2.3.0");
    const managed = await Managed.of(stack.plugin, "releaseChannelVersion", "bundle");
    const declared = { appId, releaseChannelId: productionId, bundleId: bundle.id };
    await managed.create(declared);
    expect(channelNow()).toMatchObject({ version: "2.3.0", bundleId: bundle.id });
    await managed.read();
    expect((await managed.diff(declared)).changes).toBe("none");
    await stack.admin.releases.setChannelVersion(appId, productionId, { versionId: versions["2.4.1"] });
    await managed.read();
    expect((await managed.diff(declared)).changes).toBe("some");
    await managed.update(declared);
    expect(channelNow()).toMatchObject({ version: "2.3.0", bundleId: bundle.id });
  });

  it("a preview names the versions (versionName), and a version the app lacks fails at check", async () => {
    const managed = await Managed.of(stack.plugin, "releaseChannelVersion", "named");
    const declared = { appId, releaseChannelId: productionId, versionId: versions["2.4.0"] };
    await managed.create(declared);
    expect(managed.inputs.versionName).toBe("2.4.0");
    const promoted = await managed.check({ ...declared, versionId: versions["2.4.1"] });
    expect(promoted.inputs.versionName).toBe("2.4.1");
    emulator().resetStats();
    expect((await managed.check(declared)).inputs.versionName).toBe("2.4.0");
    expect(emulator().stats().requests).toBe(0); // unchanged: no request at preview
    const missing = await managed.check({ ...declared, versionId: "12121212-1212-4212-8212-121212121212" });
    expect(missing.failures.map((f) => f.reason).join()).toMatch(/has no version 12121212.*getAppVersion/);
    // A portal move: refresh reports the live version's name, so the next preview reads "2.3.0" => "2.4.0".
    await stack.admin.releases.setChannelVersion(appId, productionId, { versionId: versions["2.3.0"] });
    await managed.read();
    expect(managed.inputs.versionName).toBe("2.3.0");
    expect((await managed.check(declared)).inputs.versionName).toBe("2.4.0");
  });

  it("refuses neither or both of versionId and bundleId at check", async () => {
    const managed = await Managed.of(stack.plugin, "releaseChannelVersion", "bad");
    const neither = await managed.check({ appId, releaseChannelId: productionId });
    expect(neither.failures.map((f) => f.property)).toEqual(["versionId"]);
    const badShare = await managed.check({
      appId,
      releaseChannelId: productionId,
      versionId: versions["2.4.0"],
      rollout: { share: 2, timeoutSeconds: 1 },
    });
    expect(badShare.failures[0].reason).toMatch(/rollout.share must be above 0 and at most 1/);
  });
});

describe("ReleaseChannelShare", () => {
  it("shares with another organization and unshares on destroy; a share made elsewhere is refused", async () => {
    const managed = await Managed.of(stack.plugin, "releaseChannelShare", "to-staging");
    const declared = { appId, releaseChannelId: productionId, organizationSlug: "acme-staging" };
    const staging = stack.emulator.orgs.secondary.id;
    await managed.create(declared);
    expect(channelNow()?.sharedWithOrgIds).toEqual([staging]);
    await managed.delete();
    expect(channelNow()?.sharedWithOrgIds).toEqual([]);

    await managed.create(declared);
    expect(channelNow()?.sharedWithOrgIds).toEqual([staging]);
    expect((await managed.diff(declared)).changes).toBe("none");

    // Read by id alone (an import) finds the share's parts from its id.
    const imported = await Managed.of(stack.plugin, "releaseChannelShare", "imported");
    expect((await imported.readById(managed.id)).id).toBe(managed.id);
    expect(imported.outputs).toMatchObject(declared);

    const twin = await Managed.of(stack.plugin, "releaseChannelShare", "twin");
    await expect(twin.create(declared)).rejects.toThrow(/Nothing was changed/);
    expect(channelNow()?.sharedWithOrgIds).toEqual([staging]);

    // In the run whose create met it, the share is the program's still (a rename without aliases): kept.
    await expect(managed.delete()).rejects.toThrow(/was not deleted/);
    expect(channelNow()?.sharedWithOrgIds).toEqual([staging]);
    await stack.admin.releases.unshare(appId, productionId, "acme-staging");
  });
});

describe("content attachments", () => {
  it("attaches a file and a video to a group and to an ungrouped device, and detaches them on destroy", async () => {
    const file = (await stack.admin.files.all())[0];
    const video = (await stack.admin.videos.all())[0];
    const cases = [
      { kind: "groupFile", props: { groupId: site, fileId: file.id } },
      { kind: "groupVideo", props: { groupId: site, videoId: video.id } },
      { kind: "deviceFile", props: { deviceId: ungrouped[0], fileId: file.id } },
      { kind: "deviceVideo", props: { deviceId: ungrouped[0], videoId: video.id } },
    ] as const;
    const held = () => {
      const snapshot = stack.emulator.snapshot();
      const group = snapshot.groups.find((g) => g.id === site);
      const device = snapshot.devices.find((d) => d.id === ungrouped[0]);
      return {
        groupFiles: group?.fileIds,
        groupVideos: group?.videoIds,
        deviceFiles: device?.fileIds,
        deviceVideos: device?.videoIds,
      };
    };
    const managed: Managed[] = [];
    for (const { kind, props } of cases) {
      const resource = await Managed.of(stack.plugin, kind, `${kind}-1`);
      await resource.create(props);
      expect((await resource.diff(props)).changes).toBe("none");
      expect((await resource.read()).id).toBe(resource.id);
      managed.push(resource);
    }
    expect(held()).toEqual({
      groupFiles: [file.id],
      groupVideos: [video.id],
      deviceFiles: [file.id],
      deviceVideos: [video.id],
    });

    // A second declaration of the same group file is refused without a write (no duplicate).
    const twin = await Managed.of(stack.plugin, "groupFile", "twin");
    await expect(twin.create({ groupId: site, fileId: file.id })).rejects.toThrow(
      /already attached.*Nothing was changed/s,
    );

    // A device file detached in the portal shows in refresh (the API lists a device's files).
    await stack.admin.deviceContent.removeFile(ungrouped[0], file.id);
    expect((await managed[2].read()).id).toBe("");

    // The refused create's object is kept by this run's delete (its program still declares it); the rest go.
    await expect(managed[0].delete()).rejects.toThrow(/was not deleted/);
    for (const resource of [managed[1], managed[3]]) await resource.delete();
    expect(held()).toEqual({ groupFiles: [file.id], groupVideos: [], deviceFiles: [], deviceVideos: [] });
  });
});
