// The names the drift report puts beside the ids it shows, against the emulator from a real stack export (a
// program run through the real Pulumi CLI): apps, videos, images, a 3D environment and themes in experiences,
// the builds and the bundle of a channel, each named from one read of its list; a name with control characters
// shown as escapes. Then a checkpoint file of the file backend, read as the export is.
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { gzipSync } from "zlib";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { createEngine, type Engine } from "../engine";
import * as dm from "../../provider";
import { DeviceMgmtClient, type ImageType } from "../../provider/client";
import { EXIT } from "../../provider/drift/cli";
import type { Finding } from "../../provider/drift/report";
import { markdownText } from "../../provider/printable";
import { brief, runDrift, stackExport, type DriftRun } from "./support";
import { SHARED_MODE_SETTINGS as SHARED } from "../fixtures/declarations";

const repoRoot = path.resolve(__dirname, "../..");
/** What the portal names an app: a terminal control sequence and a bidirectional override in it. */
const HOSTILE_NAME = "Warehouse\u001b[2J Picker\u202e";

let emulator: RunningEmulator;
let engine: Engine;
let ada: DeviceMgmtClient;
let workDir: string;
let stateFile: string;
const ids: Record<string, string> = {};

const env = () => ({ DEVICEMGMT_BASE_URL: emulator.baseUrl, DEVICEMGMT_API_TOKEN: emulator.tokens.readOnly });

/** The home site's menu: as the program declares it, and as the portal sets it with other ids. */
const home = (
  video: string,
  menuIcon: string,
  background:
    | { type: "custom-3d-environment"; custom3DEnvironmentId: string }
    | { type: "360-background"; threeSixtyImageId: string },
  theme: string,
) => ({
  visibleContents: [
    { type: "app" as const, id: ids.simulator },
    { type: "video" as const, id: video },
  ],
  language: "en" as const,
  menuTitle: "Acme",
  menuIconImageId: menuIcon,
  removePoweredByArborXrBranding: false,
  shortcuts: [],
  categorizationTags: [],
  background,
  themeId: theme,
  sharedModeSettings: SHARED,
});

