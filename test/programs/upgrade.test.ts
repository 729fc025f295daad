// A stack written by the previous release (every kind registered as pulumi-nodejs:dynamic:Resource) upgrades to
// per-kind type tokens through their aliases: no create, no delete, no replacement, the organization untouched.
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { createEngine, type Engine } from "../engine";
import { DeviceMgmtClient } from "../../provider/client";
import { LEGACY_TYPE } from "../../provider/dynamic";
import { legacyResource as legacy } from "../fixtures/legacyResource";
import { Group, GroupReleaseChannel, User } from "../../provider";

const repoRoot = path.resolve(__dirname, "../..");

let emulator: RunningEmulator;
let engine: Engine;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  engine = await createEngine({
    cwd: repoRoot,
    config: { "devicemgmt:baseUrl": emulator.baseUrl },
    secretConfig: { "devicemgmt:apiToken": emulator.tokens.admin },
  });
});

afterAll(async () => {
  await engine?.close();
  await emulator?.close();
});

test("a stack of the previous release upgrades through the aliases without touching the organization", async () => {
  const admin = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
  const roles = await admin.roles.all();
  const adminRole = roles.find((r) => r.name === "Admin")!.id;
  const app = (await admin.apps.all()).find((a) => a.name === "Training Simulator")!;
  const channels = await admin.apps.releaseChannels(app.id).all();
  const production = channels.find((c) => c.name === "Production")!.id;

  const written = await engine.up(() => {
    const site = legacy("group", "site", { name: "Upgrade Lab", parentId: null, configured: true });
    legacy("groupReleaseChannel", "site-production", { groupId: site.id, releaseChannelId: production });
    legacy("user", "ula", {
      firstName: "Ula",
      lastName: "Upgrade",
      email: "ula@acme.example",
      defaultRoleId: adminRole,
      groupRoles: [],
    });
  });
  expect(written.errors).toEqual([]);
  expect(engine.resources().map((r) => r.type)).toEqual(Array(3).fill(LEGACY_TYPE));
  const before = emulator.snapshot();

  const current = () => {
    const site = new Group("site", { name: "Upgrade Lab", configured: true });
    new GroupReleaseChannel("site-production", { groupId: site.id, releaseChannelId: production });
    new User("ula", {
      firstName: "Ula",
      lastName: "Upgrade",
      email: "ula@acme.example",
      defaultRoleId: adminRole,
    });
  };
  const upgraded = await engine.up(current);

  expect(upgraded.errors).toEqual([]);
  expect(upgraded.steps.create).toEqual([]);
  expect(upgraded.steps.replace).toEqual([]);
  expect(upgraded.steps.delete).toEqual([]);
  expect(upgraded.operations.filter((o) => o.op !== "update")).toEqual([]);
  expect(upgraded.steps.same.concat(upgraded.steps.update).map((s) => s.aliasOf)).toEqual([
    expect.stringContaining(`::${LEGACY_TYPE}::`),
    expect.stringContaining(`::${LEGACY_TYPE}::`),
    expect.stringContaining(`::${LEGACY_TYPE}::`),
  ]);
  expect(
    engine
      .resources()
      .map((r) => r.type)
      .sort(),
  ).toEqual([
    "pulumi-nodejs:dynamic/devicemgmt:Group",
    "pulumi-nodejs:dynamic/devicemgmt:GroupReleaseChannel",
    "pulumi-nodejs:dynamic/devicemgmt:User",
  ]);
  expect(emulator.snapshot()).toEqual(before);

  const again = await engine.up(current);
  expect(again.operations).toEqual([]);
});
