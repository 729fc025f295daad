// `npm run demo` end to end: its command (package.json's scripts.demo) runs as npm runs it, from the repository
// root with node_modules/.bin first on PATH, on the real Pulumi CLI that tools/pulumi-cli made ready. The CLI's
// own output is checked section by section, and the organization it leaves in its emulator state file is then
// loaded and checked against what examples/org declares, not only the printed text.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { startEmulator, type OrgSnapshot, type RunningEmulator } from "../../emulator";
import { DeviceMgmtClient } from "../../provider/client";
import { DEMO_KIOSK_PIN } from "../../examples/demo/programs";
import { checkpointPath } from "../../examples/demo/stack";
import { BETA_SIMULATOR_VERSION, SIMULATOR_OBB_FOLDER } from "../../examples/org/content";
import { createEngine } from "../engine";
import { generatedProgram, runExport, stackConfig } from "../export/support";

const root = resolve(__dirname, "../..");

/** The hash of one of examples/org's content fixtures, computed here from the repository's bytes. */
const hash = (algorithm: "sha256" | "sha512", name: string) =>
  createHash(algorithm)
    .update(readFileSync(join(root, "examples", "org", "content", name)))
    .digest("hex");
const APK = `training-simulator-${BETA_SIMULATOR_VERSION}.apk`;
const OBB = "main.260.com.acme.trainingsimulator.obb";

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runDemo(env: NodeJS.ProcessEnv): Promise<Run> {
  const script = (
    JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: { demo: string } }
  ).scripts.demo;
  return new Promise((done, fail) => {
    const child = spawn("/bin/sh", ["-c", script], {
      cwd: root,
      env: {
        ...process.env,
        PATH: [join(root, "node_modules", ".bin"), process.env.PATH ?? ""].join(delimiter),
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", fail);
    child.on("exit", (code) => done({ code, stdout, stderr }));
  });
}

/** The text under one of the demo's `=== <title>` headings, up to the next. */
function section(stdout: string, title: string): string {
  const parts = stdout.split("\n=== ");
  const found = parts.find((part) => part.startsWith(title));
  expect(found).toBeDefined();
  return found ?? "";
}

/** The PIN standing alone (not inside an id or a timestamp, whose digits may contain it by chance). */
const PIN_ALONE = new RegExp(`(?<![\\w.:-])${DEMO_KIOSK_PIN}(?![\\w.:-])`);

let folder: string;
let run: Run;

/** The resources of the stack the demo leaves in its file backend. */
function stackResources(): { urn: string; inputs?: Record<string, unknown> & { deviceId?: string } }[] {
  const file = JSON.parse(readFileSync(checkpointPath(folder), "utf8")) as {
    checkpoint: { latest: { resources: { urn: string; inputs?: Record<string, unknown> }[] } };
  };
  return file.checkpoint.latest.resources;
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), "demo-test-"));
  run = await runDemo({ DEVICEMGMT_DEMO_STATE: folder });
}, 600_000);

afterAll(() => rmSync(folder, { recursive: true, force: true }));

