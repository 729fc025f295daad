// No ordinary operation changes live state the stack no longer owns (issue #32): a resource renamed in code does
// not reset what its new name configured, a connection move to another organization does not detach first, a
// tag renamed in the run a TagSet changes owner is followed, and a TagSet's destroy keeps the owner's own tags.
// Each on the real Pulumi CLI, the organization read afterwards through the emulator's API.
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { DeviceMgmtClient } from "../../provider/client";
import { createEngine, type Engine } from "../engine";
import * as dm from "../../provider";
import { SHARED_MODE_SETTINGS as SHARED } from "../fixtures/declarations";

const repoRoot = path.resolve(__dirname, "../..");

let emulator: RunningEmulator;
let admin: DeviceMgmtClient;
const engines: Engine[] = [];

async function newStack(project: string): Promise<Engine> {
  const engine = await createEngine({
    cwd: repoRoot,
    project,
    config: { "devicemgmt:baseUrl": emulator.baseUrl },
    secretConfig: { "devicemgmt:apiToken": emulator.tokens.admin },
  });
  engines.push(engine);
  return engine;
}

const appId = async (name: string) => (await admin.apps.all()).find((a) => a.name === name)!.id;
const appTags = async (name: string) =>
  ((await admin.apps.get(await appId(name))).tags ?? []).map((t) => t.toLowerCase()).sort();

/** The app carries exactly `tags` (set through the API, as someone in the portal would). */
async function setAppTags(name: string, tags: string[]) {
  const id = await appId(name);
  const current = (await admin.apps.get(id)).tags ?? [];
  if (current.length) await admin.tags.detach("apps", id, current);
  if (tags.length) await admin.tags.attach("apps", id, tags);
}

async function configuredGroup(name: string): Promise<string> {
  const group = await admin.groups.create({ name, parentId: null });
  return (await admin.groups.configure(group.id)).id;
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  admin = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
});

afterAll(async () => {
  for (const engine of engines) await engine.close();
  await emulator?.close();
});

describe("a resource renamed in code without aliases", () => {
  test("a HeadsetExperience with resetOnDelete keeps the kiosk its new name configured", async () => {
    const engine = await newStack("devicemgmt-ownership-experience");
    const siteId = await configuredGroup("Kiosk Site");
    const kiosk = (name: string) => () => {
      const simulator = dm.getAppOutput({ name: "Training Simulator" });
      new dm.HeadsetExperience(name, {
        groupId: siteId,
        mode: "arborxr-kiosk",
        isMenuEnabled: false,
        kioskContent: { type: "app", id: simulator.id },
        sharedModeSettings: SHARED,
        resetOnDelete: true,
      });
    };
    const first = await engine.up(kiosk("lobby-kiosk"));
    expect(first.errors).toEqual([]);
    const configured = async () => (await admin.headsetExperiences.get({ groupId: siteId })).mode;
    expect(await configured()).toBe("arborxr-kiosk");

    const renamed = await engine.up(kiosk("site-kiosk"));
    expect(renamed.errors).toEqual([]);
    expect(renamed.steps.create.map((s) => s.name)).toEqual(["site-kiosk"]);
    expect(renamed.steps.delete.map((s) => s.name)).toEqual(["lobby-kiosk"]);
    // The old name's delete did not reset the site to the default home: the kiosk the new name holds stays.
    expect(await configured()).toBe("arborxr-kiosk");
    const quiet = await engine.up(kiosk("site-kiosk"));
    expect(quiet.steps.update.concat(quiet.steps.create, quiet.steps.delete)).toEqual([]);

    // The new name's own destroy still resets, as declared.
    const destroyed = await engine.destroy();
    expect(destroyed.errors).toEqual([]);
    expect(await configured()).toBe("device-default");
  });
});

