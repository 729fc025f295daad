// Refresh right after up shows nothing: outputs the organization changes by itself (a group's device count, the
// name of a device's group) are not recorded as a resource's state (issue #32).
import * as fs from "fs";
import * as os from "os";
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

/** A stack-created site and the stack's own headsets moved into it. */
const program = (siteName: string) => () => {
  const site = new dm.Group("site", { name: siteName, configured: true });
  serials.forEach((serialNumber, i) => new dm.Device(`headset-${i + 1}`, { serialNumber, groupId: site.id }));
  return { siteId: site.id };
};

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, seed: { devices: 4 } });
  admin = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
  serials = (await admin.devices.all()).slice(0, 2).map((d) => d.serialNumber);
  engine = await createEngine({
    cwd: repoRoot,
    project: "devicemgmt-refresh-quiet",
    config: { "devicemgmt:baseUrl": emulator.baseUrl },
    secretConfig: { "devicemgmt:apiToken": emulator.tokens.admin },
  });
});

/** What state records for the stack's resources (outputs, by name). */
const recorded = () =>
  Object.fromEntries(
    engine
      .resources()
      .filter((r) => r.custom)
      .map((r) => [r.name, r.outputs]),
  );

/**
 * The real engine's refresh judges a step by the inputs the read reports, so an output the organization changed
 * by itself shows as "unchanged" in the summary, yet is written into state (and `--expect-no-changes` fails on
 * it): what refresh records must equal what up recorded.
 */
async function expectQuietRefresh() {
  const before = recorded();
  const refreshed = await engine.refresh({ expectNoChanges: true });
  expect(refreshed.errors).toEqual([]);
  expect(refreshed.steps.update).toEqual([]);
  expect(refreshed.steps.delete).toEqual([]);
  expect(recorded()).toEqual(before);
}

afterAll(async () => {
  await engine?.close();
  await emulator?.close();
});

describe("refresh right after up", () => {
  it("shows nothing after the stack's devices move into a group the stack created", async () => {
    const up = await engine.up(program("Quiet Site"));
    expect(up.errors).toEqual([]);
    const siteId = up.outputs.siteId as string;
    expect(emulator.snapshot().devices.filter((d) => d.groupId === siteId)).toHaveLength(2);
    await expectQuietRefresh();
  });

  it("shows nothing after the group is renamed", async () => {
    const up = await engine.up(program("Renamed Site"));
    expect(up.errors).toEqual([]);
    expect(up.steps.update.map((s) => s.name)).toEqual(["site"]);
    const siteId = up.outputs.siteId as string;
    expect(emulator.snapshot().groups.find((g) => g.id === siteId)?.name).toBe("Renamed Site");
    await expectQuietRefresh();
  });

  it("state recorded before (with deviceCount and groupName) keeps them through refresh and up, unchanged", async () => {
    // What an earlier version recorded: the count and the group's name as they were then (stale now).
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "refresh-quiet-")), "state.json");
    await engine.saveState(file);
    const exported = JSON.parse(fs.readFileSync(file, "utf8")) as {
      deployment: { resources: { urn: string; outputs?: Record<string, unknown> }[] };
    };
    for (const resource of exported.deployment.resources) {
      if (resource.urn.endsWith("::site")) resource.outputs!.deviceCount = 7;
      if (/::headset-\d$/.test(resource.urn)) resource.outputs!.groupName = "Old Name";
    }
    fs.writeFileSync(file, JSON.stringify(exported));
    await engine.loadState(file);
    expect(engine.resource("site").outputs.deviceCount).toBe(7);

    await expectQuietRefresh();
    const again = await engine.up(program("Renamed Site"));
    expect(again.errors).toEqual([]);
    for (const kind of ["create", "update", "replace", "delete"] as const)
      expect(again.steps[kind]).toEqual([]);
    expect(engine.resource("site").outputs.deviceCount).toBe(7);
    expect(engine.resource("headset-1").outputs.groupName).toBe("Old Name");
  });
});
