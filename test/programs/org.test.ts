// The example organization as whole programs, driven the way `pulumi up` drives them: the real SDK runs the
// program, every resource goes to the real dynamic-provider plugin, and the emulator is the organization.
import { holdsSecret } from "../fixtures/secrets";
import { createHash } from "crypto";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { startEmulator, type OrgSnapshot, type RunningEmulator } from "../../emulator";
import { DeviceMgmtClient } from "../../provider/client";
import { createEngine, type Engine } from "../engine";
import { declareOrganization, type OrganizationSettings } from "../../examples/org/organization";
import { DEFAULT_SITE_DEVICES } from "../../examples/org/sites";
import { BETA_SIMULATOR_VERSION } from "../../examples/org/content";

const repoRoot = path.resolve(__dirname, "../..");
/** The hash of one of examples/org's content fixtures, from the repository's bytes. */
const fixtureHash = (algorithm: "sha256" | "sha512", name: string) =>
  createHash(algorithm)
    .update(fs.readFileSync(path.join(repoRoot, "examples", "org", "content", name)))
    .digest("hex");
/** The kiosk's admin PIN, as a config secret would give it. */
const KIOSK_PIN = "73914";

let emulator: RunningEmulator;
let engine: Engine;
let settings: OrganizationSettings;
let before: OrgSnapshot;

/** What a person would compare: names, tree, roles, attachments — not ids or timestamps. */
function shape(snapshot: OrgSnapshot) {
  const groupName = new Map(snapshot.groups.map((g) => [g.id, g.name]));
  return {
    groups: snapshot.groups
      .map(
        (g) =>
          `${g.parentId ? groupName.get(g.parentId) : "(root)"} > ${g.name}${g.isConfigured ? " [configured]" : ""}`,
      )
      .sort(),
    users: snapshot.users
      .map((u) => ({
        email: u.email,
        name: `${u.firstName} ${u.lastName}`,
        roles: u.accessControls
          .map(
            (ac) =>
              `${ac.roleName}@${ac.protectable.type === "group" ? groupName.get(ac.protectable.id) : "org"}`,
          )
          .sort(),
      }))
      .sort((a, b) => a.email.localeCompare(b.email)),
    groupChannels: snapshot.groupReleaseChannels
      .map((a) => `${groupName.get(a.groupId)}:${a.releaseChannelId}`)
      .sort(),
    devices: snapshot.devices
      .map((d) => `${d.name}:${d.groupId ?? "-"}:${[...d.releaseChannelIds].sort().join(",")}`)
      .sort(),
  };
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  const admin = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.multiOrgAdmin });
  const loaner = (await admin.devices.all()).find((d) => d.name === "Headset 08");
  settings = {
    loanerDeviceId: loaner!.id,
    stagingSlug: "acme-staging",
    demoDeviceName: "Headset 01",
    emailDomain: "acme.example",
    siteDevices: DEFAULT_SITE_DEVICES,
  };
  before = emulator.snapshot();
  engine = await createEngine({
    cwd: repoRoot,
    project: "devicemgmt-example-org",
    config: { "devicemgmt:baseUrl": emulator.baseUrl },
    secretConfig: { "devicemgmt:apiToken": emulator.tokens.multiOrgAdmin },
  });
});

afterAll(async () => {
  await engine?.close();
  await emulator?.close();
});

const program =
  (overrides: Partial<OrganizationSettings> = {}) =>
  () =>
    declareOrganization({ ...settings, kioskPin: pulumi.secret(KIOSK_PIN), ...overrides });

