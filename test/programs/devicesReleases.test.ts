// Devices, tags, content and a release as a whole program, driven the way `pulumi up` drives it: the real SDK
// runs the program, every resource goes to the real dynamic-provider plugin, and the emulator is the
// organization, read afterwards from its snapshot.
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { DeviceMgmtClient } from "../../provider/client";
import { createEngine, type Engine } from "../engine";
import * as dm from "../../provider";

const repoRoot = path.resolve(__dirname, "../..");

let emulator: RunningEmulator;
let engine: Engine;
let admin: DeviceMgmtClient;
let serials: string[];

/** A site with its headsets (placed and tagged by serial), the site's tag, a manual, and Production on a version. */
function program(version = "2.4.0") {
  return () => {
    const siteTag = new dm.Tag("site-north", { name: "north" });
    const site = new dm.Group("north", { name: "North", configured: true });
    serials.forEach(
      (serialNumber, i) =>
        new dm.Device(`headset-${i + 1}`, {
          serialNumber,
          name: `North ${String(i + 1).padStart(2, "0")}`,
          groupId: site.id,
          tags: [siteTag.name, "training"],
          customFields: { Site: "North" },
        }),
    );
    new dm.TagSet("north-tags", { ownerType: "group", ownerId: site.id, tags: [siteTag.name] });
    const manual = dm.getFileOutput({ filename: "safety-manual.pdf" });
    new dm.GroupFile("north-manual", { groupId: site.id, fileId: manual.id });
    const production = dm.getReleaseChannelOutput({
      appName: "Training Simulator",
      channelName: "Production",
    });
    new dm.GroupReleaseChannel("north-production", { groupId: site.id, releaseChannelId: production.id });
    const target = dm.getAppVersionOutput({ appName: "Training Simulator", version });
    const release = new dm.ReleaseChannelVersion("production-version", {
      appId: production.appId,
      releaseChannelId: production.id,
      versionId: target.id,
    });
    return { siteId: site.id, version: release.version };
  };
}

const pulumiOutputs = (outputs: Record<string, unknown>) => outputs as { siteId: string; version: string };

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, seed: { devices: 6 } });
  admin = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
  serials = (await admin.devices.all()).slice(0, 3).map((d) => d.serialNumber);
  engine = await createEngine({
    cwd: repoRoot,
    project: "devicemgmt-devices-releases",
    config: { "devicemgmt:baseUrl": emulator.baseUrl },
    secretConfig: { "devicemgmt:apiToken": emulator.tokens.admin },
  });
});

afterAll(async () => {
  await engine?.close();
  await emulator?.close();
});

describe("a site's headsets, content and release", () => {
  it("up places and tags the headsets, attaches the manual and moves Production", async () => {
    const result = await engine.up(program());
    expect(result.errors).toEqual([]);
    const { siteId, version } = pulumiOutputs(result.outputs);
    expect(version).toBe("2.4.0");
    const snapshot = emulator.snapshot();
    const placed = snapshot.devices.filter((d) => serials.includes(d.serialNumber));
    expect(placed.map((d) => d.groupId)).toEqual([siteId, siteId, siteId]);
    expect(placed.map((d) => d.name).sort()).toEqual(["North 01", "North 02", "North 03"]);
    for (const device of placed) {
      expect(device.tags.map((t) => t.toLowerCase()).sort()).toEqual(["north", "training"]);
      expect(device.customFields).toEqual([{ name: "Site", value: "North" }]);
    }
    const group = snapshot.groups.find((g) => g.id === siteId);
    expect(group?.tags).toEqual(["north"]);
    expect(group?.fileIds).toHaveLength(1);
    const production = snapshot.releaseChannels.find((c) => c.name === "Production" && c.version === "2.4.0");
    expect(production).toBeDefined();
  });

  it("up again changes nothing, and refresh with no outside change shows none", async () => {
    emulator.resetStats();
    const again = await engine.up(program());
    expect(again.errors).toEqual([]);
    for (const kind of ["create", "update", "replace", "delete"] as const)
      expect(again.steps[kind]).toEqual([]);
    expect(emulator.stats().writes).toBe(0);
    const refreshed = await engine.refresh();
    expect(refreshed.errors).toEqual([]);
    expect(refreshed.steps.update).toEqual([]);
    expect(refreshed.steps.delete).toEqual([]);
  });

  it("a headset moved and renamed in the portal shows in refresh, and up puts it back", async () => {
    const device = (await admin.devices.all({ serialNumbers: [serials[1]] }))[0];
    await admin.devices.update(device.id, { name: "Borrowed", groupId: null });
    const refreshed = await engine.refresh();
    expect(refreshed.errors).toEqual([]);
    expect(refreshed.steps.update.map((s) => s.name)).toEqual(["headset-2"]);
    expect(refreshed.steps.update[0].changedKeys).toEqual(expect.arrayContaining(["groupId", "name"]));
    const repaired = await engine.up(program());
    expect(repaired.errors).toEqual([]);
    expect(repaired.steps.update.map((s) => s.name)).toEqual(["headset-2"]);
    const now = emulator.snapshot().devices.find((d) => d.id === device.id);
    expect(now).toMatchObject({ name: "North 02", groupId: pulumiOutputs(repaired.outputs).siteId });
  });

  it("promoting another version updates the channel in place; destroy leaves devices and the version", async () => {
    const promoted = await engine.up(program("2.4.1"));
    expect(promoted.errors).toEqual([]);
    expect(promoted.steps.update.map((s) => s.name)).toEqual(["production-version"]);
    expect(pulumiOutputs(promoted.outputs).version).toBe("2.4.1");

    const destroyed = await engine.destroy();
    expect(destroyed.errors).toEqual([]);
    const snapshot = emulator.snapshot();
    expect(snapshot.groups.find((g) => g.name === "North")).toBeUndefined();
    expect(snapshot.tags.find((t) => t.name === "north")).toBeUndefined();
    expect(
      snapshot.releaseChannels.find((c) => c.name === "Production" && c.version === "2.4.1"),
    ).toBeDefined();
    // The headsets stay enrolled with their names (the group's deletion ungrouped them).
    const names = snapshot.devices.filter((d) => serials.includes(d.serialNumber)).map((d) => d.name);
    expect(names.sort()).toEqual(["North 01", "North 02", "North 03"]);
  });
});
