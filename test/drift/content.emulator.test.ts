// The drift report on the kinds of experiences, tags, content and releases, against the emulator from a real
// stack export: a program run through the real Pulumi CLI (the SDK's dynamic-provider plugin, the real
// provider), then changes made outside Pulumi with another person's token, as in the portal.
import { holdsSecret } from "../fixtures/secrets";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { createEngine, type Engine } from "../engine";
import * as dm from "../../provider";
import { DeviceMgmtClient, type Tag } from "../../provider/client";
import { EXIT } from "../../provider/drift/cli";
import { SECRET_SIGNATURE_KEY } from "../../provider/drift/state";
import type { Finding } from "../../provider/drift/report";
import { brief, runDrift, type DriftRun } from "./support";
import { SHARED_MODE_SETTINGS as SHARED, THEME_COLOURS } from "../fixtures/declarations";

const repoRoot = path.resolve(__dirname, "../..");
const ADA = "ada.admin@acme.example";
const PIN = "582913";

let emulator: RunningEmulator;
let engine: Engine;
let ada: DeviceMgmtClient;
let workDir: string;
let stateFile: string;
let ignoreFile: string;
let seededTags: Tag[];
let siteId: string;
let loneId: string;
/** How the report names the ungrouped headset: `device "<name>" (<serial>)`. */
let lone: string;
/** The same, as the report names it beside its id in a label made from the state. */
let loneNamed: string;
let simulatorId: string;
let safetyId: string;
let manualId: string;
let productionId: string;
let versions: Record<string, string>;

const env = () => ({ DEVICEMGMT_BASE_URL: emulator.baseUrl, DEVICEMGMT_API_TOKEN: emulator.tokens.readOnly });

/** A kiosk site (PIN from a secret) and one ungrouped headset locked, with its manual and a video; the catalogue's tags; Production pinned and shared. */
function program() {
  const config = new pulumi.Config("site");
  for (const tag of seededTags) new dm.Tag(`tag-${tag.name}`, { name: tag.name, adoptId: tag.id });
  const drills = new dm.Tag("drills", { name: "drills" });
  new dm.TagSet("simulator-tags", { ownerType: "app", ownerId: simulatorId, tags: ["training"] });
  const brand = new dm.Theme("kiosk-theme", {
    name: "Kiosk Theme",
    ...THEME_COLOURS,
  });
  const icon = dm.getImageOutput({ name: "acme-menu-icon.png", type: "headset-xp-menu-icon" });
  new dm.HeadsetExperience("site-kiosk", {
    groupId: siteId,
    mode: "arborxr-kiosk",
    isMenuEnabled: true,
    kioskContent: { type: "app", id: simulatorId },
    language: "en",
    menuIconImageId: icon.id,
    removePoweredByArborXrBranding: false,
    themeId: brand.id,
    adminPin: config.requireSecret("kioskPin"),
    sharedModeSettings: SHARED,
  });
  new dm.TagSet("site-tags", { ownerType: "group", ownerId: siteId, tags: [drills.name] });
  new dm.DeviceExperience("lone-lock", {
    deviceId: loneId,
    mode: "lock-task",
    visibleContents: [{ type: "app", id: simulatorId }],
  });
  const manual = dm.getFileOutput({ filename: "safety-manual.pdf" });
  new dm.GroupFile("site-manual", { groupId: siteId, fileId: manual.id });
  new dm.DeviceFile("lone-manual", { deviceId: loneId, fileId: manual.id });
  const tour = dm.getVideoOutput({ name: "Welcome Tour" });
  new dm.DeviceVideo("lone-tour", { deviceId: loneId, videoId: tour.id });
  new dm.ReleaseChannelVersion("production-version", {
    appId: simulatorId,
    releaseChannelId: productionId,
    versionId: versions["2.4.0"],
  });
  new dm.ReleaseChannelShare("production-to-staging", {
    appId: simulatorId,
    releaseChannelId: productionId,
    organizationSlug: "acme-staging",
  });
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "drift-content-"));
  ada = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
  seededTags = await ada.tags.all();
  // The site is the portal's: configured there, its experience and content declared by the stack.
  const site = await ada.groups.create({ name: "Kiosk Site", parentId: null });
  siteId = (await ada.groups.configure(site.id)).id;
  const device = (await ada.devices.all()).find((d) => !d.group)!;
  loneId = device.id;
  lone = `device "${device.name}" (${device.serialNumber})`;
  loneNamed = `${device.id} '${device.name}' (${device.serialNumber})`;
  const apps = await ada.apps.all();
  simulatorId = apps.find((a) => a.name === "Training Simulator")!.id;
  safetyId = apps.find((a) => a.name === "Safety Briefing")!.id;
  productionId = (await ada.apps.releaseChannels(simulatorId).all()).find((c) => c.name === "Production")!.id;
  versions = Object.fromEntries(
    (await ada.releases.versions(simulatorId).all()).map((v) => [String(v.version), v.id]),
  );
  engine = await createEngine({
    cwd: repoRoot,
    project: "acme-content",
    stack: "production",
    config: { "devicemgmt:baseUrl": emulator.baseUrl },
    secretConfig: { "devicemgmt:apiToken": emulator.tokens.multiOrgAdmin, "site:kioskPin": PIN },
  });
  expect((await engine.up(program)).errors).toEqual([]);
  stateFile = path.join(workDir, "content.json");
  await engine.saveState(stateFile);
  ignoreFile = path.join(workDir, "drift-ignore");
  fs.writeFileSync(
    ignoreFile,
    [
      "# people and the portal's own objects, outside this test's stack",
      "user *",
      "group Kiosk Site",
      "theme Acme Brand",
      "",
    ].join("\n"),
  );
}, 120_000);

