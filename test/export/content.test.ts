// The exporter's content (issue 31, item 6), in-process against the emulator: names of local copies that no
// API file name can lead out of content/, the File section and the attachments that then refer to it instead
// of a lookup, the README's list of what cannot be downloaded, --no-content, and a download whose bytes are
// not the content the API describes (refused, nothing written, no program).
import { createHash } from "crypto";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { closeDispatchers, DeviceMgmtClient, DownloadChecksumError } from "../../provider/client";
import { planContent, safeContentName, type ModelContent } from "../../provider/export/content";
import { downloadContent } from "../../provider/export/contentRead";
import { UnsafeContentPathError } from "../../provider/export/errors";
import { runExport } from "./support";

let emulator: RunningEmulator;
let dir: string;
let api: DeviceMgmtClient;
const sha512 = (bytes: Buffer | string) => createHash("sha512").update(bytes).digest("hex");

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "export-content-"));
  emulator = await startEmulator({ quiet: true, strict: { fileDownloadUrls: true } });
  api = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
});

afterAll(async () => {
  await closeDispatchers();
  await emulator.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function upload(filename: string, folder: string, bytes: string): Promise<string> {
  const source = path.join(dir, `upload-${sha512(filename + folder).slice(0, 12)}`);
  fs.writeFileSync(source, bytes);
  return (await api.uploadFile({ source, filename, path: folder })).made.id;
}

const exportTo = (out: string, args: string[] = [], only = "tags,content") =>
  runExport(["--only", only, ...args], out, "acme-org", {
    DEVICEMGMT_BASE_URL: emulator.baseUrl,
    DEVICEMGMT_API_TOKEN: emulator.tokens.admin,
  });

/** The content export with `--match-base-url`: the target is this emulator's organization `token` sees. */
const exportMatching = (out: string, token: string) =>
  runExport(["--only", "content", "--match-base-url", emulator.baseUrl], out, "acme-org", {
    DEVICEMGMT_BASE_URL: emulator.baseUrl,
    DEVICEMGMT_API_TOKEN: emulator.tokens.admin,
    DEVICEMGMT_MATCH_API_TOKEN: token,
  });

describe("safeContentName", () => {
  it.each([
    ["../../etc/passwd", "passwd"],
    ["..\\..\\boot.ini", "boot.ini"],
    ["..", "content"],
    [".bashrc", "bashrc"],
    ["/", "content"],
    ["con:name?.txt", "con_name_.txt"],
    ["rapport é.pdf", "rapport _.pdf"],
  ])("%j becomes %j", (name, safe) => {
    expect(safeContentName(name, new Set())).toBe(safe);
  });

  it("never names a path, whatever the API answers, and is unique without regard to case", () => {
    const taken = new Set<string>();
    const hostile = [
      "../x",
      "..",
      ".",
      "a/../../b",
      "\u0000",
      "x".repeat(400) + ".bin",
      "Manual.pdf",
      "manual.PDF",
    ];
    const names = hostile.map((n) => safeContentName(n, taken));
    for (const name of names) {
      expect(name).not.toMatch(/[/\\\u0000]/);
      expect(name).not.toMatch(/^\./);
      expect(name.length).toBeLessThanOrEqual(100);
      const inside = path.resolve("/out/content", name);
      expect(path.dirname(inside)).toBe("/out/content");
    }
    expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length);
    expect(names.slice(-2)).toEqual(["Manual.pdf", "manual-2.PDF"]);
  });
});

describe("the export of uploaded files", () => {
  let out: string;
  let manualId: string;
  let sameNamedId: string;
  let result: Awaited<ReturnType<typeof exportTo>>;

  beforeAll(async () => {
    manualId = await upload("evacuation-plan.pdf", "/sdcard/Docs", "manual bytes");
    // The seeded safety-manual.pdf (no bytes) shares this one's name, and both carry tags.
    sameNamedId = await upload("safety-manual.pdf", "/sdcard/Docs", "new manual bytes");
    await api.tags.attach("files", sameNamedId, ["safety"]);
    await upload("../../escape.txt", "/sdcard/Docs", "escape bytes");
    await upload(".hidden", "/sdcard/Docs", "hidden bytes");
    await upload("marker.flag", "/sdcard/Docs", "");
    await api.tags.attach("files", manualId, ["onboarding"]);
    expect((await api.files.get(manualId)).tags).toEqual(["onboarding"]);
    out = path.join(dir, "out", "program");
    result = await exportTo(out);
  });

  it("downloads each file into content/, the bytes verified, and nothing anywhere else", () => {
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("downloaded 3/3");
    expect(fs.readdirSync(path.join(out, "content")).sort()).toEqual([
      "evacuation-plan.pdf",
      "hidden",
      "safety-manual.pdf",
    ]);
    expect(fs.readFileSync(path.join(out, "content", "evacuation-plan.pdf"), "utf8")).toBe("manual bytes");
    // The hostile name (a path) is not declared, and its bytes are written nowhere.
    expect(fs.readdirSync(path.join(dir, "out")).sort()).toEqual(["program"]);
    expect(fs.existsSync(path.join(dir, "escape.txt"))).toBe(false);
  });

  it("declares each File from its copy; the tag set refers to the declared File, not a lookup", () => {
    const index = result.files["index.ts"];
    expect(index).toContain(
      'const evacuationPlanFile = new dm.File(\n  "evacuation-plan-pdf-file",\n  {\n    source: "content/evacuation-plan.pdf",',
    );
    expect(index).toMatch(/filename: "\.hidden",/);
    expect(index).toMatch(/ownerId: evacuationPlanFile\.id/);
    expect(index).not.toContain('dm.getFileOutput({ filename: "evacuation-plan.pdf" })');
    // The File section comes before the tag sets that refer to it.
    expect(index.indexOf("new dm.File(")).toBeLessThan(index.indexOf("new dm.TagSet("));
    expect(result.files["Pulumi.production.yaml"]).toContain(`"evacuation-plan-pdf-file": "${manualId}"`);
  });

  it("exports the tags of a declared file that shares its name, not those of the looked-up one", () => {
    const index = result.files["index.ts"];
    expect(index).toMatch(/ownerId: safetyManualFile\.id,\s+tags: \[safetyTag\.name\]/);
    expect(index).not.toContain('dm.getFileOutput({ filename: "safety-manual.pdf" })');
    expect(result.files["README.md"]).toContain(
      'The tags of file "safety-manual.pdf": 2 files have this name, so it cannot be looked up.',
    );
    expect(result.files["Pulumi.production.yaml"]).toContain(`"safety-manual-pdf-file": "${sameNamedId}"`);
  });

  it("lists in the README what cannot be downloaded, and why", () => {
    const readme = result.files["README.md"];
    expect(readme).toMatch(/The file "\.\.\/\.\.\/escape\.txt" in \/sdcard\/Docs .* its name holds a \//);
    // Seeded files have no bytes in the emulator: a null download URL.
    expect(readme).toContain("the API answers a null download URL for it");
    // An empty file would be a source its File refuses at preview.
    expect(readme).toMatch(
      /The file "marker\.flag" in \/sdcard\/Docs .* it is empty \(0 bytes\), and an empty source/,
    );
    expect(result.files["index.ts"]).not.toContain("marker");
  });

  it("with --no-content, downloads nothing and keeps the lookups", async () => {
    const plain = path.join(dir, "plain");
    const without = await exportTo(plain, ["--no-content"]);
    expect(without.code).toBe(0);
    expect(fs.existsSync(path.join(plain, "content"))).toBe(false);
    expect(without.files["index.ts"]).not.toContain("new dm.File(");
    expect(without.files["index.ts"]).toContain('dm.getFileOutput({ filename: "evacuation-plan.pdf" })');
  });
});

describe("staging with --match-base-url", () => {
  it("adopts a target file of the same name and folder only with the same SHA-512", async () => {
    // The target is the emulator's other organization (two emulators seed the same organization id).
    {
      const token = emulator.tokens.multiOrgAdminSecondary;
      const there = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: token });
      const put = async (filename: string, bytes: string) => {
        const file = path.join(dir, `target-${filename}`);
        fs.writeFileSync(file, bytes);
        return (await there.uploadFile({ source: file, filename, path: "/sdcard/Docs" })).made.id;
      };
      await upload("same.txt", "/sdcard/Docs", "same bytes");
      await upload("differs.txt", "/sdcard/Docs", "source bytes");
      const sameId = await put("same.txt", "same bytes");
      await put("differs.txt", "target bytes");
      const out = path.join(dir, "matched");
      const result = await exportMatching(out, token);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(
        `adopt File same-txt-file (file "same.txt" in /sdcard/Docs) = ${sameId}`,
      );
      const staging = result.files["Pulumi.staging.yaml"];
      expect(staging).toContain(`"same-txt-file": "${sameId}"`);
      expect(staging).not.toContain("differs-txt-file");
      expect(result.files["README.md"]).toContain(
        "a file of this name with other bytes is there, so up refuses to create this one beside it",
      );
    }
  });
});