describe("a connection moved to another organization", () => {
  test("a GroupFile and a DeviceVideo are refused at preview (content stays in the first); a new name moves create-first", async () => {
    const engine = await newStack("devicemgmt-ownership-connection");
    const siteId = await configuredGroup("Content Site");
    const device = (await admin.devices.all()).find((d) => !d.group)!;
    type Connection = dm.ConnectionArg["connection"];
    const program = (fileConnection?: Connection, videoConnection?: Connection) => () => {
      const manual = dm.getFileOutput({ filename: "safety-manual.pdf" });
      const tour = dm.getVideoOutput({ name: "Welcome Tour" });
      new dm.GroupFile("site-manual", { groupId: siteId, fileId: manual.id, connection: fileConnection });
      new dm.DeviceVideo("headset-tour", {
        deviceId: device.id,
        videoId: tour.id,
        connection: videoConnection,
      });
    };
    const first = await engine.up(program());
    expect(first.errors).toEqual([]);
    const attached = async () => ({
      file: emulator.snapshot().groups.find((g) => g.id === siteId)?.fileIds.length,
      videos: (await admin.deviceContent.videos(device.id).all()).length,
    });
    expect(await attached()).toEqual({ file: 1, videos: 1 });

    const staging = { baseUrl: emulator.baseUrl, apiToken: emulator.tokens.multiOrgAdminSecondary };
    const moves = [
      { kind: "GroupFile", program: program(staging) },
      { kind: "DeviceVideo", program: program(undefined, staging) },
    ];
    for (const move of moves) {
      for (const run of [engine.preview, engine.up]) {
        const refused = await run.call(engine, move.program);
        expect(refused.ok).toBe(false);
        expect(refused.errors.map((e) => e.message)).toEqual([
          expect.stringMatching(
            new RegExp(`^${move.kind}: connection now reaches another organization.*new resource name`, "s"),
          ),
        ]);
        expect(refused.steps.replace).toEqual([]);
        expect(refused.steps.delete).toEqual([]);
      }
    }
    // Nothing was detached in the first organization, and state still holds both.
    expect(await attached()).toEqual({ file: 1, videos: 1 });
    expect(engine.resources().map((r) => r.name)).toEqual(
      expect.arrayContaining(["site-manual", "headset-tour"]),
    );

    // The fix the message names: a new resource name with the new connection (and that organization's ids). The
    // engine creates it there first, then deletes the name no longer declared here.
    const stagingAdmin = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: staging.apiToken });
    const stagingSite = (await stagingAdmin.groups.create({ name: "Content Site", parentId: null })).id;
    await stagingAdmin.groups.configure(stagingSite);
    const stagingManual = (await stagingAdmin.files.all()).find(
      (f) => f.filename === "safety-manual.pdf",
    )!.id;
    const moved = await engine.up(() => {
      const tour = dm.getVideoOutput({ name: "Welcome Tour" });
      new dm.GroupFile("staging-manual", {
        groupId: stagingSite,
        fileId: stagingManual,
        connection: staging,
      });
      new dm.DeviceVideo("headset-tour", { deviceId: device.id, videoId: tour.id });
    });
    expect(moved.errors).toEqual([]);
    expect(moved.operations.map((o) => `${o.op} ${o.urn.split("::").pop()}`)).toEqual([
      "create staging-manual",
      "delete site-manual",
    ]);
    expect(emulator.snapshot("acme-staging").groups.find((g) => g.id === stagingSite)?.fileIds).toEqual([
      stagingManual,
    ]);
    expect(await attached()).toEqual({ file: 0, videos: 1 });
  });
});