/** A home site, a kiosk site, an ungrouped headset on a launcher, and the Beta channel on a bundle. */
function program() {
  new dm.HeadsetExperience("home", {
    groupId: ids.homeSite,
    mode: "arborxr-home",
    ...home(
      ids.tour,
      ids.acmeIcon,
      { type: "custom-3d-environment", custom3DEnvironmentId: ids.showroom },
      ids.brand,
    ),
  });
  new dm.HeadsetExperience("kiosk", {
    groupId: ids.kioskSite,
    mode: "arborxr-kiosk",
    kioskContent: { type: "app", id: ids.simulator },
    isMenuEnabled: false,
    sharedModeSettings: SHARED,
  });
  new dm.DeviceExperience("lone-launcher", {
    deviceId: ids.lone,
    mode: "in-house-launcher",
    launcherContent: { type: "app", id: ids.simulator },
    visibleContents: [{ type: "app", id: ids.simulator }],
  });
  new dm.ReleaseChannelVersion("beta-bundle", {
    appId: ids.simulator,
    releaseChannelId: ids.beta,
    bundleId: ids.bundle,
  });
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "drift-names-"));
  ada = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
  for (const name of ["Home Site", "Kiosk Site"]) {
    const site = await ada.groups.create({ name, parentId: null });
    ids[name === "Home Site" ? "homeSite" : "kioskSite"] = (await ada.groups.configure(site.id)).id;
  }
  ids.lone = (await ada.devices.all()).find((d) => !d.group)!.id;
  const apps = await ada.apps.all();
  const app = (name: string) => apps.find((a) => a.name === name)!.id;
  ids.simulator = app("Training Simulator");
  ids.safety = app("Safety Briefing");
  ids.picker = app("Warehouse Picker");
  const videos = await ada.videos.all();
  ids.tour = videos.find((v) => v.name === "Welcome Tour")!.id;
  ids.drill = videos.find((v) => v.name === "Evacuation Drill")!.id;
  const image = async (type: ImageType, name: string) =>
    (await ada.images.all(type)).find((i) => i.originalFileName === name)!.id;
  ids.acmeIcon = await image("headset-xp-menu-icon", "acme-menu-icon.png");
  ids.systemIcon = await image("headset-xp-menu-icon", "arborxr-menu-icon.png");
  ids.floor360 = await image("three-sixty-background", "warehouse-floor-360.jpg");
  ids.showroom = (await ada.custom3DEnvironments.all()).find((e) => e.objectName === "acme-showroom.glb")!.id;
  const themes = await ada.themes.all();
  ids.brand = themes.find((t) => t.name === "Acme Brand")!.id;
  ids.dark = themes.find((t) => t.name === "ArborXR Dark")!.id;
  ids.beta = (await ada.apps.releaseChannels(ids.simulator).all()).find((c) => c.name === "Beta")!.id;
  const builds = await ada.releases.versions(ids.simulator).all();
  ids.build230 = builds.find((b) => b.version === "2.3.0")!.id;
  ids.build241 = builds.find((b) => b.version === "2.4.1")!.id;
  const bundle = (await ada.releases.bundles(ids.simulator).all()).find(
    (b) => b.appBuild?.id === ids.build230,
  )!;
  ids.bundle = bundle.id;
  // The portal labels the bundle: its name in the organization.
  await ada.appBundles.setLabel(bundle.id, "Field kit");
  engine = await createEngine({
    cwd: repoRoot,
    project: "acme-names",
    stack: "production",
    config: { "devicemgmt:baseUrl": emulator.baseUrl },
    secretConfig: { "devicemgmt:apiToken": emulator.tokens.multiOrgAdmin },
  });
  expect((await engine.up(program)).errors).toEqual([]);
  stateFile = path.join(workDir, "names.json");
  await engine.saveState(stateFile);
}, 120_000);

afterAll(async () => {
  await engine?.close();
  await emulator?.close();
});

/** Only the kinds this stack manages: people, groups and the tag catalogue are other tests' business. */
const KINDS = ["--kinds", "headsetExperience,deviceExperience,releaseChannelVersion"];