describe("downloadContent", () => {
  async function planned(): Promise<ModelContent> {
    const id = await upload("checked.bin", "/sdcard", "checked bytes");
    const file = await api.files.get(id);
    return {
      type: "file",
      id,
      name: file.filename,
      path: "/sdcard",
      checksum: file.checksum,
      downloadUrl: file.downloadUrl as string,
    };
  }

  it("refuses bytes without the checksum the API answers, and writes nothing", async () => {
    const content = await planned();
    const out = fs.mkdtempSync(path.join(dir, "mismatch-"));
    const wrong = { ...content, checksum: { algorithm: "SHA-512", value: sha512("other bytes") } };
    const refused = await downloadContent(api, planContent([wrong], new Set(), new Set()), out).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(DownloadChecksumError);
    expect(refused).toMatchObject({ actual: sha512("checked bytes"), expected: wrong.checksum });
    expect(fs.readdirSync(path.join(out, "content"))).toEqual([]);
  });

  it("refuses a planned source outside content/ before any request", async () => {
    const content = await planned();
    const out = fs.mkdtempSync(path.join(dir, "outside-"));
    const [plan] = planContent([content], new Set(), new Set());
    const before = emulator.storageRequests().length;
    await expect(downloadContent(api, [{ ...plan, source: "content/../../x" }], out)).rejects.toBeInstanceOf(
      UnsafeContentPathError,
    );
    expect(emulator.storageRequests().length).toBe(before);
  });
});