// The CLI counts the stack itself (pulumi:pulumi:Stack) among the resources of its summaries: examples/org's
// 39 resources are "40 to create" and "40 unchanged" in its output.
describe("npm run demo", () => {
  it("exits 0 with nothing on stderr and says which CLI, emulator and folder it uses", () => {
    // tools/pulumi-cli says on stderr when it builds the CLI or links one from PATH; nothing else may be there.
    expect(run.stderr.replace(/^pulumi-cli: .*\n/gm, "")).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^demo: the emulator of the device-management API listens on http:\/\/127\.0\.0\.1:\d+/m,
    );
    expect(run.stdout).toMatch(
      /^demo: the Pulumi CLI v3\.\d+\.\d+ \(\S+\/bin\/pulumi, (cache|path|built)\)$/m,
    );
    expect(run.stdout).toContain(
      `demo: the stack "demo" (file backend, passphrase secrets) and the organization: ${folder}`,
    );
  });

  it("previews the whole organization as creates with their type tokens, then creates it", () => {
    const preview = section(run.stdout, "pulumi preview: examples/org on a new stack");
    expect(preview).toContain("Previewing update (demo):");
    expect(preview).toMatch(/\+\s+pulumi-nodejs:dynamic\/devicemgmt:Group company create/);
    expect(preview).toMatch(/\+\s+pulumi-nodejs:dynamic\/devicemgmt:User emea-lead create/);
    expect(preview).toMatch(
      /\+\s+pulumi-nodejs:dynamic\/devicemgmt:GroupReleaseChannel berlin-safety create/,
    );
    expect(preview).toMatch(/\+\s+pulumi-nodejs:dynamic\/devicemgmt:HeadsetExperience london-kiosk create/);
    // The content the program uploads (issue 31): the build and Beta's delivery of it, the video and the file,
    // each with its attachment to a site.
    expect(preview).toMatch(/\+\s+pulumi-nodejs:dynamic\/devicemgmt:AppVersion simulator-build create/);
    expect(preview).toMatch(/\+\s+pulumi-nodejs:dynamic\/devicemgmt:Video forklift-safety-video create/);
    expect(preview).toMatch(/\+\s+pulumi-nodejs:dynamic\/devicemgmt:File evacuation-plan create/);
    // Round 3: the build's bundle that Beta delivers, Austin Lab's menu icon and 3D training hall.
    expect(preview).toMatch(/\+\s+pulumi-nodejs:dynamic\/devicemgmt:AppBundle simulator-beta-bundle create/);
    expect(preview).toMatch(/\+\s+pulumi-nodejs:dynamic\/devicemgmt:Image austin-menu-icon create/);
    expect(preview).toMatch(
      /\+\s+pulumi-nodejs:dynamic\/devicemgmt:Custom3DEnvironment austin-training-hall create/,
    );
    // 17 before issue 19, plus the two sites' headset experiences (19); since issue 20 also three site tags,
    // four placed headsets, one content attachment per site and the Production channel's version (30); since
    // issue 31 the uploaded build, video and file, Beta's delivery and two attachments (36); since round 3 the
    // bundle, the image and the 3D environment (39); and the stack.
    expect(preview).toMatch(/Resources:\n {4}\+ 40 to create\n/);

    const up = section(run.stdout, "pulumi up\n");
    expect(up).toContain("Updating (demo):");
    expect(up).toMatch(/\+\s+pulumi-nodejs:dynamic\/devicemgmt:Group company created/);
    expect(up).toMatch(/Resources:\n {4}\+ 40 created\n/);
    expect(up).toMatch(/Outputs:\n {4}groups {8}: \{\n {8}americas: "[0-9a-f-]+"/);
    expect(up).toMatch(/Duration: \d+s/);
  });

  it("previews the edit with its changed values, as a pull request's preview shows it", () => {
    const edit = section(run.stdout, "pulumi preview --diff --refresh: an edit");
    expect(edit).toContain("Previewing update (demo):");
    expect(edit).toMatch(
      /~ pulumi-nodejs:dynamic\/devicemgmt:Group: \(update\)\n.*\n.*::pulumi-nodejs:dynamic\/devicemgmt:Group::company\]\n/,
    );
    expect(edit).toMatch(/~ name\s*: "Acme Training" => "Acme Academy"/);
    expect(edit).toMatch(
      /\+ pulumi-nodejs:dynamic\/devicemgmt:User: \(create\)\n.*::pulumi-nodejs:dynamic\/devicemgmt:User::berlin-trainer\]\n/,
    );
    expect(edit).toMatch(/email\s*: "bea\.berger@acme\.example"/);
    expect(edit).toMatch(/Resources:\n {4}\+ 1 to create\n {4}~ 1 to update\n {4}2 changes\. 39 unchanged/);
  });

  it("runs a second up of the unchanged program that changes nothing", () => {
    const again = section(run.stdout, "pulumi up --expect-no-changes: examples/org again, unchanged");
    expect(again).toContain("Updating (demo):");
    expect(again).toMatch(/Resources:\n {4}40 unchanged\n/);
    expect(again).not.toMatch(/created|updated|deleted|replaced/);
  });

  it("prints the organization as the API reports it", () => {
    expect(run.stdout).toContain("Organization Acme Devices (acme), as the API now reports it:");
    expect(run.stdout).toContain(
      "Emil Lindqvist: Group Admin@Berlin Lab, Group Admin@London Warehouse, Read Only@org",
    );
    expect(run.stdout).toMatch(/\n {6}Austin Lab {2}\[configured; channel Safety Briefing \/ Stable/);
    expect(run.stdout).toContain("Headset 01: Training Simulator / Beta");
    // The kiosk shows the looked-up icon and 360° floor; Austin's home the icon and 3D hall the program uploaded.
    expect(run.stdout).toMatch(
      /London Warehouse {2}\[configured; channel [^\]]*; kiosk Warehouse Picker \(icon acme-menu-icon\.png, background 360° warehouse-floor-360\.jpg\), admin PIN set\]/,
    );
    expect(run.stdout).toMatch(
      /Austin Lab {2}\[configured; channel [^\]]*; home menu "Austin Training" \(3 items, theme Acme Brand, icon austin-menu-icon\.png, background 3D environment austin-training-hall\.glb\)\]/,
    );
    // Each site's headsets with the site's tag, and the build each channel ships (Production = Beta's).
    expect(run.stdout).toMatch(
      /Berlin Lab {2}\[configured; [^\]]*headsets Headset 02 \(site-berlin\), Headset 03 \(site-berlin\)/,
    );
    expect(run.stdout).toMatch(/Austin Lab {2}\[configured; [^\]]*headsets Headset 05 \(site-austin\)/);
    expect(run.stdout).toContain("What each release channel ships:");
    expect(run.stdout).toContain("  Training Simulator / Production: 2.5.0-beta.3");
    // Beta ships the build the program uploaded; Production keeps the one Beta had before.
    expect(run.stdout).toContain(`  Training Simulator / Beta: ${BETA_SIMULATOR_VERSION}`);
  });

  it("prints the uploaded content with the checksums the API computed from the repository's bytes (sizes for the image and the 3D environment)", () => {
    const uploaded = section(run.stdout, "The organization").split(
      "Content the program uploaded, with the checksums the API computed:\n",
    )[1];
    const size = (name: string) => statSync(join(root, "examples", "org", "content", name)).size;
    expect(uploaded?.split("\n").slice(0, 8)).toEqual([
      `  build Training Simulator ${BETA_SIMULATOR_VERSION} (available): SHA-256 ${hash("sha256", APK)}`,
      `  video "Forklift Safety" (forklift-safety.mp4, TwoDimensional): SHA-512 ${hash("sha512", "forklift-safety.mp4")}`,
      `  file /sdcard/Docs/evacuation-plan.pdf: SHA-512 ${hash("sha512", "evacuation-plan.pdf")}`,
      `  image austin-menu-icon.png (type unknown, image/png, ${size("austin-menu-icon.png")} bytes, available): ` +
        "the API answers no checksum",
      `  3D environment austin-training-hall.glb (${size("austin-training-hall.glb")} bytes, available): the API ` +
        "answers no checksum",
      `  bundle "Beta with warehouse scene" of Training Simulator ${BETA_SIMULATOR_VERSION} (available), with:`,
      `    ${SIMULATOR_OBB_FOLDER}/${OBB}: SHA-512 ${hash("sha512", OBB)}`,
      "",
    ]);
  });

  it("never shows the kiosk's admin PIN, in its output or in the Pulumi state it leaves", () => {
    expect(run.stdout).not.toMatch(PIN_ALONE);
    expect(readFileSync(checkpointPath(folder), "utf8")).not.toMatch(PIN_ALONE);
    // The PIN is in the state, as a secret: the kiosk's input is the encrypted form.
    const kiosk = stackResources().find((r) => r.urn.endsWith("::london-kiosk"));
    expect(kiosk?.inputs?.adminPin).toMatchObject({ ciphertext: expect.any(String) });
  });

  describe("the organization left in the state file", () => {
    let emulator: RunningEmulator;
    let org: OrgSnapshot;
    let staging: OrgSnapshot;
    let channelName: Map<string, string>;

    beforeAll(async () => {
      emulator = await startEmulator({ port: 0, statePath: join(folder, "emulator-state.json") });
      org = emulator.snapshot();
      staging = emulator.snapshot("acme-staging");
      const client = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
      channelName = new Map();
      for (const app of await client.apps.all()) {
        for (const channel of await client.apps.releaseChannels(app.id).all()) {
          channelName.set(channel.id, `${app.name} / ${channel.name}`);
        }
      }
    });

    afterAll(async () => emulator?.close());

    const groupName = (id: string | null) => org.groups.find((g) => g.id === id)?.name ?? "(root)";

    it("has the declared group tree (and not the edit, which was only previewed)", () => {
      expect(
        org.groups
          .map((g) => `${groupName(g.parentId)} > ${g.name}${g.isConfigured ? " [configured]" : ""}`)
          .sort(),
      ).toEqual([
        "(root) > Acme Training",
        "Acme Training > Americas",
        "Acme Training > EMEA",
        "Americas > Austin Lab [configured]",
        "EMEA > Berlin Lab [configured]",
        "EMEA > London Warehouse [configured]",
      ]);
    });

    it("has the declared people with their roles", () => {
      const roles = (email: string) =>
        org.users
          .find((u) => u.email === email)
          ?.accessControls.map(
            (ac) =>
              `${ac.roleName}@${ac.protectable.type === "group" ? groupName(ac.protectable.id) : "org"}`,
          )
          .sort();
      expect(roles("olivia.ops@acme.example")).toEqual(["Admin@org"]);
      expect(roles("emil.lindqvist@acme.example")).toEqual([
        "Group Admin@Berlin Lab",
        "Group Admin@London Warehouse",
        "Read Only@org",
      ]);
      expect(roles("tess.trainer@acme.example")).toEqual(["Group Viewer@Austin Lab", "Read Only@org"]);
      expect(org.users.find((u) => u.email === "bea.berger@acme.example")).toBeUndefined();
    });

    it("has the declared release channels on groups and on the demo device, and the loaner migrated", () => {
      expect(
        org.groupReleaseChannels
          .map((a) => `${groupName(a.groupId)}: ${channelName.get(a.releaseChannelId)}`)
          .sort(),
      ).toEqual([
        "Austin Lab: Safety Briefing / Stable",
        "Austin Lab: Training Simulator / Beta",
        "Berlin Lab: Safety Briefing / Stable",
        "Berlin Lab: Training Simulator / Production",
        "London Warehouse: Safety Briefing / Stable",
        "London Warehouse: Warehouse Picker / Production",
      ]);
      const headset = org.devices.find((d) => d.name === "Headset 01");
      expect(headset?.releaseChannelIds.map((id) => channelName.get(id))).toEqual([
        "Training Simulator / Beta",
      ]);
      // The migrated device, by the id in the stack's state (every organization has its own Headset 08).
      const loanerId = stackResources().find((r) => r.urn.endsWith("::loaner-to-staging"))?.inputs?.deviceId;
      expect(loanerId).toEqual(expect.any(String));
      expect(org.devices.find((d) => d.id === loanerId)).toBeUndefined();
      expect(staging.devices.find((d) => d.id === loanerId)?.name).toBe("Headset 08");
    });

    it("has the uploaded content: the build on Beta (Production on its old build), the video at Austin Lab, the file at Berlin Lab", async () => {
      const client = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
      const simulator = (await client.apps.all()).find((a) => a.name === "Training Simulator")!;
      const channels = await client.apps.releaseChannels(simulator.id).all();
      const beta = channels.find((c) => c.name === "Beta")!.version;
      expect(beta).toMatchObject({
        version: BETA_SIMULATOR_VERSION,
        checksum: { algorithm: "SHA-256", value: hash("sha256", APK) },
      });
      expect(channels.find((c) => c.name === "Production")!.version.version).toBe("2.5.0-beta.3");
      // One build of those bytes: the second up adopted nothing and uploaded nothing again.
      const builds = await client.releases.versions(simulator.id, [hash("sha256", APK)]).all();
      expect(builds.map((b) => b.id)).toEqual([beta.id]);

      // The checksums through the API; which group holds what from the state (the API lists no group's content).
      const site = (name: string) => org.groups.find((g) => g.name === name)!;
      const videos = await client.videos.all();
      const video = videos.find((v) => v.checksum.value === hash("sha512", "forklift-safety.mp4"));
      expect(video).toMatchObject({ name: "Forklift Safety", filename: "forklift-safety.mp4" });
      expect(site("Austin Lab").videoIds).toEqual(expect.arrayContaining([video!.id]));
      expect(site("Austin Lab").videoIds).toHaveLength(2); // beside the looked-up Welcome Tour
      const file = (await client.files.all()).find(
        (f) => f.checksum.value === hash("sha512", "evacuation-plan.pdf"),
      );
      expect(file).toMatchObject({ filename: "evacuation-plan.pdf", location: "/sdcard/Docs" });
      expect(site("Berlin Lab").fileIds).toEqual(expect.arrayContaining([file!.id]));
      expect(site("Berlin Lab").fileIds).toHaveLength(2); // beside the looked-up safety manual

      // Beta delivers the build in its bundle, with the expansion file in the app's obb folder; one bundle of that
      // label (the build's upload made the build's own first one, unlabelled), uploaded once.
      const bundles = org.appBundles.filter((b) => b.label === "Beta with warehouse scene");
      expect(bundles).toEqual([expect.objectContaining({ versionId: beta.id, status: "available" })]);
      expect(await client.appBundles.files(bundles[0]!.id).all()).toEqual([
        expect.objectContaining({
          bundlePaths: [`${SIMULATOR_OBB_FOLDER}/${OBB}`],
          checksum: expect.objectContaining({ value: hash("sha512", OBB) }),
        }),
      ]);
      // The image and the 3D environment, uploaded once each (the second up uploaded nothing again).
      expect(org.images.filter((i) => i.originalFileName === "austin-menu-icon.png")).toEqual([
        expect.objectContaining({ status: "available" }),
      ]);
      expect(org.custom3DEnvironments.filter((e) => e.objectName === "austin-training-hall.glb")).toEqual([
        expect.objectContaining({ status: "available" }),
      ]);
    });

    it("has the kiosk with its PIN at London Warehouse and the themed home, with its uploaded icon and 3D hall, at Austin Lab", async () => {
      const client = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
      const site = (name: string) => ({ groupId: org.groups.find((g) => g.name === name)!.id });
      const apps = await client.apps.all();
      const kiosk = await client.headsetExperiences.get(site("London Warehouse"));
      expect(kiosk).toMatchObject({ mode: "arborxr-kiosk", isMenuEnabled: true, adminPin: DEMO_KIOSK_PIN });
      expect(kiosk.kioskContent?.id).toBe(apps.find((a) => a.name === "Warehouse Picker")!.id);
      const floor = (await client.images.all("three-sixty-background")).find(
        (i) => i.originalFileName === "warehouse-floor-360.jpg",
      );
      expect(kiosk.background).toMatchObject({ type: "360-background", threeSixtyImageId: floor!.id });
      const home = await client.headsetExperiences.get(site("Austin Lab"));
      const theme = (await client.themes.all()).find((t) => t.id === home.themeId);
      expect(home.mode).toBe("arborxr-home");
      expect(theme).toMatchObject({ name: "Acme Brand", isSystemOwned: false });
      // Austin's own icon and 3D hall, the ones the program uploaded.
      const icon = org.images.find((i) => i.originalFileName === "austin-menu-icon.png");
      const hall = org.custom3DEnvironments.find((e) => e.objectName === "austin-training-hall.glb");
      expect(home.menuIconImageId).toBe(icon!.id);
      expect(home.background).toMatchObject({
        type: "custom-3d-environment",
        custom3DEnvironmentId: hall!.id,
      });
      expect((await client.headsetExperiences.get(site("Berlin Lab"))).id).toBeNull();
    });

    it("exports both experiences: Austin Lab's finds its uploaded icon (type unknown) and 3D hall by name, and the exported program adopts them unchanged", async () => {
      const out = mkdtempSync(join(tmpdir(), "demo-export-"));
      try {
        const exported = await runExport(["--only", "groups,experiences"], out, "acme-org", {
          DEVICEMGMT_BASE_URL: emulator.baseUrl,
          DEVICEMGMT_API_TOKEN: emulator.tokens.admin,
        });
        expect(exported.code).toBe(0);
        const index = exported.files["index.ts"];
        expect(index.match(/new dm\.HeadsetExperience\(/g)).toHaveLength(2);
        expect(index).toContain('dm.getImageOutput({ name: "austin-menu-icon.png", type: "unknown" })');
        expect(index).toContain('dm.getCustom3DEnvironmentOutput({ name: "austin-training-hall.glb" })');
        expect(exported.files["README.md"]).not.toContain("declare it by hand");

        const client = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
        const austin = { groupId: org.groups.find((g) => g.name === "Austin Lab")!.id };
        const before = await client.headsetExperiences.get(austin);
        const engine = await createEngine({
          cwd: root,
          project: "acme-org",
          stack: "production",
          config: stackConfig(join(out, "Pulumi.production.yaml")),
          secretConfig: {
            "devicemgmt:apiToken": emulator.tokens.admin,
            "acme-org:londonWarehouseAdminPin": DEMO_KIOSK_PIN,
          },
        });
        try {
          const up = await engine.up(generatedProgram(out));
          expect(up.errors).toEqual([]);
          const after = await client.headsetExperiences.get(austin);
          expect({ ...after, updatedAt: null }).toEqual({ ...before, updatedAt: null });
          const again = await engine.up(generatedProgram(out));
          expect(again.errors).toEqual([]);
          expect(again.steps.create.length + again.steps.update.length + again.steps.replace.length).toBe(0);
        } finally {
          await engine.close();
        }
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    });
  });
});
