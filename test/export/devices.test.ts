// Export of tags, device placement and channel versions (issue 20). Production is one emulator's "acme"; the
// staging organization is another emulator's "acme-staging", into which that emulator's "Headset 01" was
// migrated: the same serial number as production's Headset 01 (the seed derives serials from the organization's
// slug and the device's name), while every other production serial is absent there. The export must place only
// that headset in staging (devices are never migrated by the export), adopt the tags by name, move the channels
// to the same versions, and manage production without a write on the second `up`.
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { DeviceMgmtClient } from "../../provider/client";
import { createEngine, type Engine, type RunResult } from "../engine";
import { generatedProgram, runExport, stackConfig, type Exported } from "./support";

const repoRoot = path.resolve(__dirname, "../..");
const PROJECT = "acme-org";
const CHANNEL = { app: "Training Simulator", channel: "Production" };

let prodEmulator: RunningEmulator;
let stagingEmulator: RunningEmulator;
let workDir: string;
let exportDir: string;
let exported: Exported;
let prod: DeviceMgmtClient;
let staging: DeviceMgmtClient;
let promotedTo: string;
let fileName: string;
const engines: Engine[] = [];

async function engineFor(config: Record<string, string>, token: string, stack: string): Promise<Engine> {
  const engine = await createEngine({
    cwd: repoRoot,
    project: PROJECT,
    stack,
    config,
    secretConfig: { "devicemgmt:apiToken": token },
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

/** Where each device sits, as a person compares two organizations: by serial, group by name, no ids. */
async function placementOf(client: DeviceMgmtClient) {
  return Object.fromEntries(
    (await client.devices.all()).map((d) => [
      d.serialNumber,
      {
        name: d.name,
        group: d.group?.name ?? null,
        tags: [...d.tags].sort(),
        customFields: Object.fromEntries(d.customFields.map((f) => [f.name, f.value])),
      },
    ]),
  );
}

async function channelVersion(client: DeviceMgmtClient): Promise<string | null | undefined> {
  const app = (await client.apps.all()).find((a) => a.name === CHANNEL.app)!;
  const rc = (await client.apps.releaseChannels(app.id).all()).find((c) => c.name === CHANNEL.channel)!;
  return rc.version.version;
}

beforeAll(async () => {
  prodEmulator = await startEmulator({ port: 0 });
  stagingEmulator = await startEmulator({ port: 0 });
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "devicemgmt-export-devices-"));
  exportDir = path.join(workDir, PROJECT);
  prod = new DeviceMgmtClient({ baseUrl: prodEmulator.baseUrl, apiToken: prodEmulator.tokens.multiOrgAdmin });
  staging = new DeviceMgmtClient({
    baseUrl: stagingEmulator.baseUrl,
    apiToken: stagingEmulator.tokens.multiOrgAdminSecondary,
  });

  // Production: a site with two headsets, one tagged and with a custom field changed; a promoted channel.
  const berlin = await prod.groups.configure(
    (await prod.groups.create({ name: "Berlin Lab", parentId: null })).id,
  );
  const devices = await prod.devices.all();
  const device = (name: string) => devices.find((d) => d.name === name)!;
  await prod.devices.update(device("Headset 01").id, { groupId: berlin.id, name: "Berlin 01" });
  await prod.tags.attach("devices", device("Headset 01").id, ["site-north"]);
  await prod.deviceContent.setCustomFields(device("Headset 01").id, "attach", [
    { name: "Room", value: "Atrium" },
  ]);
  await prod.devices.update(device("Headset 02").id, { groupId: berlin.id });
  const app = (await prod.apps.all()).find((a) => a.name === CHANNEL.app)!;
  const rc = (await prod.apps.releaseChannels(app.id).all()).find((c) => c.name === CHANNEL.channel)!;
  const other = (await prod.releases.versions(app.id).all()).find(
    (v) => v.id !== rc.version.id && v.version,
  )!;
  await prod.releases.setChannelVersion(app.id, rc.id, { versionId: other.id });
  promotedTo = other.version!;
  // Content: a file on an ungrouped headset, and tags on a video.
  const manual = (await prod.files.all())[0];
  await prod.deviceContent.addFile(device("Headset 03").id, manual.id);
  fileName = manual.filename;
  const tour = (await prod.videos.all()).find((v) => v.name === "Welcome Tour")!;
  await prod.tags.attach("videos", tour.id, ["training", "safety"]);

  // Staging holds production's Headset 01 by serial (migrated from the staging emulator's own "acme").
  const stagingPrimary = new DeviceMgmtClient({
    baseUrl: stagingEmulator.baseUrl,
    apiToken: stagingEmulator.tokens.multiOrgAdmin,
  });
  const twin = (await stagingPrimary.devices.all()).find((d) => d.name === "Headset 01")!;
  expect(twin.serialNumber).toBe(device("Headset 01").serialNumber);
  await stagingPrimary.devices.migrate(twin.id, stagingEmulator.orgs.secondary.slug);

  exported = await runExport(["--match-base-url", stagingEmulator.baseUrl], exportDir, PROJECT, {
    DEVICEMGMT_BASE_URL: prodEmulator.baseUrl,
    DEVICEMGMT_API_TOKEN: prodEmulator.tokens.multiOrgAdmin,
    DEVICEMGMT_MATCH_API_TOKEN: stagingEmulator.tokens.multiOrgAdminSecondary,
    DEVICEMGMT_ALLOW_INSECURE_HTTP: "true",
  });
});

afterAll(async () => {
  for (const engine of engines) await engine.close();
  await prodEmulator?.close();
  await stagingEmulator?.close();
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

describe("export of tags, devices and channel versions", () => {
  it("declares the tag catalogue, every device by serial number, and each channel's version by name", async () => {
    expect(exported.stderr).not.toMatch(/error/i);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toMatch(/, 7 tags, 8 devices, 5 channel versions/);
    expect(exported.stdout).toMatch(
      /adopt Device berlin-01-placement \(device \w+ \("Berlin 01"\)\) = by serial number/,
    );
    const index = exported.files["index.ts"];
    const tags = await prod.tags.all();
    expect(index.match(/new dm\.Tag\(/g)).toHaveLength(tags.length);
    const serial = (await prod.devices.all()).find((d) => d.name === "Berlin 01")!.serialNumber;
    expect(index).toMatch(
      new RegExp(
        `placeDevice\\("berlin-01-placement", \\{\\s*serialNumber: "${serial}",\\s*name: "Berlin 01",\\s*groupId: berlinLab\\.id,`,
      ),
    );
    expect(index).toMatch(/"berlin-01-placement"[^;]*tags: \[[^\]]*siteNorthTag\.name/);
    expect(index).toMatch(/"berlin-01-placement"[^;]*Room: "Atrium"/);
    expect(index.match(/placeDevice\(/g)).toHaveLength((await prod.devices.all()).length);
    const escaped = promotedTo.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    expect(index).toMatch(
      new RegExp(
        `getAppVersionOutput\\(\\{\\s*appName: "${CHANNEL.app}",\\s*version: "${escaped}",?\\s*\\}\\)`,
      ),
    );
    expect(index).toContain('new dm.ReleaseChannelVersion("training-simulator-production-version"');
    expect(index).toMatch(
      /new dm\.DeviceFile\(\s*"headset-03-[^"]*-file",[^;]*deviceId: headset03Device\.id/,
    );
    expect(index).toMatch(
      /new dm\.TagSet\("welcome-tour-video-tags", \{[^;]*ownerType: "video"[^;]*safetyTag\.name, trainingTag\.name/,
    );
  });

  it("says in the README that devices are not migrated, and what cannot be read", () => {
    const readme = exported.files["README.md"];
    expect(readme).toContain("**Devices are not migrated.**");
    expect(readme).toContain("the API lists no group's files or videos");
    expect(readme).toContain("the API has no read of the organizations a channel is shared with");
    const adopted = readme.split("### Adopted")[1].split("### Created")[0];
    expect(adopted).toContain("`berlin-01-placement` (Device)");
    expect(adopted).toContain('`site-north-tag` (Tag) tag "site-north"');
    expect(readme).not.toContain("### Missing");
  });

  it("lists in the staging config the devices whose serial staging has not enrolled", () => {
    const config = stackConfig(path.join(exportDir, "Pulumi.staging.yaml"));
    const absent = JSON.parse(config[`${PROJECT}:absentDevices`]) as string[];
    expect(absent).not.toContain("berlin-01-placement");
    expect(absent).toContain("headset-02-placement");
    expect(absent).toHaveLength(exported.files["index.ts"].match(/placeDevice\(/g)!.length - 1);
    expect(JSON.parse(config[`${PROJECT}:adopt`])).not.toHaveProperty("berlin-01-placement");
  });
});

describe("up of the exported program", () => {
  it("against production with its config changes nothing, twice", async () => {
    const placementBefore = await placementOf(prod);
    const engine = await engineFor(
      stackConfig(path.join(exportDir, "Pulumi.production.yaml")),
      prodEmulator.tokens.multiOrgAdmin,
      "production",
    );
    const first = await engine.up(generatedProgram(exportDir));
    expect(first.errors).toEqual([]);
    expect(await placementOf(prod)).toEqual(placementBefore);
    expect(await channelVersion(prod)).toBe(promotedTo);

    prodEmulator.resetStats();
    const second = await engine.up(generatedProgram(exportDir));
    expect(changes(second)).toEqual({ errors: [], create: [], update: [], replace: [], delete: [] });
    expect(prodEmulator.stats().writes).toBe(0);
  });

  it("against staging places the one headset it holds, adopts the tags, and promotes the channel", async () => {
    const stagingBefore = await placementOf(staging);
    const engine = await engineFor(
      stackConfig(path.join(exportDir, "Pulumi.staging.yaml")),
      stagingEmulator.tokens.multiOrgAdminSecondary,
      "staging",
    );
    const up = await engine.up(generatedProgram(exportDir));
    expect(up.errors).toEqual([]);
    const source = await placementOf(prod);
    const target = await placementOf(staging);
    const serial = Object.keys(source).find((s) => source[s].name === "Berlin 01")!;
    expect(target[serial]).toEqual(source[serial]);
    expect(target[serial]).toMatchObject({ group: "Berlin Lab", customFields: { Room: "Atrium" } });
    // Staging's own headsets are not in the program: left as they were.
    for (const [s, placed] of Object.entries(stagingBefore))
      if (s !== serial) expect(target[s]).toEqual(placed);
    expect(await channelVersion(staging)).toBe(promotedTo);
    const headset03 = (await staging.devices.all()).find((d) => d.name === "Headset 03")!;
    expect((await staging.deviceContent.files(headset03.id).all()).map((f) => f.filename)).toContain(
      fileName,
    );
    const tourTags = async (client: DeviceMgmtClient) =>
      [...((await client.videos.all()).find((v) => v.name === "Welcome Tour")!.tags ?? [])].sort();
    expect(await tourTags(staging)).toEqual(await tourTags(prod));
    expect(await tourTags(staging)).toEqual(expect.arrayContaining(["safety", "training"]));

    const again = await engine.up(generatedProgram(exportDir));
    expect(changes(again)).toEqual({ errors: [], create: [], update: [], replace: [], delete: [] });

    // Destroy forgets the device and leaves the channel and the adopted tags; the created group goes.
    const destroyed = await engine.destroy();
    expect(destroyed.errors).toEqual([]);
    expect((await staging.tags.all()).map((t) => t.name).sort()).toEqual(
      (await prod.tags.all()).map((t) => t.name).sort(),
    );
    expect(await channelVersion(staging)).toBe(promotedTo);
    expect((await placementOf(staging))[serial]).toMatchObject({ name: "Berlin 01", group: null });
  });
});