describe("the export of uploaded videos", () => {
  let out: string;
  let tourId: string;
  let deviceName: string;
  let result: Awaited<ReturnType<typeof exportTo>>;

  beforeAll(async () => {
    const source = path.join(dir, "forklift.mp4");
    fs.writeFileSync(source, "forklift video bytes");
    tourId = (
      await api.uploadVideo({
        source,
        filename: "forklift-360.mp4",
        videoType: "ThreeSixty",
        videoMapping: "EQUIRECTANGULAR",
        videoDisplay: "Stereoscopic",
        videoPacking: "TOP_BOTTOM",
        audioEncoding: "AMBIX_4",
      })
    ).made.id;
    // The display name the seeded "Welcome Tour" has too: a lookup could not single it out, its resource can.
    await api.videos.update(tourId, {
      name: "Welcome Tour",
      description: "Forklift safety, 360°",
      videoType: "ThreeSixty",
      videoMapping: "EQUIRECTANGULAR",
      videoDisplay: "Stereoscopic",
      videoPacking: "TOP_BOTTOM",
      audioEncoding: "AMBIX_4",
      tags: ["training"],
    });
    const devices = await api.devices.all();
    const device = devices.find(
      (d) => !d.group && devices.filter((other) => other.name === d.name).length === 1,
    )!;
    deviceName = device.name;
    await api.deviceContent.addVideo(device.id, tourId);
    // A site whose home shows it.
    const site = await api.groups.configure(
      (await api.groups.create({ name: "Video Site", parentId: null })).id,
    );
    const icon = (await api.images.all("headset-xp-menu-icon"))[0];
    const floor = (await api.images.all("three-sixty-background"))[0];
    const theme = (await api.themes.all()).find((t) => t.name === "ArborXR Dark")!;
    await api.headsetExperiences.set({ groupId: site.id }, "arborxr-home", {
      visibleContents: [{ type: "video", id: tourId }],
      language: "en",
      menuIconImageId: icon.id,
      themeId: theme.id,
      removePoweredByArborXrBranding: false,
      menuTitle: "Tours",
      shortcuts: [],
      categorizationTags: [],
      background: { type: "360-background", threeSixtyImageId: floor.id },
      adminPin: null,
      sharedModeSettings: {
        enableOfflineMode: false,
        requireManagedMetaLogin: false,
        enableControllerFree: true,
        adjustDeviceFit: true,
        defaultToStationaryBoundary: false,
      },
    });
    out = path.join(dir, "videos", "program");
    result = await exportTo(out, [], "groups,experiences,tags,devices,content");
  });

  it("downloads the video into content/ and declares it with its rendering exactly as read", () => {
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/, (\d+ files and )?1 video downloaded into content\//);
    expect(sha512(fs.readFileSync(path.join(out, "content", "forklift-360.mp4")))).toBe(
      sha512("forklift video bytes"),
    );
    const index = result.files["index.ts"];
    const declared = index.slice(index.indexOf("new dm.Video("));
    expect(declared.slice(0, declared.indexOf("\n);") + 3)).toBe(
      [
        "new dm.Video(",
        '  "forklift-360-mp4-video",',
        "  {",
        '    source: "content/forklift-360.mp4",',
        '    filename: "forklift-360.mp4",',
        '    name: "Welcome Tour",',
        '    description: "Forklift safety, 360°",',
        '    videoType: "ThreeSixty",',
        '    videoMapping: "EQUIRECTANGULAR",',
        '    videoDisplay: "Stereoscopic",',
        '    videoPacking: "TOP_BOTTOM",',
        '    audioEncoding: "AMBIX_4",',
        '    adoptId: adopt["forklift-360-mp4-video"],',
        "  },",
        '  options("forklift-360-mp4-video"),',
        ");",
      ].join("\n"),
    );
    expect(result.files["Pulumi.production.yaml"]).toContain(`"forklift-360-mp4-video": "${tourId}"`);
  });

  it("refers to the declared video from its tag set, its device and an experience, where a lookup by name could not", () => {
    const index = result.files["index.ts"];
    expect(index).toMatch(/visibleContents: \[\{ type: "video", id: forklift360Video\.id \}\]/);
    expect(index).toMatch(/ownerId: forklift360Video\.id,\s+tags: \[trainingTag\.name\]/);
    expect(index).toMatch(/deviceId: \w+\.id,\s+videoId: forklift360Video\.id/);
    expect(index).not.toContain('dm.getVideoOutput({ name: "Welcome Tour" })');
    expect(index.indexOf("new dm.Video(")).toBeLessThan(index.indexOf("new dm.DeviceVideo("));
    expect(result.files["README.md"]).not.toContain(`The video "Welcome Tour" on device "${deviceName}"`);
    // The seeded videos have no bytes here: listed with why, and found by name.
    expect(result.files["README.md"]).toMatch(
      /The video "[^"]+" \(\w[\w-]*\) is not declared as a Video: the API answers a null download URL/,
    );
  });

  it("with --no-content, downloads no video and leaves out what only a declared video could single out", async () => {
    const plain = path.join(dir, "videos-plain");
    const without = await exportTo(plain, ["--no-content"], "groups,experiences,tags,devices,content");
    expect(without.code).toBe(0);
    expect(without.files["index.ts"]).not.toContain("new dm.Video(");
    expect(without.files["README.md"]).toContain(`The video "Welcome Tour" on device "${deviceName}"`);
    expect(without.files["README.md"]).toMatch(
      /The headset experience of group "Video Site"[^\n]*2 videos are named "Welcome Tour"/,
    );
  });
});