describe("TagSet", () => {
  test("a tag renamed in the run its set changes owner is removed from the old owner, in that run", async () => {
    const engine = await newStack("devicemgmt-ownership-tag-rename");
    await setAppTags("Training Simulator", []);
    await setAppTags("Warehouse Picker", []);
    const program = (tagName: string, app: string) => () => {
      const tag = new dm.Tag("cohort", { name: tagName });
      new dm.TagSet("cohort-app", {
        ownerType: "app",
        ownerId: dm.getAppOutput({ name: app }).id,
        tags: [tag.name],
      });
    };
    const first = await engine.up(program("cohort-alpha", "Training Simulator"));
    expect(first.errors).toEqual([]);
    expect(await appTags("Training Simulator")).toEqual(["cohort-alpha"]);

    const moved = await engine.up(program("cohort-beta", "Warehouse Picker"));
    expect(moved.errors).toEqual([]);
    // The old owner does not keep the renamed tag, unmanaged; the new owner carries it.
    expect(await appTags("Training Simulator")).toEqual([]);
    expect(await appTags("Warehouse Picker")).toEqual(["cohort-beta"]);
    const quiet = await engine.up(program("cohort-beta", "Warehouse Picker"));
    expect(quiet.steps.update.concat(quiet.steps.create, quiet.steps.replace, quiet.steps.delete)).toEqual(
      [],
    );
    expect(await appTags("Training Simulator")).toEqual([]);
  });

  test("destroy removes the tags the set attached; tags the owner had before stay", async () => {
    const engine = await newStack("devicemgmt-ownership-tag-destroy");
    await setAppTags("Safety Briefing", ["site-south"]);
    const program = () => {
      const briefing = dm.getAppOutput({ name: "Safety Briefing" });
      new dm.TagSet("briefing-tags", {
        ownerType: "app",
        ownerId: briefing.id,
        tags: ["site-south", "site-north"],
      });
    };
    const up = await engine.up(program);
    expect(up.errors).toEqual([]);
    expect(await appTags("Safety Briefing")).toEqual(["site-north", "site-south"]);

    const destroyed = await engine.destroy();
    expect(destroyed.errors).toEqual([]);
    expect(await appTags("Safety Briefing")).toEqual(["site-south"]);
    // The tags themselves stay in the catalogue.
    expect((await admin.tags.all()).map((t) => t.name)).toEqual(
      expect.arrayContaining(["site-north", "site-south"]),
    );
  });

  // The documents do not say whether attaching a present tag or detaching an absent one is refused: both readings.
  test.each([false, true])(
    "a group's set and a tag renamed in the same run converge in that run (repeats and unknown tags refused: %s)",
    async (strict) => {
      const org = await startEmulator({
        port: 0,
        strict: { rejectRepeatedTagAttach: strict, rejectUnknownTags: strict },
      });
      const orgAdmin = new DeviceMgmtClient({ baseUrl: org.baseUrl, apiToken: org.tokens.admin });
      try {
        const site = await orgAdmin.groups.create({ name: "Drill Site", parentId: null });
        await orgAdmin.groups.configure(site.id);
        const engine = await createEngine({
          cwd: repoRoot,
          project: "devicemgmt-ownership-group-tag",
          config: { "devicemgmt:baseUrl": org.baseUrl },
          secretConfig: { "devicemgmt:apiToken": org.tokens.admin },
        });
        engines.push(engine);
        const program = (tagName: string) => () => {
          const tag = new dm.Tag("drill", { name: tagName });
          new dm.TagSet("site-tags", { ownerType: "group", ownerId: site.id, tags: [tag.name] });
        };
        const groupTags = () => org.snapshot().groups.find((g) => g.id === site.id)?.tags;
        expect((await engine.up(program("drill-a"))).errors).toEqual([]);
        expect(groupTags()).toEqual(["drill-a"]);

        const renamed = await engine.up(program("drill-b"));
        expect(renamed.errors).toEqual([]);
        expect(groupTags()).toEqual(["drill-b"]);
        const quiet = await engine.up(program("drill-b"));
        expect(
          quiet.steps.update.concat(quiet.steps.create, quiet.steps.replace, quiet.steps.delete),
        ).toEqual([]);

        expect((await engine.destroy()).errors).toEqual([]);
        expect(groupTags()).toEqual([]);
      } finally {
        await org.close();
      }
    },
  );
});
