// Staging gets the same bytes (issue 31, item 6): files, a video, a build a channel delivers and a custom 3D
// environment, uploaded to organization S through the upload client, are exported (their bytes downloaded into
// content/ beside the program), and the generated program runs on the real Pulumi CLI (test/engine, with the
// program's folder as the plugin's, where `content/…` resolves) against a second emulator T: T then holds files
// with the same names, folders and SHA-512s, the video with the same SHA-512, name and rendering, the app the
// build with the same SHA-256 and version, and the environment of the same name and size (the API answers no
// checksum for it); `up` again and `refresh` change nothing; destroy deletes the files and video the stack
// uploaded and forgets the build and the environment (the API cannot delete them). With the production stack's
// config against S, the same program adopts all of them without uploading a byte, and a second `up` changes
// nothing (the video was declared exactly as read).
import { createHash } from "crypto";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { closeDispatchers, DeviceMgmtClient } from "../../provider/client";
import { createEngine, type Engine, type RunResult } from "../engine";
import { generatedProgram, runExport, stackConfig, type Exported } from "./support";

const repoRoot = path.resolve(__dirname, "../..");
const PROJECT = "acme-org";
const MiB = 1024 * 1024;

let source: RunningEmulator;
let target: RunningEmulator;
let workDir: string;
let exportDir: string;
let exported: Exported;
const engines: Engine[] = [];
/** What was uploaded to S: name, folder, SHA-512. */
const uploaded: { filename: string; location: string; sha512: string }[] = [];

const changes = (result: RunResult) => ({
  errors: result.errors,
  create: result.steps.create.map((s) => s.name),
  update: result.steps.update.map((s) => s.name),
  replace: result.steps.replace.map((s) => s.name),
  delete: result.steps.delete.map((s) => s.name),
});
const NOTHING = { errors: [], create: [], update: [], replace: [], delete: [] };

/** The video uploaded to S, as the API shows it: what T must show the same. */
const VIDEO = {
  filename: "forklift-360.mp4",
  name: "Forklift Safety 360",
  description: "Aisle 4, before every shift",
  details: {
    videoType: "ThreeSixty",
    videoMapping: "CUBEMAP",
    videoDisplay: "Stereoscopic",
    videoPacking: "LEFT_RIGHT",
    audioEncoding: "AMBIX_4",
  },
} as const;
let videoSha512: string;

/** The videos of an organization named as the uploaded one (no seeded video is): SHA-512, name and rendering. */
async function uploadedVideosOf(on: RunningEmulator) {
  const api = new DeviceMgmtClient({ baseUrl: on.baseUrl, apiToken: on.tokens.admin });
  return (await api.videos.all())
    .filter((v) => v.filename === VIDEO.filename)
    .map((v) => ({
      filename: v.filename,
      sha512: v.checksum.value.toLowerCase(),
      name: v.name,
      description: v.description ?? null,
      details: {
        videoType: v.details?.videoType,
        videoMapping: v.details?.videoMapping,
        videoDisplay: v.details?.videoDisplay,
        videoPacking: v.details?.videoPacking,
        audioEncoding: v.details?.audioEncoding,
      },
    }));
}
const expectedVideo = () => ({
  filename: VIDEO.filename,
  sha512: videoSha512,
  name: VIDEO.name,
  description: VIDEO.description,
  details: VIDEO.details,
});

const BUILD = { app: "Training Simulator", version: "2.6.0" } as const;
const SCENE = "showroom-scene.glb";

/** The environments of an organization named as the exported one: name, size, status. */
async function scenesOf(on: RunningEmulator) {
  const api = new DeviceMgmtClient({ baseUrl: on.baseUrl, apiToken: on.tokens.admin });
  return (await api.custom3DEnvironments.all())
    .filter((e) => e.objectName === SCENE)
    .map((e) => ({ objectName: e.objectName, sizeBytes: e.sizeBytes, status: e.status }));
}
const expectedScene = { objectName: SCENE, sizeBytes: "glTF showroom scene".length, status: "available" };
let buildSha256: string;