describe("the export of app builds (the OpenAPI's build schema answers a downloadUrl)", () => {
  let out: string;
  let buildId: string;
  const apk = "a staging-worthy build";
  let result: Awaited<ReturnType<typeof exportTo>>;

  beforeAll(async () => {
    const app = (await api.apps.all()).find((a) => a.name === "Training Simulator")!;
    const source = path.join(dir, "sim.apk");
    fs.writeFileSync(source, apk);
    buildId = (
      await api.uploadAppVersion({ source, appId: app.id, filename: "sim.apk", versionName: "2.6.0" })
    ).made.id;
    const channel = (await api.apps.releaseChannels(app.id).all())[0];
    await api.releases.setChannelVersion(app.id, channel.id, { versionId: buildId });
    out = path.join(dir, "builds", "program");
    result = await exportTo(out, [], "versions,content");
  });

  it("downloads a build a channel delivers, verified against its SHA-256, and declares it as an AppVersion", () => {
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/1 app build downloaded into content\//);
    const copy = fs.readFileSync(path.join(out, "content", "Training Simulator 2.6.0.apk"), "utf8");
    expect(copy).toBe(apk);
    const index = result.files["index.ts"];
    expect(index).toMatch(
      /const (\w+) = new dm\.AppVersion\(\s+"training-simulator-2-6-0-apk-appVersion",\s+\{\s+source: "content\/Training Simulator 2\.6\.0\.apk",\s+appId: dm\.getAppOutput\(\{ name: "Training Simulator" \}\)\.id,\s+versionName: "2\.6\.0",\s+adoptId: adopt\["training-simulator-2-6-0-apk-appVersion"\],/,
    );
    expect(result.files["Pulumi.production.yaml"]).toContain(
      `"training-simulator-2-6-0-apk-appVersion": "${buildId}"`,
    );
  });

  it("the channel that delivers it refers to the declared build, not getAppVersion", () => {
    const index = result.files["index.ts"];
    const variable = /const (\w+) = new dm\.AppVersion\(/.exec(index)![1];
    expect(index).toMatch(new RegExp(`versionId: ${variable}\\.id`));
    expect(index).not.toContain('version: "2.6.0"');
    // Seeded builds a channel delivers have no bytes on the emulator: listed with why, still looked up.
    expect(result.files["README.md"]).toMatch(
      /The app build "[^"]+\.apk" \([\w-]+\) is not declared as an AppVersion: the API answers a null download URL/,
    );
    expect(index).toContain("dm.getAppVersionOutput(");
  });
});

describe("staging with --match-base-url: videos and builds", () => {
  it("adopts a target video of the same file name and SHA-512, and a build of the same app and SHA-256", async () => {
    const token = emulator.tokens.multiOrgAdminSecondary;
    const there = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: token });
    const rendering = { videoType: "TwoDimensional", audioEncoding: "STEREO" } as const;
    const file = (name: string, bytes: string) => {
      const at = path.join(dir, `match-${name}`);
      fs.writeFileSync(at, bytes);
      return at;
    };
    // The source: a video, and a build its app's channel delivers.
    await api.uploadVideo({ source: file("clip.mp4", "clip bytes"), filename: "clip.mp4", ...rendering });
    const app = (await api.apps.all()).find((a) => a.name === "Warehouse Picker")!;
    const build = await api.uploadAppVersion({
      source: file("picker.apk", "picker build"),
      appId: app.id,
      filename: "picker.apk",
      versionName: "3.3.0",
    });
    const channel = (await api.apps.releaseChannels(app.id).all())[0];
    await api.releases.setChannelVersion(app.id, channel.id, { versionId: build.made.id });
    // The target holds the same video and the same build.
    const videoThere = await there.uploadVideo({
      source: file("clip-there.mp4", "clip bytes"),
      filename: "clip.mp4",
      ...rendering,
    });
    const appThere = (await there.apps.all()).find((a) => a.name === "Warehouse Picker")!;
    const buildThere = await there.uploadAppVersion({
      source: file("picker-there.apk", "picker build"),
      appId: appThere.id,
      filename: "picker.apk",
      versionName: "3.3.0",
    });
    const out = path.join(dir, "matched-videos");
    const result = await exportMatching(out, token);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`adopt Video clip-mp4-video (video "clip.mp4") = ${videoThere.made.id}`);
    expect(result.stdout).toContain(
      `adopt AppVersion warehouse-picker-3-3-0-apk-appVersion (build "3.3.0" of app "Warehouse Picker") = ${buildThere.made.id}`,
    );
    const staging = result.files["Pulumi.staging.yaml"];
    expect(staging).toContain(`"clip-mp4-video": "${videoThere.made.id}"`);
    expect(staging).toContain(`"warehouse-picker-3-3-0-apk-appVersion": "${buildThere.made.id}"`);
  });
});