describe("the example organization", () => {
  it("up creates the whole organization", async () => {
    const result = await engine.up(program());
    expect(result.errors).toEqual([]);
    // Groups, group channels, the device channel, users, the migration, and the two sites' experiences; since
    // issue 20 also the three site tags, four placed devices, one content attachment per site and the
    // Production channel's version; since issue 31 the uploaded build with Beta's delivery of it, and the
    // uploaded video and file with their attachments to Austin Lab and Berlin Lab; since round 3 the build's
    // bundle (which Beta delivers instead), Austin Lab's uploaded menu icon and 3D environment.
    expect(result.steps.create).toHaveLength(6 + 6 + 1 + 3 + 1 + 2 + 3 + 4 + 3 + 1 + 2 + 4 + 3);

    const org = shape(emulator.snapshot());
    expect(org.groups).toEqual([
      "(root) > Acme Training",
      "Acme Training > Americas",
      "Acme Training > EMEA",
      "Americas > Austin Lab [configured]",
      "EMEA > Berlin Lab [configured]",
      "EMEA > London Warehouse [configured]",
    ]);
    expect(org.users.find((u) => u.email === "emil.lindqvist@acme.example")?.roles).toEqual([
      "Group Admin@Berlin Lab",
      "Group Admin@London Warehouse",
      "Read Only@org",
    ]);
    expect(org.groupChannels).toHaveLength(6);
    const staging = emulator.snapshot("acme-staging");
    expect(emulator.snapshot().devices.find((d) => d.id === settings.loanerDeviceId)).toBeUndefined();
    expect(staging.devices.find((d) => d.id === settings.loanerDeviceId)).toBeDefined();
    expect(emulator.snapshot().devices.find((d) => d.name === "Headset 01")?.releaseChannelIds).toHaveLength(
      1,
    );
    expect(result.outputs.groups).toMatchObject({ berlin: expect.any(String) });

    // What the headsets show, read from the organization: the kiosk with its PIN, the home in the company theme.
    const admin = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
    const groupNamed = (name: string) => emulator.snapshot().groups.find((g) => g.name === name)!.id;
    const apps = await admin.apps.all();
    const themes = await admin.themes.all();
    // The kiosk shows the looked-up icon and 360° floor; Austin's home the icon and 3D hall the program uploaded.
    const uploaded = result.outputs.uploaded as Record<
      "build" | "video" | "file" | "image" | "environment" | "bundle",
      string
    >;
    const seeded = async (name: string, type: "headset-xp-menu-icon" | "three-sixty-background") =>
      (await admin.images.all(type)).find((i) => i.originalFileName === name)!.id;
    const kiosk = await admin.headsetExperiences.get({ groupId: groupNamed("London Warehouse") });
    expect(kiosk).toMatchObject({
      mode: "arborxr-kiosk",
      isMenuEnabled: true,
      adminPin: KIOSK_PIN,
      kioskContent: { type: "app", id: apps.find((a) => a.name === "Warehouse Picker")!.id },
      themeId: themes.find((t) => t.name === "ArborXR Dark" && t.isSystemOwned)!.id,
      menuIconImageId: await seeded("acme-menu-icon.png", "headset-xp-menu-icon"),
      background: {
        type: "360-background",
        threeSixtyImageId: await seeded("warehouse-floor-360.jpg", "three-sixty-background"),
      },
    });
    const home = await admin.headsetExperiences.get({ groupId: groupNamed("Austin Lab") });
    expect(home).toMatchObject({
      mode: "arborxr-home",
      menuTitle: "Austin Training",
      themeId: themes.find((t) => t.name === "Acme Brand" && !t.isSystemOwned)!.id,
      menuIconImageId: uploaded.image,
      background: { type: "custom-3d-environment", custom3DEnvironmentId: uploaded.environment },
    });
    expect(await admin.images.get(uploaded.image)).toMatchObject({
      originalFileName: "austin-menu-icon.png",
    });
    expect(await admin.custom3DEnvironments.get(uploaded.environment)).toMatchObject({
      objectName: "austin-training-hall.glb",
    });
    expect(home.visibleContents).toHaveLength(3);
    // Berlin Lab declares no experience: it keeps the device's default home, never configured.
    expect((await admin.headsetExperiences.get({ groupId: groupNamed("Berlin Lab") })).id).toBeNull();

    // Each site's headsets sit in it and carry (only) the site's tag; Production ships the build Beta ran.
    const devices = await admin.devices.all();
    const placed = (name: string) => devices.find((d) => d.name === name)!;
    expect([placed("Headset 02"), placed("Headset 03")].map((d) => [d.group?.name, d.tags])).toEqual([
      ["Berlin Lab", ["site-berlin"]],
      ["Berlin Lab", ["site-berlin"]],
    ]);
    expect([placed("Headset 04").group?.name, placed("Headset 04").tags]).toEqual([
      "London Warehouse",
      ["site-london"],
    ]);
    expect([placed("Headset 05").group?.name, placed("Headset 05").tags]).toEqual([
      "Austin Lab",
      ["site-austin"],
    ]);
    const simulator = apps.find((a) => a.name === "Training Simulator")!;
    const channels = await admin.apps.releaseChannels(simulator.id).all();
    const versionOf = (name: string) => channels.find((c) => c.name === name)!.version.version;
    // Production keeps the build Beta had; Beta ships the build the program uploaded, of the repository's bytes,
    // in the bundle with its expansion file.
    expect(versionOf("Production")).toBe("2.5.0-beta.3");
    expect(channels.find((c) => c.name === "Beta")!.version).toMatchObject({
      id: uploaded.build,
      version: BETA_SIMULATOR_VERSION,
      status: "available",
      checksum: {
        algorithm: "SHA-256",
        value: fixtureHash("sha256", `training-simulator-${BETA_SIMULATOR_VERSION}.apk`),
      },
    });
    expect(await admin.appBundles.get(uploaded.bundle)).toMatchObject({
      appBuild: { id: uploaded.build },
      label: "Beta with warehouse scene",
      status: "available",
    });
    expect(await admin.videos.get(uploaded.video)).toMatchObject({
      name: "Forklift Safety",
      checksum: { value: fixtureHash("sha512", "forklift-safety.mp4") },
    });
    expect(await admin.files.get(uploaded.file)).toMatchObject({
      filename: "evacuation-plan.pdf",
      checksum: { value: fixtureHash("sha512", "evacuation-plan.pdf") },
    });
    // The content attachments (the API lists no group's files or videos): read from the emulator's state. Each
    // site's looked-up content, and the uploaded video in Austin and file in Berlin beside it.
    const snapshot = emulator.snapshot();
    const site = (name: string) => snapshot.groups.find((g) => g.name === name)!;
    expect(site("Berlin Lab").fileIds).toHaveLength(2);
    expect(site("Berlin Lab").fileIds).toContain(uploaded.file);
    expect(site("London Warehouse").fileIds).toHaveLength(1);
    expect(site("Austin Lab").videoIds).toHaveLength(2);
    expect(site("Austin Lab").videoIds).toContain(uploaded.video);
  });

  it("keeps the token out of state and out of the plugin's log, even with debug logging on", async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "org-state-")), "state.json");
    await engine.saveState(file);
    const state = fs.readFileSync(file, "utf8");
    const secretPart = emulator.tokens.multiOrgAdmin.split("|")[1];
    expect(state).toContain("__provider");
    expect(state).not.toContain(secretPart);
    expect(holdsSecret(state, KIOSK_PIN)).toBe(false);
    const debug = await engine.refresh({ env: { DEVICEMGMT_LOG: "debug" } });
    expect(debug.errors).toEqual([]);
    // The plugin's request log (its stderr) reaches the CLI's output as diagnostics of this very run.
    expect(debug.output).toMatch(/devicemgmt: GET \/api\/v3\/groups/);
    expect(engine.stderr()).toMatch(/GET \/api\/v3\/groups/);
    expect(engine.stderr()).not.toContain(secretPart);
    expect(holdsSecret(engine.stderr(), KIOSK_PIN)).toBe(false);
  });

  it("up again changes nothing: no step, no write request", async () => {
    emulator.resetStats();
    const result = await engine.up(program());
    expect(result.errors).toEqual([]);
    expect(result.steps.create).toEqual([]);
    expect(result.steps.update).toEqual([]);
    expect(result.steps.replace).toEqual([]);
    expect(result.steps.delete).toEqual([]);
    expect(emulator.stats().writes).toBe(0);
  });

  it("refresh with no outside change shows none", async () => {
    const result = await engine.refresh();
    expect(result.errors).toEqual([]);
    expect(result.steps.update).toEqual([]);
    expect(result.steps.delete).toEqual([]);
  });

  it("preview of an edit shows exactly the planned change and writes nothing (the preview is the review)", async () => {
    emulator.resetStats();
    const preview = await engine.preview(program({ companyName: "Acme Academy" }));
    expect(preview.errors).toEqual([]);
    expect(preview.steps.update.map((s) => ({ name: s.name, changed: s.changedKeys }))).toEqual([
      { name: "company", changed: ["name"] },
    ]);
    expect(preview.steps.create).toEqual([]);
    expect(preview.steps.delete).toEqual([]);
    expect(emulator.stats().writes).toBe(0);
  });

  it("preview reports bad input per property before any write", async () => {
    emulator.resetStats();
    const preview = await engine.preview(program({ emailDomain: "not a domain" }));
    expect(preview.ok).toBe(false);
    const failures = preview.errors.flatMap((e) => e.failures ?? []);
    expect(failures.length).toBeGreaterThan(0);
    expect(failures.every((f) => f.property === "email")).toBe(true);
    expect(emulator.stats().writes).toBe(0);
  });

  it("an edited program updates only what changed", async () => {
    emulator.resetStats();
    const renamed = await engine.up(program({ companyName: "Acme Academy" }));
    expect(renamed.errors).toEqual([]);
    expect(renamed.steps.update.map((s) => s.name)).toEqual(["company"]);
    expect(renamed.steps.create).toEqual([]);
    expect(renamed.steps.replace).toEqual([]);
    expect(emulator.stats().writes).toBe(1);
    expect(shape(emulator.snapshot()).groups).toContain("(root) > Acme Academy");

    // A new e-mail domain is a new identity for every person: the users are replaced, nothing else moves.
    const moved = await engine.up(program({ companyName: "Acme Academy", emailDomain: "academy.example" }));
    expect(moved.errors).toEqual([]);
    expect(moved.steps.replace.map((s) => s.name).sort()).toEqual([
      "austin-trainer",
      "emea-lead",
      "ops-lead",
    ]);
    expect(moved.steps.update).toEqual([]);
    expect(emulator.snapshot().users.filter((u) => u.email.endsWith("@academy.example"))).toHaveLength(3);
    expect(
      emulator.snapshot().users.filter((u) => u.email.endsWith("@acme.example") && u.firstName === "Olivia"),
    ).toEqual([]);

    const back = await engine.up(program());
    expect(back.errors).toEqual([]);
    expect(shape(emulator.snapshot()).groups).toContain("(root) > Acme Training");
  });

  it("a change behind Pulumi's back shows on refresh and is repaired by up", async () => {
    const admin = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
    const berlinId = engine.resource("berlin").id as string;
    await admin.groups.update(berlinId, {
      name: "Berlin (renamed by hand)",
      parentId: engine.resource("emea").id as string,
    });
    const emil = emulator.snapshot().users.find((u) => u.email === "emil.lindqvist@acme.example")!;
    await admin.users.update(emil.id, { groupRoles: [{ ...emil.groupRoles[0], action: "detach" }] });

    const refreshed = await engine.refresh();
    expect(refreshed.errors).toEqual([]);
    expect(refreshed.steps.update.map((s) => s.name).sort()).toEqual(["berlin", "emea-lead"]);

    emulator.resetStats();
    const repaired = await engine.up(program());
    expect(repaired.errors).toEqual([]);
    expect(repaired.steps.update.map((s) => s.name).sort()).toEqual(["berlin", "emea-lead"]);
    expect(emulator.stats().writes).toBe(2);
    const org = shape(emulator.snapshot());
    expect(org.groups).toContain("EMEA > Berlin Lab [configured]");
    expect(org.users.find((u) => u.email === "emil.lindqvist@acme.example")?.roles).toHaveLength(3);
  });

  it("destroy leaves the organization as it was before the first up, but for the migrated device", async () => {
    const kept = (name: string) => engine.resource(name).id as string;
    const uploaded = {
      bundle: kept("simulator-beta-bundle"),
      image: kept("austin-menu-icon"),
      environment: kept("austin-training-hall"),
    };
    const result = await engine.destroy();
    expect(result.errors).toEqual([]);
    const after = shape(emulator.snapshot());
    const was = shape(before);
    expect(after.groups).toEqual(was.groups);
    expect(after.users).toEqual(was.users);
    expect(after.groupChannels).toEqual(was.groupChannels);
    // A migration cannot be undone through the API: the device stays in the staging organization.
    expect(after.devices).toEqual(was.devices.filter((d) => !d.startsWith("Headset 08:")));
    expect(engine.stderr()).toMatch(/cannot be undone/);
    // The uploaded video and file are deleted; the build, which the API cannot delete, stays (and is said so).
    const content = (s: OrgSnapshot) => ({
      files: s.files.map((f) => f.id),
      videos: s.videos.map((v) => v.id),
    });
    expect(content(emulator.snapshot())).toEqual(content(before));
    const admin = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
    const simulator = (await admin.apps.all()).find((a) => a.name === "Training Simulator")!;
    expect((await admin.releases.versions(simulator.id).all()).map((v) => v.version)).toContain(
      BETA_SIMULATOR_VERSION,
    );
    expect(engine.stderr()).toContain(
      `the API cannot delete an app build; version "${BETA_SIMULATOR_VERSION}" stays`,
    );
    // So do the bundle, the image and the 3D environment: each stays, available, and the run says so.
    const left = emulator.snapshot();
    expect(left.appBundles.find((b) => b.id === uploaded.bundle)).toMatchObject({ status: "available" });
    expect(left.images.find((i) => i.id === uploaded.image)).toMatchObject({ status: "available" });
    expect(left.custom3DEnvironments.find((e) => e.id === uploaded.environment)).toMatchObject({
      status: "available",
    });
    expect(engine.stderr()).toContain(
      `AppBundle ${uploaded.bundle} ("Beta with warehouse scene"): the API cannot delete app bundles; the bundle ` +
        "stays in the organization with its build and files. Removed from the stack only.",
    );
    expect(engine.stderr()).toContain(
      `Image ${uploaded.image} ("austin-menu-icon.png"): the API cannot delete images; it stays in the organization.`,
    );
    expect(engine.stderr()).toContain(
      `Custom3DEnvironment ${uploaded.environment} ("austin-training-hall.glb"): the API cannot delete custom 3D ` +
        "environments; it stays in the organization.",
    );
  });
});