/** The builds of the app with the exported build's version: SHA-256 each. */
async function buildsOf(on: RunningEmulator) {
  const api = new DeviceMgmtClient({ baseUrl: on.baseUrl, apiToken: on.tokens.admin });
  const app = (await api.apps.all()).find((a) => a.name === BUILD.app)!;
  return (await api.releases.versions(app.id).all())
    .filter((b) => b.version === BUILD.version)
    .map((b) => ({ version: b.version, sha256: b.checksum?.value.toLowerCase(), status: b.status }));
}
const expectedBuild = () => ({ version: BUILD.version, sha256: buildSha256, status: "available" });

/** The files of an organization that carry bytes (uploaded, not seeded), as names, folders and SHA-512s. */
const uploadedFilesOf = (on: RunningEmulator) =>
  on
    .snapshot()
    .files.filter((f) => !f.location.startsWith("organizations/"))
    .map(({ filename, location, sha512 }) => ({ filename, location, sha512 }))
    .sort((a, b) => a.filename.localeCompare(b.filename));

async function engineFor(on: RunningEmulator, stack: string, config: Record<string, string> = {}) {
  const engine = await createEngine({
    cwd: exportDir,
    project: PROJECT,
    stack,
    config: { ...config, "devicemgmt:baseUrl": on.baseUrl },
    secretConfig: { "devicemgmt:apiToken": on.tokens.admin },
  });
  engines.push(engine);
  return engine;
}

beforeAll(async () => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "export-content-staging-"));
  exportDir = path.join(workDir, "acme-org");
  [source, target] = await Promise.all([
    startEmulator({ quiet: true, strict: { fileDownloadUrls: true } }),
    startEmulator({ quiet: true }),
  ]);
  const api = new DeviceMgmtClient({ baseUrl: source.baseUrl, apiToken: source.tokens.admin });
  const contents: [string, string, Buffer][] = [
    ["evacuation-plan.pdf", "/sdcard/Docs", Buffer.from("floor 1: stairs A and B")],
    // Two parts each way: uploaded in parts, downloaded in one stream.
    ["lobby-background.bin", "/sdcard/Media", Buffer.alloc(6 * MiB + 17, 7)],
  ];
  for (const [filename, location, bytes] of contents) {
    const file = path.join(workDir, filename);
    fs.writeFileSync(file, bytes);
    await api.uploadFile({ source: file, filename, path: location });
    uploaded.push({ filename, location, sha512: createHash("sha512").update(bytes).digest("hex") });
  }
  const video = path.join(workDir, VIDEO.filename);
  const videoBytes = Buffer.alloc(5 * MiB + 3, 9);
  fs.writeFileSync(video, videoBytes);
  videoSha512 = createHash("sha512").update(videoBytes).digest("hex");
  const { id: videoId } = (
    await api.uploadVideo({ source: video, filename: VIDEO.filename, ...VIDEO.details })
  ).made;
  await api.videos.update(videoId, {
    name: VIDEO.name,
    description: VIDEO.description,
    ...VIDEO.details,
    tags: [],
  });
  // A build the app's first channel delivers (builds no channel delivers are not exported).
  const app = (await api.apps.all()).find((a) => a.name === BUILD.app)!;
  const apk = path.join(workDir, "sim.apk");
  const apkBytes = Buffer.from("the build staging must get too");
  fs.writeFileSync(apk, apkBytes);
  buildSha256 = createHash("sha256").update(apkBytes).digest("hex");
  const build = await api.uploadAppVersion({
    source: apk,
    appId: app.id,
    filename: "sim.apk",
    versionName: BUILD.version,
  });
  const channel = (await api.apps.releaseChannels(app.id).all())[0];
  await api.releases.setChannelVersion(app.id, channel.id, { versionId: build.made.id });
  // A custom 3D environment (processed on the emulator clock, which the upload's polling lets pass here).
  const scene = path.join(workDir, SCENE);
  fs.writeFileSync(scene, "glTF showroom scene");
  const timer = setInterval(() => source.advanceClock(1000), 50);
  await api.uploadCustom3DEnvironment({ source: scene, filename: SCENE }).finally(() => clearInterval(timer));
  exported = await runExport(["--only", "content"], exportDir, PROJECT, {
    DEVICEMGMT_BASE_URL: source.baseUrl,
    DEVICEMGMT_API_TOKEN: source.tokens.admin,
  });
  // The plugin runs in the program's folder and loads the SDK and the provider from its node_modules.
  fs.symlinkSync(path.join(repoRoot, "node_modules"), path.join(exportDir, "node_modules"));
});

