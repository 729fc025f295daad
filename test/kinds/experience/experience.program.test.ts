// Themes and experiences as a whole program, driven the way `pulumi up` drives it: the real SDK runs the
// program, every resource goes to the real dynamic-provider plugin, and the emulator is the organization.
import { holdsSecret } from "../../fixtures/secrets";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { DeviceMgmtClient } from "../../../provider/client";
import { createEngine, type Engine } from "../../engine";
import * as dm from "../../../provider";
import { SHARED_MODE_SETTINGS as SHARED, THEME_COLOURS } from "../../fixtures/declarations";

const repoRoot = path.resolve(__dirname, "../../..");
const PIN = "739164";

let emulator: RunningEmulator;
let engine: Engine;
let admin: DeviceMgmtClient;
let siteId: string;
let loneDeviceId: string;

/** A kiosk site with a PIN and the brand theme, and one ungrouped headset locked to two apps. */
function program(overrides: { kioskApp?: string } = {}) {
  return () => {
    const config = new pulumi.Config("site");
    const brand = new dm.Theme("brand", {
      name: "Acme Kiosk",
      ...THEME_COLOURS,
    });
    const simulator = dm.getAppOutput({ name: overrides.kioskApp ?? "Training Simulator" });
    const safety = dm.getAppOutput({ name: "Safety Briefing" });
    const icon = dm.getImageOutput({ name: "acme-menu-icon.png", type: "headset-xp-menu-icon" });
    new dm.HeadsetExperience("site-kiosk", {
      groupId: siteId,
      mode: "arborxr-kiosk",
      isMenuEnabled: true,
      kioskContent: { type: "app", id: simulator.id },
      language: "en",
      menuIconImageId: icon.id,
      removePoweredByArborXrBranding: false,
      themeId: brand.id,
      adminPin: config.requireSecret("kioskPin"),
      sharedModeSettings: SHARED,
    });
    new dm.DeviceExperience("lone-lock", {
      deviceId: loneDeviceId,
      mode: "lock-task",
      visibleContents: [
        { type: "app", id: safety.id },
        { type: "app", id: simulator.id },
      ],
    });
    return { themeId: brand.id };
  };
}

const experience = (kind: "headset" | "device", holderId: string) =>
  emulator.snapshot().experiences.find((e) => e.kind === kind && e.holder.id === holderId);

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  admin = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
  const folder = await admin.groups.create({ name: "Sites", parentId: null });
  const site = await admin.groups.create({ name: "Lobby", parentId: folder.id });
  siteId = (await admin.groups.configure(site.id)).id;
  const [inSite, lone] = await admin.devices.all();
  await admin.devices.update(inSite.id, { groupId: siteId });
  loneDeviceId = lone.id;
  engine = await createEngine({
    cwd: repoRoot,
    project: "devicemgmt-experiences",
    config: { "devicemgmt:baseUrl": emulator.baseUrl },
    secretConfig: { "devicemgmt:apiToken": emulator.tokens.admin, "site:kioskPin": PIN },
  });
});

afterAll(async () => {
  await engine?.close();
  await emulator?.close();
});

