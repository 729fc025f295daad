// Issue 40 item 5 on the real Pulumi CLI: a rollout gate over a group that does not exist, and a group under a
// configured group, used to pass `pulumi preview` (the gate then failed after the channel had moved; the group
// failed at `up` with the API's 422). `pulumi preview` now fails with the property and the fix, and nothing
// reaches the emulator that writes.
import * as path from "path";
import type * as pulumi from "@pulumi/pulumi";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { DeviceMgmtClient } from "../../provider/client";
import { createEngine, type Engine, type RunResult } from "../engine";
import * as dm from "../../provider";

const repoRoot = path.resolve(__dirname, "../..");
const MISSING = "12121212-1212-4212-8212-121212121212";

let emulator: RunningEmulator;
let engine: Engine;
let admin: DeviceMgmtClient;
let site: string;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, seed: { devices: 2 } });
  admin = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
  site = (await admin.groups.configure((await admin.groups.create({ name: "Site", parentId: null })).id)).id;
  engine = await createEngine({
    cwd: repoRoot,
    project: "devicemgmt-preview-refusals",
    config: { "devicemgmt:baseUrl": emulator.baseUrl },
    secretConfig: { "devicemgmt:apiToken": emulator.tokens.admin },
  });
});

afterAll(async () => {
  await engine?.close();
  await emulator?.close();
});

const checkFailures = (result: RunResult) =>
  result.errors.flatMap((e) => (e.op === "check" ? (e.failures ?? []) : []));

it("a rollout gate over a group that does not exist fails preview and up; the channel does not move", async () => {
  const channel = () => emulator.snapshot().releaseChannels.find((c) => c.name === "Production");
  const before = channel()?.version;
  const program = () => {
    const production = dm.getReleaseChannelOutput({
      appName: "Training Simulator",
      channelName: "Production",
    });
    const target = dm.getAppVersionOutput({ appName: "Training Simulator", version: "2.4.0" });
    new dm.ReleaseChannelVersion("production-version", {
      appId: production.appId,
      releaseChannelId: production.id,
      versionId: target.id,
      rollout: { share: 1, timeoutSeconds: 5, groupIds: [site, MISSING] },
    });
  };
  emulator.resetStats();
  for (const result of [await engine.preview(program), await engine.up(program)]) {
    expect(result.ok).toBe(false);
    expect(checkFailures(result)).toEqual([
      {
        property: "rollout",
        reason: `rollout.groupIds[1]: group ${MISSING} does not exist in the organization (see getGroup).`,
      },
    ]);
  }
  expect(emulator.stats().writes).toBe(0);
  expect(channel()?.version).toBe(before);
  expect(before).not.toBe("2.4.0");
});

it("a group under a configured group fails preview, also when the program declares the parent configured", async () => {
  const room = (parentId: pulumi.Input<string>) => new dm.Group("room", { name: "Room", parentId });
  emulator.resetStats();
  const underSite = await engine.preview(() => {
    room(site);
  });
  expect(underSite.ok).toBe(false);
  expect(checkFailures(underSite)).toEqual([
    {
      property: "parentId",
      reason:
        `parentId: group ${site} ("Site") is configured, and configured groups are leaves (they hold devices and ` +
        `content, not groups): a group's parent must be an unconfigured group. Choose an unconfigured parent ` +
        `(or none: a root-level group).`,
    },
  ]);
  expect(emulator.stats().writes).toBe(0);

  // A parent of the same program declared configured: true, whether the stack has it already (the same change
  // configures it: its diff notes it before the child's check, which asks the organization and this run as the
  // plugin does, so both say the same) or the run creates it (no id at preview: the program knows, and check
  // refuses the child with the program's word).
  const folder = (configured: boolean) => new dm.Group("folder", { name: "Folder", configured });
  expect((await engine.up(() => void folder(false))).ok).toBe(true);
  const folderId = engine.resource("folder").id;
  emulator.resetStats();
  for (const [program, reason] of [
    [
      () => void room(folder(true).id),
      `parentId: group ${folderId} ("Folder") is declared configured, and configured groups are leaves (they hold ` +
        `devices and content, not groups): a group's parent must be an unconfigured group. Choose an unconfigured ` +
        `parent (or none: a root-level group).`,
    ],
    [
      () => void room(new dm.Group("new-site", { name: "New site", configured: true }).id),
      `parentId: the parent is Group "new-site" of this program, declared configured: true, and configured groups ` +
        `are leaves (they hold devices and content, not groups): a group's parent must be an unconfigured group. ` +
        `Choose an unconfigured parent (or none: a root-level group), or declare "new-site" unconfigured.`,
    ],
  ] as const) {
    const result = await engine.preview(program);
    expect(result.ok).toBe(false);
    expect(checkFailures(result)).toEqual([{ property: "parentId", reason }]);
  }
  expect(emulator.stats().writes).toBe(0);
  expect(emulator.snapshot().groups.map((g) => [g.name, g.isConfigured])).toEqual([
    ["Site", true],
    ["Folder", false],
  ]);
});
