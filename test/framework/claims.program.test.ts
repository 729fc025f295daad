// One live object, one claimant, on the real engine: a program that declares one object twice (two Themes or
// Tags of one name, two TagSets on one app, two experiences on one group, two versions of one channel, one
// device twice) is refused with both resource names, and the organization keeps one object with the values of
// the declaration that stays; the program without the duplicate then converges.
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { DeviceMgmtClient } from "../../provider/client";
import { createEngine, type Engine } from "../engine";
import type { RunResult } from "../engine/types";
import * as dm from "../../provider";
import { SHARED_MODE_SETTINGS as SHARED, THEME_COLOURS } from "../fixtures/declarations";

const repoRoot = path.resolve(__dirname, "../..");

let emulator: RunningEmulator;
let engine: Engine;
let admin: DeviceMgmtClient;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, seed: { devices: 2 } });
  admin = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
  engine = await createEngine({
    cwd: repoRoot,
    project: "devicemgmt-claims",
    config: { "devicemgmt:baseUrl": emulator.baseUrl },
    secretConfig: { "devicemgmt:apiToken": emulator.tokens.admin },
  });
});

afterAll(async () => {
  await engine?.close();
  await emulator?.close();
});

/**
 * The refusal: the run fails, and one error names both resources and the way out. Returns the holder, the
 * resource the message says to keep (the refused one was never written).
 */
function expectRefused(result: RunResult, type: string, a: string, b: string): string {
  expect(result.ok).toBe(false);
  const text = result.errors.map((e) => [e.message, ...(e.failures ?? []).map((f) => f.reason)].join(" "));
  const refusal = text.find((t) => t.includes(`${type} "${a}"`) && t.includes(`${type} "${b}"`));
  expect(refusal ?? text).toEqual(expect.any(String)); // else: the errors the run did report
  expect(refusal).toContain("of this stack already declares");
  const holder = new RegExp(`which ${type} "([^"]+)" of this stack already declares`).exec(refusal!)![1];
  expect(refusal).toContain(`Remove the declaration of "${holder === a ? b : a}"`);
  return holder;
}

const colours = (accent: string) => ({ ...THEME_COLOURS, accent1: accent });

const customThemes = async (name: string) =>
  (await admin.themes.all()).filter((t) => !t.isSystemOwned && t.name === name);

test("two Themes of one name: refused, one theme remains with the kept declaration's colours", async () => {
  const declared: Record<string, string> = { "brand-a": "#F2AA4C", "brand-b": "#000000" };
  const theme = (name: string) => new dm.Theme(name, { name: "Brand", ...colours(declared[name]) });
  const both = await engine.up(() => void Object.keys(declared).forEach(theme));
  const kept = expectRefused(both, "Theme", "brand-a", "brand-b");
  expect((await customThemes("Brand")).length).toBeLessThanOrEqual(1);

  const one = await engine.up(() => void theme(kept));
  expect(one.errors).toEqual([]);
  const themes = await customThemes("Brand");
  expect(themes).toHaveLength(1);
  expect(themes[0].accent1.toUpperCase()).toBe(declared[kept]);
  expect(engine.resource(kept).id).toBe(themes[0].id);
});

test('Tags "dup" and "DUP" (the API compares tag names without case): refused, one tag remains', async () => {
  const declared: Record<string, string> = { "dup-lower": "dup", "dup-upper": "DUP" };
  const tag = (name: string) => new dm.Tag(name, { name: declared[name] });
  const both = await engine.up(() => void Object.keys(declared).forEach(tag));
  const kept = expectRefused(both, "Tag", "dup-lower", "dup-upper");
  const one = await engine.up(() => void tag(kept));
  expect(one.errors).toEqual([]);
  const tags = (await admin.tags.all()).filter((t) => t.name.toLowerCase() === "dup");
  expect(tags.map((t) => [t.id, t.name])).toEqual([[engine.resource(kept).id, declared[kept]]]);
});