afterAll(async () => {
  await engine?.close();
  await emulator?.close();
});

/** Neither the PIN nor anything that holds it appears in what the report writes. */
function expectNoPin(run: DriftRun) {
  for (const output of [run.markdown, run.json, run.stdout, run.stderr])
    expect(holdsSecret(output, PIN)).toBe(false);
}

describe("an organization that matches the stack", () => {
  it("reports nothing, and names what the API cannot show as not compared, with why", async () => {
    emulator.resetStats();
    const run = await runDrift(workDir, ["--ignore", ignoreFile, stateFile], env());
    expect(run.report.findings.map(brief)).toEqual([]);
    expect(run.code).toBe(EXIT.clean);
    expect(emulator.stats().writes).toBe(0);
    expect(run.report.kinds).toEqual(
      expect.arrayContaining([
        "headsetExperience",
        "deviceExperience",
        "tag",
        "tagSet",
        "deviceFile",
        "deviceVideo",
        "releaseChannelVersion",
      ]),
    );
    expect(run.report.notCompared.map((n) => [n.kind, n.resources, n.reason]).sort()).toEqual([
      ["groupFile", 1, expect.stringMatching(/no list of a group's files/)],
      ["releaseChannelShare", 1, expect.stringMatching(/cannot list a channel's shares/)],
      ["tagSet", 1, expect.stringMatching(/group's representation .* has no tags/)],
    ]);
    expect(run.markdown).toContain("\n- 1 groupFile: the API documents no list of a group's files");
    // The experiences were read (one GET per managed owner), and the PIN the API shows is not printed.
    expect(emulator.stats().byRoute["GET /groups/{groupId}/headset-experience"]).toBe(1);
    expect(emulator.stats().byRoute["GET /devices/{deviceId}/device-experience"]).toBe(1);
    expect((await ada.headsetExperiences.get({ groupId: siteId })).adminPin).toBe(PIN);
    expectNoPin(run);
  });
});

describe("changes made in the portal, with another person's token", () => {
  let run: DriftRun;
  let before: number;

  beforeAll(async () => {
    const drills = (await ada.tags.all("drills"))[0];
    manualId = (await ada.files.all()).find((f) => f.filename === "safety-manual.pdf")!.id;
    const drill = (await ada.videos.all()).find((v) => v.name === "Evacuation Drill")!;
    const kiosk = await ada.headsetExperiences.get({ groupId: siteId });
    before = Date.now();
    await ada.tags.update(drills.id, "fire-drills");
    await ada.tags.create("contractors");
    await ada.tags.attach("apps", simulatorId, ["safety"]);
    // The kiosk now shows another app; the PIN stays as it was (the portal sends it back).
    await ada.headsetExperiences.set({ groupId: siteId }, "arborxr-kiosk", {
      kioskContent: { type: "app", id: safetyId },
      isMenuEnabled: true,
      language: "en",
      menuIconImageId: kiosk.menuIconImageId,
      removePoweredByArborXrBranding: false,
      themeId: kiosk.themeId,
      adminPin: PIN,
      sharedModeSettings: SHARED,
    });
    await ada.deviceExperiences.set({ deviceId: loneId }, "default-home", {});
    await ada.deviceContent.removeFile(loneId, manualId);
    await ada.deviceContent.addVideo(loneId, drill.id);
    await ada.releases.setChannelVersion(simulatorId, productionId, { versionId: versions["2.4.1"] });
    emulator.resetStats();
    run = await runDrift(workDir, ["--ignore", ignoreFile, stateFile], env());
  }, 60_000);

  const findingOf = (pattern: RegExp): Finding => {
    const found = run.report.findings.filter((f) => pattern.test(brief(f)));
    expect(found).toHaveLength(1);
    return found[0];
  };

  /** The newest audit record is Ada's, of this action, made during the changes. */
  const expectByAda = (f: Finding, action: string) => {
    expect(f.audit[0]).toMatchObject({ who: ADA, action });
    expect(Date.parse(f.audit[0].at)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
  };

  it("reports each change once, and writes nothing", () => {
    expect(run.report.findings.map(brief).sort()).toEqual([
      `changed deviceExperience device experience of ${lone}: default-home`,
      expect.stringMatching(
        /^changed headsetExperience headset experience of group "Kiosk Site": arborxr-kiosk$/,
      ),
      'changed releaseChannelVersion "Training Simulator / Production" delivers 2.4.1',
      'changed tag "fire-drills"',
      'changed tagSet tags of app "Training Simulator": training, safety',
      `gone deviceFile file ${manualId} 'safety-manual.pdf' on device ${loneNamed}`,
      `unmanaged deviceVideo video "Evacuation Drill" on ${lone}`,
      'unmanaged tag "contractors"',
    ]);
    expect(run.code).toBe(EXIT.found);
    expect(emulator.stats().writes).toBe(0);
  });

  it("a stack export with its secrets in plain text (`--show-secrets`) reports the same, without the PIN", async () => {
    const exported = fs.readFileSync(stateFile, "utf8");
    expect(holdsSecret(exported, PIN)).toBe(false);
    expect(exported).toContain(SECRET_SIGNATURE_KEY);
    const shownFile = path.join(workDir, "content-show-secrets.json");
    await engine.saveState(shownFile, { showSecrets: true });
    const shown = fs.readFileSync(shownFile, "utf8");
    expect(shown).toContain(PIN);
    expect(shown).not.toContain('"ciphertext"');
    const plain = await runDrift(workDir, ["--ignore", ignoreFile, shownFile], env());
    expect(plain.report.findings.map(brief)).toEqual(run.report.findings.map(brief));
    expectNoPin(plain);
    expectNoPin(run);
  });

  it("a headset experience changed: the field, who and when; the PIN nowhere", () => {
    const found = findingOf(/^changed headsetExperience/);
    // Both apps by name, the keys in one order (the state wrote them as declared, the API in its own order).
    expect(found.differences).toEqual([
      {
        field: "kioskContent",
        state: `{"id":"${simulatorId} 'Training Simulator'","type":"app"}`,
        live: `{"id":"${safetyId} 'Safety Briefing'","type":"app"}`,
      },
    ]);
    expectByAda(found, "configure-headset-experience");
    expectNoPin(run);
  });

  it("a device experience set to the default home: the mode and the field it lost, who", () => {
    const found = findingOf(/^changed deviceExperience/);
    expect(found.differences.map((d) => [d.field, d.live])).toEqual([
      ["mode", "default-home"],
      ["visibleContents", "null"],
    ]);
    expectByAda(found, "configure-device-experience");
  });

  it("a renamed tag and an unmanaged one, with who", () => {
    const renamed = findingOf(/^changed tag /);
    expect(renamed.differences).toEqual([{ field: "name", state: "drills", live: "fire-drills" }]);
    expectByAda(renamed, "update-tag");
    expectByAda(findingOf(/^unmanaged tag "contractors"/), "create-tag");
  });

  it("a tag added to an app whose set a stack declares, with who", () => {
    const found = findingOf(/^changed tagSet /);
    expect(found.differences).toEqual([
      { field: "tags", state: '["training"]', live: '["training","safety"]' },
    ]);
    expectByAda(found, "attach-tags-to-app");
  });

  it("a device's file detached and a video attached, with who (only the records about that item)", () => {
    const gone = findingOf(/^gone deviceFile /);
    expect(gone.managedBy).toEqual(["acme-content/production: lone-manual"]);
    expect(gone.audit.map((a) => a.action)).toEqual(["detach-file-from-device", "attach-file-to-device"]);
    expectByAda(gone, "detach-file-from-device");
    const video = findingOf(/^unmanaged deviceVideo /);
    expect(video.audit.map((a) => a.action)).toEqual(["attach-video-to-device"]);
    expectByAda(video, "attach-video-to-device");
  });

  it("a promotion made in the portal: the version, who and when", () => {
    const found = findingOf(/^changed releaseChannelVersion /);
    expect(found.differences).toEqual([
      { field: "versionId", state: `${versions["2.4.0"]} '2.4.0'`, live: `${versions["2.4.1"]} '2.4.1'` },
      { field: "version", state: "2.4.0", live: "2.4.1" },
    ]);
    expectByAda(found, "update-release-channel");
    expect(found.audit[0].what).toMatch(/from version '2\.4\.0' to '2\.4\.1'/);
  });
});