describe("a kiosk site and a locked headset", () => {
  it("up configures both experiences and the theme", async () => {
    const result = await engine.up(program());
    expect(result.errors).toEqual([]);
    expect(result.steps.create.map((s) => s.name).sort()).toEqual(["brand", "lone-lock", "site-kiosk"]);
    const theme = emulator.snapshot().themes.find((t) => t.name === "Acme Kiosk");
    expect(theme?.id).toBe(result.outputs.themeId);
    const apps = await admin.apps.all();
    const id = (name: string) => apps.find((a) => a.name === name)!.id;
    expect(experience("headset", siteId)).toMatchObject({
      mode: "arborxr-kiosk",
      settings: {
        kioskContent: { type: "app", id: id("Training Simulator") },
        adminPin: PIN,
        themeId: theme?.id,
      },
    });
    expect(experience("device", loneDeviceId)).toMatchObject({ mode: "lock-task" });
  });

  it("up again changes nothing, and refresh with no outside change shows none", async () => {
    emulator.resetStats();
    const again = await engine.up(program());
    expect(again.errors).toEqual([]);
    for (const kind of ["create", "update", "replace", "delete"] as const)
      expect(again.steps[kind]).toEqual([]);
    expect(emulator.stats().writes).toBe(0);
    // Preview reads the organization only for what changed: here, the lookups' lists and nothing per experience.
    const routes = Object.keys(emulator.stats().byRoute);
    expect(routes).toContain("GET /apps"); // the lookups
    const perExperience =
      /experience|\/images\/\{|\/themes\/\{|^GET \/groups\/\{groupId\}$|^GET \/devices\/\{deviceId\}$/;
    expect(routes.filter((route) => perExperience.test(route))).toEqual([]);
    const refreshed = await engine.refresh();
    expect(refreshed.errors).toEqual([]);
    expect(refreshed.steps.update).toEqual([]);
    expect(refreshed.steps.delete).toEqual([]);
  });

  it("keeps the PIN out of state and the plugin's log (debug logging too), and marks it secret", async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "experience-state-")), "state.json");
    await engine.saveState(file);
    const state = fs.readFileSync(file, "utf8");
    expect(state).toContain("site-kiosk");
    expect(holdsSecret(state, PIN)).toBe(false);
    // Recorded encrypted, as input and as output (the SDK's secret signature wraps the ciphertext).
    const kiosk = (JSON.parse(state).checkpoint?.latest?.resources ?? JSON.parse(state).resources ?? [])
      .concat(JSON.parse(state).deployment?.resources ?? [])
      .find((r: { urn: string }) => r.urn.endsWith("::site-kiosk"));
    expect(kiosk?.inputs.adminPin).toMatchObject({
      "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
    });
    expect(kiosk?.outputs.adminPin).toMatchObject({
      "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
    });
    const debug = await engine.refresh({ env: { DEVICEMGMT_LOG: "debug" } });
    expect(debug.errors).toEqual([]);
    // The plugin's request log (its stderr) reaches the CLI's output as diagnostics of this very run.
    expect(debug.output).toMatch(/devicemgmt: GET \S*headset-experience/);
    expect(engine.stderr()).toMatch(/headset-experience/);
    expect(holdsSecret(engine.stderr(), PIN)).toBe(false);
  });

  it("refresh after a portal-style change shows exactly that change, and up repairs it", async () => {
    const apps = await admin.apps.all();
    const picker = apps.find((a) => a.name === "Warehouse Picker")!;
    await admin.deviceExperiences.set({ deviceId: loneDeviceId }, "lock-task", {
      visibleContents: [{ type: "app", id: picker.id }],
    });
    const refreshed = await engine.refresh();
    expect(refreshed.errors).toEqual([]);
    expect(refreshed.steps.update.map((s) => ({ name: s.name, changed: s.changedKeys }))).toEqual([
      { name: "lone-lock", changed: ["visibleContents"] },
    ]);
    const repaired = await engine.up(program());
    expect(repaired.errors).toEqual([]);
    expect(repaired.steps.update.map((s) => s.name)).toEqual(["lone-lock"]);
    const visible = (experience("device", loneDeviceId)?.settings.visibleContents as { id: string }[]).map(
      (c) => c.id,
    );
    expect(visible).not.toContain(picker.id);
    expect(visible).toHaveLength(2);
  });

  it("an edit updates the experience in place; a preview of a device in a group fails before any write", async () => {
    // Another app than the lock task's other one: an app listed twice is refused at preview (issue 40).
    const edited = await engine.up(program({ kioskApp: "Warehouse Picker" }));
    expect(edited.errors).toEqual([]);
    expect(edited.steps.update.map((s) => s.name).sort()).toEqual(["lone-lock", "site-kiosk"]);
    expect(edited.steps.replace).toEqual([]);
    const picker = (await admin.apps.all()).find((a) => a.name === "Warehouse Picker")!;
    expect(experience("headset", siteId)?.settings.kioskContent).toEqual({ type: "app", id: picker.id });
    expect(experience("headset", siteId)?.settings.adminPin).toBe(PIN);

    await admin.devices.update(loneDeviceId, { groupId: siteId });
    emulator.resetStats();
    const preview = await engine.preview(program({ kioskApp: "Warehouse Picker" }), { refresh: true });
    expect(preview.ok).toBe(false);
    expect(JSON.stringify(preview.errors)).toMatch(/deviceId: device .* is in group/);
    expect(emulator.stats().writes).toBe(0);
    await admin.devices.update(loneDeviceId, { groupId: null });
  });

  it("destroy removes the theme and leaves the experiences as they are", async () => {
    const result = await engine.destroy();
    expect(result.errors).toEqual([]);
    expect(emulator.snapshot().themes.find((t) => t.name === "Acme Kiosk")).toBeUndefined();
    expect(experience("headset", siteId)).toMatchObject({ mode: "arborxr-kiosk" });
    expect(experience("device", loneDeviceId)).toMatchObject({ mode: "lock-task" });
  });
});