describe("ids changed in the portal, with another person's token", () => {
  let run: DriftRun;
  let reads: Record<string, number>;

  beforeAll(async () => {
    // The kiosk app's name, as the portal lets anyone who edits the organization write it.
    await ada.apps.update(ids.picker, { name: HOSTILE_NAME });
    // The portal sends the whole experience, the PIN as it was.
    const { adminPin } = await ada.headsetExperiences.get({ groupId: ids.homeSite });
    await ada.headsetExperiences.set({ groupId: ids.homeSite }, "arborxr-home", {
      ...home(
        ids.drill,
        ids.systemIcon,
        { type: "360-background", threeSixtyImageId: ids.floor360 },
        ids.dark,
      ),
      adminPin,
    });
    await ada.headsetExperiences.set({ groupId: ids.kioskSite }, "arborxr-kiosk", {
      kioskContent: { type: "app", id: ids.picker },
      isMenuEnabled: false,
      sharedModeSettings: SHARED,
    });
    await ada.deviceExperiences.set({ deviceId: ids.lone }, "in-house-launcher", {
      launcherContent: { type: "app", id: ids.safety },
      visibleContents: [{ type: "app", id: ids.simulator }],
    });
    await ada.releases.setChannelVersion(ids.simulator, ids.beta, { versionId: ids.build241 });
    emulator.resetStats();
    run = await runDrift(workDir, [...KINDS, stateFile], env());
    reads = emulator.stats().byRoute;
  }, 60_000);

  const findingOf = (pattern: RegExp): Finding => {
    const found = run.report.findings.filter((f) => pattern.test(brief(f)));
    expect(found).toHaveLength(1);
    return found[0];
  };
  const differences = (f: Finding) =>
    Object.fromEntries(f.differences.map((d) => [d.field, [d.state, d.live]]));

  it("reports the four changes and writes nothing", () => {
    expect(run.report.findings.map((f) => `${f.category} ${f.kind}`).sort()).toEqual([
      "changed deviceExperience",
      "changed headsetExperience",
      "changed headsetExperience",
      "changed releaseChannelVersion",
    ]);
    expect(run.code).toBe(EXIT.found);
    expect(emulator.stats().writes).toBe(0);
  });

  it("a home experience: the video, the menu icon, the background (environment, then 360 image) and the theme by name", () => {
    const found = findingOf(/^changed headsetExperience .*"Home Site"/);
    expect(differences(found)).toEqual({
      visibleContents: [
        `[{"id":"${ids.simulator} 'Training Simulator'","type":"app"},{"id":"${ids.tour} 'Welcome Tour'","type":"video"}]`,
        `[{"id":"${ids.simulator} 'Training Simulator'","type":"app"},{"id":"${ids.drill} 'Evacuation Drill'","type":"video"}]`,
      ],
      menuIconImageId: [`${ids.acmeIcon} 'acme-menu-icon.png'`, `${ids.systemIcon} 'arborxr-menu-icon.png'`],
      background: [
        `{"custom3DEnvironmentId":"${ids.showroom} 'acme-showroom.glb'","type":"custom-3d-environment"}`,
        `{"threeSixtyImageId":"${ids.floor360} 'warehouse-floor-360.jpg'","type":"360-background"}`,
      ],
      themeId: [`${ids.brand} 'Acme Brand'`, `${ids.dark} 'ArborXR Dark'`],
    });
  });

  it("a device's launcher switched to another app: both apps by name, the keys in one order", () => {
    const found = findingOf(/^changed deviceExperience /);
    expect(differences(found)).toEqual({
      launcherContent: [
        `{"id":"${ids.simulator} 'Training Simulator'","type":"app"}`,
        `{"id":"${ids.safety} 'Safety Briefing'","type":"app"}`,
      ],
    });
  });

  it("a channel moved off its bundle: the builds by version, the bundle by its label", () => {
    const found = findingOf(/^changed releaseChannelVersion /);
    expect(differences(found)).toEqual({
      versionId: [`${ids.build230} '2.3.0'`, `${ids.build241} '2.4.1'`],
      version: ["2.3.0", "2.4.1"],
      bundleId: [`${ids.bundle} 'Field kit'`, "null"],
    });
    expect(run.markdown).toContain(`\`bundleId\`: state ${ids.bundle} 'Field kit' → live null`);
  });

  it("a kiosk app's name with control characters: shown as escapes in the JSON file, the Markdown and stdout", () => {
    const found = findingOf(/^changed headsetExperience .*"Kiosk Site"/);
    const live = `{"id":"${ids.picker} '${HOSTILE_NAME}'","type":"app"}`;
    expect(differences(found)).toEqual({
      kioskContent: [`{"id":"${ids.simulator} 'Training Simulator'","type":"app"}`, live],
    });
    for (const output of [run.json, run.markdown, run.stdout, run.stderr]) {
      expect(output).not.toContain("\u001b");
      expect(output).not.toContain("\u202e");
    }
    expect(run.json).toContain(String.raw`'Warehouse\u001b[2J Picker\u202E'`);
    expect(run.markdown).toContain(markdownText(live));
    expect(markdownText(live)).toContain(String.raw`Warehouse\\u001B\[2J Picker\\u202E`);
  });

  it("names cost one read of each list: apps, videos, themes and environments once, images once per type, builds and bundles once for the app", () => {
    expect(reads).toMatchObject({
      "GET /apps": 1,
      "GET /videos": 1,
      "GET /themes": 1,
      "GET /custom-3d-environments": 1,
      "GET /images": 2,
      "GET /apps/{appId}/versions": 1,
      "GET /apps/{appId}/app-bundles": 1,
    });
    expect(reads["GET /images/{imageId}"]).toBeUndefined();
  });
});

