// Export of what the headsets show: a production organization with a kiosk site (admin PIN, system theme), a
// home site (a custom theme of its own, apps, a video, a 360 background) and an ungrouped device in lock task.
// The export must never carry the PIN, must say which config secret to set, and its program must reproduce the
// experiences in a staging organization by name (asserted by reading that organization), manage production
// without a change on the second `up`, and list what a target lacks.
import { holdsSecret } from "../fixtures/secrets";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { DeviceMgmtClient, type HeadsetExperience } from "../../provider/client";
import { createEngine, type Engine, type RunResult } from "../engine";
import { generatedProgram, runExport, stackConfig, type Exported, WITHOUT_DEVICE_KINDS } from "./support";

const repoRoot = path.resolve(__dirname, "../..");
const PROJECT = "acme-org";
const PIN = "48151623";
const PIN_KEY = `${PROJECT}:berlinLabAdminPin`;

let emulator: RunningEmulator;
let workDir: string;
let exportDir: string;
let exported: Exported;
let prod: DeviceMgmtClient;
let staging: DeviceMgmtClient;
const engines: Engine[] = [];

const SHARED_MODE = {
  enableOfflineMode: false,
  requireManagedMetaLogin: false,
  enableControllerFree: true,
  adjustDeviceFit: true,
  defaultToStationaryBoundary: false,
};

async function engineFor(config: Record<string, string>, token: string, stack: string): Promise<Engine> {
  const engine = await createEngine({
    cwd: repoRoot,
    project: PROJECT,
    stack,
    config,
    secretConfig: { "devicemgmt:apiToken": token, [PIN_KEY]: PIN },
  });
  engines.push(engine);
  return engine;
}

const changes = (result: RunResult) => ({
  errors: result.errors,
  create: result.steps.create.map((s) => s.name),
  update: result.steps.update.map((s) => s.name),
  replace: result.steps.replace.map((s) => s.name),
  delete: result.steps.delete.map((s) => s.name),
});

const bySerialized = (a: unknown, b: unknown) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1);

/** An organization's experiences as a person compares them: by site, with every id replaced by its name. */
async function experiencesOf(client: DeviceMgmtClient) {
  const names = new Map<string, string>();
  for (const app of await client.apps.all()) names.set(app.id, `app ${app.name}`);
  for (const video of await client.videos.all()) names.set(video.id, `video ${video.name}`);
  for (const theme of await client.themes.all()) names.set(theme.id, `theme ${theme.name}`);
  for (const type of ["headset-xp-menu-icon", "three-sixty-background"] as const)
    for (const image of await client.images.all(type)) names.set(image.id, `image ${image.originalFileName}`);
  const named = (value: unknown): unknown =>
    typeof value === "string"
      ? (names.get(value) ?? value)
      : Array.isArray(value)
        ? value.map(named).sort(bySerialized) // a set: order is not compared
        : value && typeof value === "object"
          ? Object.fromEntries(
              Object.entries(value)
                .filter(([k]) => !["id", "createdAt", "updatedAt"].includes(k))
                .map(([k, v]) => [k, k === "adminPin" ? v : named(v)]),
            )
          : value;
  const groups = await client.groups.all();
  const group = (name: string) => groups.find((g) => g.name === name)!.id;
  const device = (await client.devices.all()).find((d) => d.name === "Headset 02")!.id;
  return {
    berlin: named(await client.headsetExperiences.get({ groupId: group("Berlin Lab") })),
    austin: named(await client.headsetExperiences.get({ groupId: group("Austin Lab") })),
    headset02: named(await client.deviceExperiences.get({ deviceId: device })),
  };
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "devicemgmt-export-xp-"));
  exportDir = path.join(workDir, PROJECT);
  prod = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.multiOrgAdmin });
  staging = new DeviceMgmtClient({
    baseUrl: emulator.baseUrl,
    apiToken: emulator.tokens.multiOrgAdminSecondary,
  });

  const site = async (name: string) =>
    prod.groups.configure((await prod.groups.create({ name, parentId: null })).id);
  const berlin = await site("Berlin Lab");
  const austin = await site("Austin Lab");
  const app = (await prod.apps.all()).find((a) => a.name === "Training Simulator")!;
  const video = (await prod.videos.all()).find((v) => v.name === "Welcome Tour")!;
  const themes = await prod.themes.all();
  const dark = themes.find((t) => t.name === "ArborXR Dark")!;
  const icon = (await prod.images.all("headset-xp-menu-icon")).find(
    (i) => i.originalFileName === "acme-menu-icon.png",
  )!;
  const floor = (await prod.images.all("three-sixty-background")).find(
    (i) => i.originalFileName === "warehouse-floor-360.jpg",
  )!;
  const nightShift = await prod.themes.create({
    name: "Night Shift",
    background1: "#101820",
    background2: "#1c2833",
    text: "#fdfefe",
    accent1: "#f39c12",
    accent2: "#27ae60",
    accent3: "#c0392b",
  });

  await prod.headsetExperiences.set({ groupId: berlin.id }, "arborxr-kiosk", {
    kioskContent: { type: "app", id: app.id },
    isMenuEnabled: true,
    language: "de",
    menuIconImageId: icon.id,
    removePoweredByArborXrBranding: false,
    themeId: dark.id,
    shortcuts: ["wifi-settings", "boundary"],
    adminPin: PIN,
    sharedModeSettings: SHARED_MODE,
  });
  await prod.headsetExperiences.set({ groupId: austin.id }, "arborxr-home", {
    visibleContents: [
      { type: "video", id: video.id },
      { type: "app", id: app.id },
    ],
    language: "en",
    menuIconImageId: icon.id,
    removePoweredByArborXrBranding: false,
    themeId: nightShift.id,
    menuTitle: "Austin Training",
    shortcuts: [],
    categorizationTags: ["safety", "onboarding"],
    background: { type: "360-background", threeSixtyImageId: floor.id },
    adminPin: null,
    sharedModeSettings: SHARED_MODE,
  });
  const headset02 = (await prod.devices.all()).find((d) => d.name === "Headset 02")!;
  await prod.deviceExperiences.set({ deviceId: headset02.id }, "lock-task", {
    visibleContents: [{ type: "app", id: app.id }],
  });

  exported = await runExport(
    [...WITHOUT_DEVICE_KINDS, "--match-base-url", emulator.baseUrl],
    exportDir,
    PROJECT,
    {
      DEVICEMGMT_BASE_URL: emulator.baseUrl,
      DEVICEMGMT_API_TOKEN: emulator.tokens.multiOrgAdmin,
      DEVICEMGMT_MATCH_API_TOKEN: emulator.tokens.multiOrgAdminSecondary,
    },
  );
});