test("two TagSets on one app: refused; the kept one's tags are the app's tags", async () => {
  const app = (await admin.apps.all()).find((a) => a.name === "Training Simulator");
  expect(app).toBeDefined();
  const declared: Record<string, string> = { "sim-tags": "safety", "sim-tags-too": "operations" };
  const tagSet = (name: string) =>
    new dm.TagSet(name, { ownerType: "app", ownerId: app!.id, tags: [declared[name]] });
  const both = await engine.up(() => void Object.keys(declared).forEach(tagSet));
  const kept = expectRefused(both, "TagSet", "sim-tags", "sim-tags-too");
  const one = await engine.up(() => void tagSet(kept));
  expect(one.errors).toEqual([]);
  expect((await admin.apps.get(app!.id)).tags?.map((t) => t.toLowerCase())).toEqual([declared[kept]]);
  const again = await engine.up(() => void tagSet(kept));
  expect(again.steps.update).toEqual([]);
});

test("two HeadsetExperiences on one group (its id known only at run time): refused, the kept one applies", async () => {
  const apps = await admin.apps.all();
  const declared: Record<string, string> = { "site-kiosk": apps[0].id, "site-kiosk-too": apps[1].id };
  const program = (names: string[]) => () => {
    const site = new dm.Group("site", { name: "Site", configured: true });
    for (const name of names)
      new dm.HeadsetExperience(name, {
        groupId: site.id,
        mode: "arborxr-kiosk",
        isMenuEnabled: false,
        kioskContent: { type: "app", id: declared[name] },
        sharedModeSettings: SHARED,
      });
  };
  const both = await engine.up(program(Object.keys(declared)));
  const kept = expectRefused(both, "HeadsetExperience", "site-kiosk", "site-kiosk-too");
  const one = await engine.up(program([kept]));
  expect(one.errors).toEqual([]);
  const groupId = String(engine.resource("site").id);
  const experience = emulator
    .snapshot()
    .experiences.filter((e) => e.kind === "headset" && JSON.stringify(e.holder).includes(groupId));
  expect(experience).toHaveLength(1);
  expect(experience[0].settings).toMatchObject({ kioskContent: { type: "app", id: declared[kept] } });
});

test("two ReleaseChannelVersions on one channel: refused; the channel ends on the kept one's version", async () => {
  const channel = emulator.snapshot().releaseChannels.find((c) => c.name === "Production")!;
  const appVersions = await admin.releases.versions(channel.appId).all();
  const [v1, v2] = appVersions.filter((v) => v.id !== channel.versionId);
  expect(v2).toBeDefined();
  const declared: Record<string, string> = { prod: v1.id, "prod-too": v2.id };
  const version = (name: string) =>
    new dm.ReleaseChannelVersion(name, {
      appId: channel.appId,
      releaseChannelId: channel.id,
      versionId: declared[name],
    });
  const both = await engine.up(() => void Object.keys(declared).forEach(version));
  const kept = expectRefused(both, "ReleaseChannelVersion", "prod", "prod-too");
  const one = await engine.up(() => void version(kept));
  expect(one.errors).toEqual([]);
  expect(emulator.snapshot().releaseChannels.find((c) => c.id === channel.id)!.versionId).toBe(
    declared[kept],
  );
});

test("one device declared by serial number and by id: refused before either rewrites the other", async () => {
  const [device] = await admin.devices.all();
  const declared: Record<string, dm.DeviceArgs> = {
    lobby: { serialNumber: device.serialNumber, name: "Lobby" },
    "lobby-by-id": { deviceId: device.id, name: "Front desk" },
  };
  const declare = (name: string) => new dm.Device(name, declared[name]);
  const both = await engine.up(() => void Object.keys(declared).forEach(declare));
  const kept = expectRefused(both, "Device", "lobby", "lobby-by-id");
  // Only the holder wrote: the device carries its name, or (refused before its create) the seeded one.
  expect([declared[kept].name, device.name]).toContain((await admin.devices.get(device.id)).name);
  const one = await engine.up(() => void declare(kept));
  expect(one.errors).toEqual([]);
  expect((await admin.devices.get(device.id)).name).toBe(declared[kept].name);
  const again = await engine.up(() => void declare(kept));
  expect(again.steps.update).toEqual([]);
});
