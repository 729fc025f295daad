// examples/org's uploaded content (content.ts) finds its fixtures whichever folder the program runs from, on the
// real Pulumi CLI: the program's folder, where the engine starts the provider plugin and where the Node.js
// language host runs the program, is examples/org for `pulumi up` (there, or at the root whose Pulumi.yaml says
// `main: examples/org/`) and the repository root for the demo and the tests' inline programs. Each reading
// uploads the six fixtures (a build and the data file of its bundle, a video, a file, an image, a 3D environment),
// and the API answers the checksums of the bytes in the repository (sizes for the image and the environment, of
// which it answers no checksum); a second `up` and a `refresh` right after it change nothing.
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import * as dm from "pulumi-devicemgmt";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { DeviceMgmtClient } from "../../provider/client";
import { createEngine, type Engine } from "../engine";
import { BETA_SIMULATOR_VERSION, declareContent, SIMULATOR_OBB_FOLDER } from "../../examples/org/content";

const repoRoot = path.resolve(__dirname, "../..");
const orgFolder = path.join(repoRoot, "examples", "org");
const fixture = (name: string) => path.join(orgFolder, "content", name);
const hash = (algorithm: "sha256" | "sha512", name: string) =>
  createHash(algorithm)
    .update(fs.readFileSync(fixture(name)))
    .digest("hex");
const APK = `training-simulator-${BETA_SIMULATOR_VERSION}.apk`;
const OBB = "main.260.com.acme.trainingsimulator.obb";

/**
 * content.ts on two new sites, declared with `folder` as the working directory, as the language host (or the demo,
 * from the root) runs examples/org.
 */
const program = (folder: string) => () => {
  const previous = process.cwd();
  process.chdir(folder);
  try {
    const site = (name: string) => new dm.Group(name, { name: `Content ${name}`, configured: true });
    // The uploaded ids (the image and the environment themselves are experiences.ts's, not declared here).
    return declareContent({ berlin: site("berlin"), austin: site("austin") }).ids;
  } finally {
    process.chdir(previous);
  }
};

describe.each([
  { reading: "`pulumi up` in examples/org", folder: orgFolder, prefix: "content/" },
  {
    reading: "the demo's inline program at the repository root",
    folder: repoRoot,
    prefix: "examples/org/content/",
  },
])("examples/org's content, run as $reading", ({ folder, prefix }) => {
  let emulator: RunningEmulator;
  let engine: Engine;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    engine = await createEngine({
      cwd: folder,
      project: "devicemgmt-org-content",
      config: { "devicemgmt:baseUrl": emulator.baseUrl },
      secretConfig: { "devicemgmt:apiToken": emulator.tokens.admin },
    });
  });

  afterAll(async () => {
    await engine?.close();
    await emulator?.close();
  });

  it("uploads the fixtures by a path relative to that folder; the API answers the repository's hashes", async () => {
    const up = await engine.up(program(folder));
    expect(up.errors).toEqual([]);
    expect(up.steps.create.map((s) => s.name).sort()).toEqual(
      [
        "austin",
        "austin-forklift-safety",
        "berlin",
        "berlin-evacuation-plan",
        "austin-menu-icon",
        "austin-training-hall",
        "evacuation-plan",
        "forklift-safety-video",
        "simulator-beta-bundle",
        "simulator-beta-version",
        "simulator-build",
      ].sort(),
    );
    // The recorded source is relative to the program's folder (never this machine's absolute path).
    expect(engine.resource("simulator-build").inputs.source).toBe(`${prefix}${APK}`);
    expect(engine.resource("evacuation-plan").inputs.source).toBe(`${prefix}evacuation-plan.pdf`);
    expect(engine.resource("austin-menu-icon").inputs.source).toBe(`${prefix}austin-menu-icon.png`);
    expect(engine.resource("austin-training-hall").inputs.source).toBe(`${prefix}austin-training-hall.glb`);
    expect(engine.resource("simulator-beta-bundle").inputs.files).toEqual([
      expect.objectContaining({ source: `${prefix}${OBB}`, path: SIMULATOR_OBB_FOLDER }),
    ]);

    const client = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
    const ids = up.outputs as Record<"build" | "video" | "file" | "image" | "environment" | "bundle", string>;
    const simulator = (await client.apps.all()).find((a) => a.name === "Training Simulator")!;
    const build = (await client.releases.versions(simulator.id).all()).find((v) => v.id === ids.build);
    expect(build).toMatchObject({
      version: BETA_SIMULATOR_VERSION,
      status: "available",
      checksum: { algorithm: "SHA-256", value: hash("sha256", APK) },
    });
    // Beta delivers the bundle: the build with its expansion file (the channel shows the bundle's build).
    const beta = (await client.apps.releaseChannels(simulator.id).all()).find((c) => c.name === "Beta")!;
    expect(beta.version.id).toBe(ids.build);
    expect(await client.appBundles.get(ids.bundle)).toMatchObject({
      label: "Beta with warehouse scene",
      status: "available",
      appBuild: { id: ids.build },
    });
    expect(await client.appBundles.files(ids.bundle).all()).toEqual([
      expect.objectContaining({
        bundlePaths: [`${SIMULATOR_OBB_FOLDER}/${OBB}`],
        checksum: expect.objectContaining({ value: hash("sha512", OBB) }),
      }),
    ]);
    expect((await client.videos.get(ids.video)).checksum.value).toBe(hash("sha512", "forklift-safety.mp4"));
    expect(await client.files.get(ids.file)).toMatchObject({
      filename: "evacuation-plan.pdf",
      location: "/sdcard/Docs",
      checksum: { value: hash("sha512", "evacuation-plan.pdf") },
    });
    // The API answers no checksum for images and 3D environments: their names and sizes are the repository's.
    const size = (name: string) => fs.statSync(fixture(name)).size;
    expect(await client.images.get(ids.image)).toMatchObject({
      originalFileName: "austin-menu-icon.png",
      mimeType: "image/png",
      sizeBytes: size("austin-menu-icon.png"),
      status: "available",
    });
    expect(await client.custom3DEnvironments.get(ids.environment)).toMatchObject({
      objectName: "austin-training-hall.glb",
      sizeBytes: size("austin-training-hall.glb"),
      status: "available",
    });
    const sites = emulator.snapshot().groups;
    expect(sites.find((g) => g.name === "Content berlin")?.fileIds).toEqual([ids.file]);
    expect(sites.find((g) => g.name === "Content austin")?.videoIds).toEqual([ids.video]);

    const again = await engine.up(program(folder));
    expect(again.errors).toEqual([]);
    expect(again.steps.create.length + again.steps.update.length + again.steps.replace.length).toBe(0);
    const refreshed = await engine.refresh();
    expect(refreshed.errors).toEqual([]);
    expect(refreshed.steps.update.length + refreshed.steps.delete.length).toBe(0);
    // Nothing was uploaded twice: one image, one environment, and one bundle of that label (the build's upload
    // made the build's own first bundle, without a label).
    const after = emulator.snapshot();
    expect(after.images.filter((i) => i.originalFileName === "austin-menu-icon.png")).toHaveLength(1);
    expect(
      after.custom3DEnvironments.filter((e) => e.objectName === "austin-training-hall.glb"),
    ).toHaveLength(1);
    const bundles = after.appBundles.filter((b) => b.versionId === ids.build);
    expect(bundles.filter((b) => b.label === "Beta with warehouse scene").map((b) => b.id)).toEqual([
      ids.bundle,
    ]);
  });
});