afterAll(async () => {
  for (const engine of engines) await engine.close();
  await emulator?.close();
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

describe("export of experiences and themes", () => {
  it("declares the custom themes and each configured experience, and looks up what they show by name", () => {
    expect(exported.code).toBe(0);
    expect(exported.stdout).toMatch(/2 groups, .*, 2 themes, 3 experiences/);
    const index = exported.files["index.ts"];
    expect(index.match(/new dm\.HeadsetExperience\(/g)).toHaveLength(2);
    expect(index.match(/new dm\.DeviceExperience\(/g)).toHaveLength(1);
    expect(index).toContain('new dm.Theme(\n  "night-shift-theme"');
    expect(index).toContain('dm.getThemeOutput({ name: "ArborXR Dark", systemOwned: true })');
    expect(index).toContain('dm.getAppOutput({ name: "Training Simulator" })');
    expect(index).toContain('dm.getVideoOutput({ name: "Welcome Tour" })');
    expect(index).toContain(
      'dm.getImageOutput({ name: "acme-menu-icon.png", type: "headset-xp-menu-icon" })',
    );
    expect(index).toContain('dm.getDeviceOutput({ name: "Headset 02" })');
    // The home site refers to the theme the program declares, not to a lookup of it.
    expect(index).toMatch(/"austin-lab-headset-experience"[^]*themeId: nightShiftTheme\.id/);
    // Groups nobody configured an experience for, and other devices, get none.
    expect(index).not.toContain('"headset-01-');
  });

  it("never writes the PIN, takes it from a config secret and says which one to set", () => {
    const everything = [...Object.values(exported.files), exported.stdout, exported.stderr].join("\n");
    expect(holdsSecret(everything, PIN)).toBe(false);
    const index = exported.files["index.ts"];
    expect(index).toContain('adminPin: config.requireSecret("berlinLabAdminPin")');
    // The home site's API answered no PIN: the program declares none unless the user sets one.
    expect(index).toContain('adminPin: config.getSecret("austinLabAdminPin") ?? null');
    const readme = exported.files["README.md"];
    expect(readme).toContain(`pulumi config set --secret ${PIN_KEY} <PIN>`);
    expect(readme).toContain(`pulumi config set --secret ${PROJECT}:austinLabAdminPin <PIN>`);
  });

  it("in the staging README: themes adopted by name or created, experiences created, nothing missing", () => {
    const readme = exported.files["README.md"];
    const adopted = readme.split("### Adopted")[1].split("### Created")[0];
    const created = readme.split("### Created")[1].split("##")[0];
    expect(adopted).toContain('`acme-brand-theme` (Theme) theme "Acme Brand"');
    expect(created).toContain('`night-shift-theme` (Theme) theme "Night Shift"');
    expect(created).toContain(
      '`berlin-lab-headset-experience` (HeadsetExperience) headset experience of group "Berlin Lab"',
    );
    expect(created).toContain("`headset-02-device-experience` (DeviceExperience)");
    expect(readme).not.toContain("### Missing");
  });
});

describe("up of the exported program", () => {
  it("against production with its config sets what is already there, then changes nothing", async () => {
    const before = await experiencesOf(prod);
    const themesBefore = await prod.themes.all();
    const engine = await engineFor(
      stackConfig(path.join(exportDir, "Pulumi.production.yaml")),
      emulator.tokens.multiOrgAdmin,
      "production",
    );
    const first = await engine.up(generatedProgram(exportDir));
    expect(first.errors).toEqual([]);
    expect(await experiencesOf(prod)).toEqual(before);
    expect(await prod.themes.all()).toEqual(themesBefore);
    expect((before.berlin as HeadsetExperience).adminPin).toBe(PIN);

    const second = await engine.up(generatedProgram(exportDir));
    expect(changes(second)).toEqual({ errors: [], create: [], update: [], replace: [], delete: [] });
  });

  it("against staging with the staging config reproduces every experience by name, PIN included", async () => {
    const engine = await engineFor(
      stackConfig(path.join(exportDir, "Pulumi.staging.yaml")),
      emulator.tokens.multiOrgAdminSecondary,
      "staging",
    );
    const up = await engine.up(generatedProgram(exportDir));
    expect(up.errors).toEqual([]);
    const source = await experiencesOf(prod);
    const target = await experiencesOf(staging);
    expect(target).toEqual(source);
    expect(target.austin).toMatchObject({ mode: "arborxr-home", themeId: "theme Night Shift" });
    expect(target.berlin).toMatchObject({ mode: "arborxr-kiosk", adminPin: PIN });
    expect(target.headset02).toMatchObject({ mode: "lock-task", visibleContents: [{ type: "app" }] });

    const again = await engine.up(generatedProgram(exportDir));
    expect(changes(again)).toEqual({ errors: [], create: [], update: [], replace: [], delete: [] });

    // The PIN went from config into the organization and nowhere else in plain text.
    const stateFile = path.join(workDir, "staging-state.json");
    await engine.saveState(stateFile);
    expect(holdsSecret(fs.readFileSync(stateFile, "utf8"), PIN)).toBe(false);
    expect(holdsSecret(engine.stderr(), PIN)).toBe(false);
  });

  it("a target lacking what the program looks up by name is listed in the README", async () => {
    // Without themes exported, "Night Shift" is looked up, and staging has no custom theme of that name
    // (unless the previous test created it: remove it first).
    for (const theme of await staging.themes.all())
      if (theme.name === "Night Shift") await staging.themes.delete(theme.id).catch(() => undefined);
    const dir = path.join(workDir, "without-themes");
    const result = await runExport(
      ["--only", "groups,experiences", "--match-base-url", emulator.baseUrl],
      dir,
      PROJECT,
      {
        DEVICEMGMT_BASE_URL: emulator.baseUrl,
        DEVICEMGMT_API_TOKEN: emulator.tokens.multiOrgAdmin,
        DEVICEMGMT_MATCH_API_TOKEN: emulator.tokens.multiOrgAdminSecondary,
      },
    );
    expect(result.code).toBe(0);
    expect(result.files["index.ts"]).not.toContain("new dm.Theme(");
    expect(result.files["index.ts"]).toContain(
      'dm.getThemeOutput({ name: "Night Shift", systemOwned: false })',
    );
    const missing = result.files["README.md"].split("### Missing in acme-staging")[1].split("##")[0];
    expect(missing).toContain('the custom theme "Night Shift" (getTheme)');
    expect(missing).not.toContain("Training Simulator");
  });
});