afterAll(async () => {
  for (const engine of engines) await engine.close();
  await closeDispatchers();
  await Promise.all([source?.close(), target?.close()]);
  fs.rmSync(workDir, { recursive: true, force: true });
});

test("the export downloads the bytes of each file, the video, the delivered build and the 3D environment beside the program", async () => {
  expect(exported.code).toBe(0);
  expect(exported.stdout).toContain(
    "2 files, 1 video, 1 app build and 1 custom 3D environment downloaded into content/",
  );
  expect(await buildsOf(source)).toEqual([expectedBuild()]);
  expect(await uploadedVideosOf(source)).toEqual([expectedVideo()]);
  expect(
    createHash("sha512")
      .update(fs.readFileSync(path.join(exportDir, "content", VIDEO.filename)))
      .digest("hex"),
  ).toBe(videoSha512);
  expect(uploadedFilesOf(source)).toEqual(uploaded);
  for (const f of uploaded) {
    const bytes = fs.readFileSync(path.join(exportDir, "content", f.filename));
    expect(createHash("sha512").update(bytes).digest("hex")).toBe(f.sha512);
  }
});

test("staging: up in another organization uploads the same bytes; up again and refresh change nothing; destroy deletes the files and video, forgets the build and the environment", async () => {
  expect(uploadedFilesOf(target)).toEqual([]);
  const engine = await engineFor(target, "staging");
  const program = generatedProgram(exportDir);
  const created = await engine.up(program);
  expect(changes(created)).toEqual({
    ...NOTHING,
    create: expect.arrayContaining([
      "evacuation-plan-pdf-file",
      "lobby-background-bin-file",
      "forklift-360-mp4-video",
      "training-simulator-2-6-0-apk-appVersion",
      "showroom-scene-glb-custom3DEnvironment",
    ]),
  });
  expect(created.steps.create).toHaveLength(5);
  expect(await scenesOf(target)).toEqual([expectedScene]);
  expect(await buildsOf(target)).toEqual([expectedBuild()]);
  expect(uploadedFilesOf(target)).toEqual(uploaded);
  expect(await uploadedVideosOf(target)).toEqual([expectedVideo()]);

  expect(changes(await engine.up(program))).toEqual(NOTHING);
  expect(changes(await engine.refresh())).toEqual(NOTHING);
  expect(uploadedFilesOf(target)).toEqual(uploaded);
  expect(await uploadedVideosOf(target)).toEqual([expectedVideo()]);

  expect(await buildsOf(target)).toEqual([expectedBuild()]);

  const destroyed = await engine.destroy();
  expect(destroyed.errors).toEqual([]);
  expect(uploadedFilesOf(target)).toEqual([]);
  expect(await uploadedVideosOf(target)).toEqual([]);
  // The API cannot delete builds: destroy forgets it and says so.
  expect(await buildsOf(target)).toEqual([expectedBuild()]);
  expect(destroyed.output).toMatch(/the API cannot delete an app build; version "2\.6\.0" stays/);
  expect(await scenesOf(target)).toEqual([expectedScene]);
});

test("production: with its stack config against the source, the program adopts every file, the video, the build and the environment, uploads nothing, and up again changes nothing", async () => {
  const config = stackConfig(path.join(exportDir, "Pulumi.production.yaml"));
  const engine = await engineFor(source, "production", { [`${PROJECT}:adopt`]: config[`${PROJECT}:adopt`] });
  const puts = source.storageRequests().filter((r) => r.method === "PUT").length;
  const adopted = await engine.up(generatedProgram(exportDir));
  expect(adopted.errors).toEqual([]);
  expect(adopted.steps.create).toHaveLength(5);
  expect(await scenesOf(source)).toEqual([expectedScene]);
  expect(await buildsOf(source)).toEqual([expectedBuild()]);
  expect(source.storageRequests().filter((r) => r.method === "PUT").length).toBe(puts);
  expect(uploadedFilesOf(source)).toEqual(uploaded);
  expect(await uploadedVideosOf(source)).toEqual([expectedVideo()]);
  expect(changes(await engine.up(generatedProgram(exportDir)))).toEqual(NOTHING);
});