describe("a file backend's checkpoint file (~/.pulumi/stacks/<project>/<stack>.json)", () => {
  it("is read as the stack export is, gzipped or not", async () => {
    const checkpointFile = engine.checkpointFile();
    const checkpoint = JSON.parse(fs.readFileSync(checkpointFile, "utf8")) as Record<string, unknown>;
    expect(checkpoint).toMatchObject({
      version: 3,
      checkpoint: { latest: { resources: expect.any(Array) } },
    });
    expect(checkpoint.deployment).toBeUndefined();
    const gzipped = path.join(workDir, "production.json.gz");
    fs.writeFileSync(gzipped, gzipSync(fs.readFileSync(checkpointFile)));
    const exported = await runDrift(workDir, [...KINDS, stateFile], env());
    for (const file of [checkpointFile, gzipped]) {
      const run = await runDrift(workDir, [...KINDS, file], env());
      expect(run.stderr).not.toMatch(/not a stack export|error/i);
      expect(run.report.stacks).toEqual([{ stack: "acme-names/production", file, resources: 4 }]);
      expect(run.report.findings).toEqual(exported.report.findings);
      expect(run.code).toBe(exported.code);
    }
  });
});

describe("builds and bundles a stack uploaded", () => {
  it("an AppVersion is labelled with its app's name, gone or changed; an AppBundle's build by its version", async () => {
    const gone = "0b9b7f8e-5a55-4c3c-9f0e-6d3b1f0a2c11";
    const file = path.join(workDir, "builds.json");
    const sha256 = "0".repeat(64);
    fs.writeFileSync(
      file,
      stackExport("acme-builds", [
        {
          type: "AppVersion",
          name: "gone-build",
          id: gone,
          props: { appId: ids.simulator, versionName: "9.9.9", sha256 },
        },
        {
          type: "AppVersion",
          name: "rebuilt",
          id: ids.build241,
          props: { appId: ids.simulator, versionName: "2.4.1", sha256 },
        },
        {
          // The state says the bundle holds 2.4.1; the organization's bundle holds 2.3.0.
          type: "AppBundle",
          name: "field-kit",
          id: ids.bundle,
          props: { appId: ids.simulator, versionId: ids.build241, files: [], label: "Field kit" },
        },
      ]),
    );
    const run = await runDrift(workDir, ["--kinds", "appVersion,appBundle", file], env());
    expect(run.report.findings.map(brief).sort()).toEqual([
      'changed appBundle "Field kit"',
      'changed appVersion "2.4.1" of "Training Simulator"',
      `gone appVersion "9.9.9" of app ${ids.simulator} 'Training Simulator'`,
    ]);
    const bundle = run.report.findings.find((f) => f.kind === "appBundle")!;
    expect(bundle.differences.find((d) => d.field === "versionId")).toEqual({
      field: "versionId",
      state: `${ids.build241} '2.4.1'`,
      live: `${ids.build230} '2.3.0'`,
    });
    // A state whose app id is no app's: its builds cannot be listed, so they show by id, and the report is made.
    const odd = path.join(workDir, "odd-app.json");
    fs.writeFileSync(
      odd,
      stackExport("acme-builds", [
        {
          type: "AppBundle",
          name: "field-kit",
          id: ids.bundle,
          props: { appId: "not-an-app", versionId: ids.build241, files: [], label: "Field kit" },
        },
      ]),
    );
    const oddRun = await runDrift(workDir, ["--kinds", "appBundle", odd], env());
    expect(oddRun.code).toBe(EXIT.found);
    expect(oddRun.report.findings[0].differences.find((d) => d.field === "versionId")).toEqual({
      field: "versionId",
      state: ids.build241,
      live: ids.build230,
    });
  });
});