describe("the export of custom 3D environments (their schema answers a downloadUrl, no checksum)", () => {
  it("downloads an uploaded environment, declares it, and the experience that shows it refers to it", async () => {
    const scene = path.join(dir, "showroom.glb");
    fs.writeFileSync(scene, "glTF scene bytes");
    // Waits until processed: the emulator processes on its clock, which the upload's polling lets pass.
    const uploading = api.uploadCustom3DEnvironment({ source: scene, filename: "warehouse-scene.glb" });
    const timer = setInterval(() => emulator.advanceClock(1000), 50);
    const environment = (await uploading.finally(() => clearInterval(timer))).made;
    const site = await api.groups.configure(
      (await api.groups.create({ name: "Scene Site", parentId: null })).id,
    );
    const icon = (await api.images.all("headset-xp-menu-icon"))[0];
    const theme = (await api.themes.all()).find((t) => t.name === "ArborXR Dark")!;
    const app = (await api.apps.all()).find((a) => a.name === "Training Simulator")!;
    await api.headsetExperiences.set({ groupId: site.id }, "arborxr-home", {
      visibleContents: [{ type: "app", id: app.id }],
      language: "en",
      menuIconImageId: icon.id,
      themeId: theme.id,
      removePoweredByArborXrBranding: false,
      menuTitle: "Scenes",
      shortcuts: [],
      categorizationTags: [],
      background: { type: "custom-3d-environment", custom3DEnvironmentId: environment.id },
      adminPin: null,
      sharedModeSettings: {
        enableOfflineMode: false,
        requireManagedMetaLogin: false,
        enableControllerFree: true,
        adjustDeviceFit: true,
        defaultToStationaryBoundary: false,
      },
    });
    const out = path.join(dir, "environments", "program");
    const result = await exportTo(out, [], "groups,experiences,content");
    expect(result.code).toBe(0);
    expect(fs.readFileSync(path.join(out, "content", "warehouse-scene.glb"), "utf8")).toBe(
      "glTF scene bytes",
    );
    const index = result.files["index.ts"];
    expect(index).toMatch(
      /const (\w+) = new dm\.Custom3DEnvironment\(\s+"warehouse-scene-glb-custom3DEnvironment",\s+\{\s+source: "content\/warehouse-scene\.glb",\s+filename: "warehouse-scene\.glb",\s+adoptId: adopt\["warehouse-scene-glb-custom3DEnvironment"\],/,
    );
    const variable = /const (\w+) = new dm\.Custom3DEnvironment\(/.exec(index)![1];
    expect(index).toMatch(new RegExp(`custom3DEnvironmentId: ${variable}\\.id`));
    expect(index).not.toContain('dm.getCustom3DEnvironmentOutput({ name: "warehouse-scene.glb" })');
    // The seeded environment has no bytes here: listed, and found by name where shown.
    expect(result.files["README.md"]).toMatch(
      /The custom 3D environment "acme-showroom\.glb" \([\w-]+\) is not declared as a Custom3DEnvironment: the API answers a null download URL/,
    );
  });
});
