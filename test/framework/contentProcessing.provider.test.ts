// Waits for processing through the real dynamic-provider plugin against the emulator (issue 31 items 3-4): the
// stack config devicemgmt:processingTimeoutSeconds bounds every kind's wait, and a wait that gives up fails the
// create naming that setting while its journal note (framework/interruptedCreates.ts) stays, so the same
// resource's next create waits for the same object instead of uploading a second one. A processing that ends
// failed (emulator faults failContentProcessing, failBundleProcessing, failAppBuilds) fails the create with the
// status; the failed object stays (the API deletes none of these kinds) and the next create makes one new object.
// The organization is counted through the API afterwards.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { sha256, useSourceFolder } from "../fixtures/content";
import { failure, Managed, startStack, type Stack } from "../harness/providerStack";

const SETTING = "devicemgmt:processingTimeoutSeconds";

const sources = useSourceFolder("processing-plugin-");
let home: string;
const pulumiHome = process.env.PULUMI_HOME;
beforeAll(() => {
  // The plugin inherits it: the journal's notes go to a throwaway folder.
  home = fs.mkdtempSync(path.join(os.tmpdir(), "processing-home-"));
  process.env.PULUMI_HOME = home;
});
afterAll(() => {
  if (pulumiHome === undefined) delete process.env.PULUMI_HOME;
  else process.env.PULUMI_HOME = pulumiHome;
  fs.rmSync(home, { recursive: true, force: true });
});
const write = sources.write;
/** The notes of creates by the resource of that name: the id each records, if its create answered. */
const notesOf = (claimant: string) => {
  const folder = path.join(home, "devicemgmt", "creates-in-flight");
  return (fs.existsSync(folder) ? fs.readdirSync(folder) : [])
    .map((name) => JSON.parse(fs.readFileSync(path.join(folder, name), "utf8")))
    .filter((note) => note.claimant === claimant)
    .map((note) => note.id as string | undefined);
};
const storagePuts = (stack: Stack) =>
  stack.emulator.storageRequests().filter((r) => r.method === "PUT").length;

/** Seeded: an app with builds, for bundles. */
async function seededApp(stack: Stack): Promise<{ appId: string; versionId: string }> {
  const appId = (await stack.admin.apps.all()).find((a) => a.name === "Training Simulator")?.id as string;
  return { appId, versionId: (await stack.admin.releases.versions(appId).all())[0].id };
}

describe("a processing wait of 1 s (stack config), bundles processing a minute of the emulator clock", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      config: { [SETTING]: "1" },
      emulator: { strict: { slowBundleProcessing: true } },
    });
  });
  afterAll(() => stack.close());

  it("Image: the create fails naming the setting; the next create waits for the same image, no second upload", async () => {
    const source = write("slow.png", "an image processed slowly");
    const image = await Managed.of(stack.plugin, "image", "slow");
    const timedOut = await failure(image.create({ source, __claimant: "slow" }));
    expect(timedOut.message).toMatch(/Image [0-9a-f-]+ was uploaded but is still pending after 1 s/);
    expect(timedOut.message).toContain(`stack config ${SETTING}`);
    expect(notesOf("slow")).toEqual([undefined]);
    const named = async () =>
      (await stack.admin.images.all("unknown")).filter((i) => i.originalFileName === "slow.png");
    const [left] = await named();
    expect(left.status).toBe("pending");

    stack.emulator.advanceClock(5_000); // processed meanwhile
    const puts = storagePuts(stack);
    await image.create({ source, __claimant: "slow" });
    expect(image.id).toBe(left.id);
    expect(storagePuts(stack)).toBe(puts);
    expect((await named()).map((i) => [i.id, i.status])).toEqual([[left.id, "available"]]);
    // Answered: the note records the image until the run ends cleanly or a later operation passes its id.
    expect(notesOf("slow")).toEqual([left.id]);
  });

  it("Custom3DEnvironment: the same repair", async () => {
    const source = write("slow-hall.glb", "glTF slow hall");
    const environment = await Managed.of(stack.plugin, "custom3DEnvironment", "slow-hall");
    const timedOut = await failure(environment.create({ source, __claimant: "slow-hall" }));
    expect(timedOut.message).toMatch(/still pending after 1 s.*devicemgmt:processingTimeoutSeconds/);
    stack.emulator.advanceClock(5_000);
    await environment.create({ source, __claimant: "slow-hall" });
    const named = (await stack.admin.custom3DEnvironments.all()).filter(
      (e) => e.objectName === "slow-hall.glb",
    );
    expect(named.map((e) => [e.id, e.status])).toEqual([[environment.id, "available"]]);
  });

  it("AppVersion: the create fails naming the setting; the next create finds the build by its hash and waits", async () => {
    const { appId } = await seededApp(stack);
    const source = write("slow.apk", "a build processed slowly");
    const build = await Managed.of(stack.plugin, "appVersion", "slow-build");
    const declared = { appId, source, versionName: "9.1.0", __claimant: "slow-build" };
    const timedOut = await failure(build.create(declared));
    expect(timedOut.message).toMatch(/The build [0-9a-f-]+ of app .* was still "[a-z-]+" after 1 s/);
    expect(timedOut.message).toContain(`stack config ${SETTING}`);
    const builds = () => stack.admin.releases.versions(appId, [sha256("a build processed slowly")]).all();
    const [left] = await builds();
    stack.emulator.advanceClock(10_000);
    const puts = storagePuts(stack);
    await build.create(declared);
    expect(build.id).toBe(left.id);
    expect(storagePuts(stack)).toBe(puts);
    expect((await builds()).map((b) => [b.id, b.status])).toEqual([[left.id, "available"]]);
  });

  it("AppBundle: the create fails naming the setting; the next create takes the same bundle, no second one", async () => {
    const { appId, versionId } = await seededApp(stack);
    const files = [{ source: write("slow.obb", "slow expansion"), path: "/sdcard/slow" }];
    const bundles = async () =>
      (await stack.admin.releases.bundles(appId).all()).filter((b) => b.appBuild?.id === versionId);
    const before = (await bundles()).length;
    const bundle = await Managed.of(stack.plugin, "appBundle", "slow-bundle");
    const declared = { appId, versionId, files, label: "Slow", __claimant: "slow-bundle" };
    const timedOut = await failure(bundle.create(declared));
    expect(timedOut.message).toMatch(/App bundle [0-9a-f-]+ was finalized but is still processing after 1 s/);
    expect(timedOut.message).toContain(`stack config ${SETTING}`);
    const made = await bundles();
    expect(made.length).toBe(before + 1);
    const left = made.find((b) => b.status === "processing");
    expect(left).toBeDefined();

    stack.emulator.advanceClock(61_000);
    const puts = storagePuts(stack);
    await bundle.create(declared);
    expect(bundle.id).toBe(left?.id);
    expect(storagePuts(stack)).toBe(puts);
    expect((await bundles()).length).toBe(before + 1);
    expect(await stack.admin.appBundles.get(bundle.id)).toMatchObject({ status: "available", label: "Slow" });
  });
});

describe("processing that ends failed (emulator faults), default wait", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ emulator: { strict: { slowBundleProcessing: true } } });
  });
  afterAll(() => stack.close());

  it("Image: the create fails with the status; the next create uploads one new image, the failed one stays", async () => {
    const source = write("broken.jpg", "an image the service cannot process");
    stack.emulator.setFaults({ failContentProcessing: 1 });
    const image = await Managed.of(stack.plugin, "image", "broken");
    const failed = await failure(image.create({ source, __claimant: "broken" }));
    expect(failed.message).toMatch(
      /Image [0-9a-f-]+ was uploaded, but the service ended its processing as "failed"/,
    );
    expect(stack.emulator.stats().faults.contentProcessingFailed).toBe(1);
    expect(notesOf("broken")).toEqual([]);
    const named = async () =>
      (await stack.admin.images.all("unknown")).filter((i) => i.originalFileName === "broken.jpg");
    const [dead] = await named();
    expect(dead.status).toBe("failed");

    await image.create({ source, __claimant: "broken" });
    expect(image.id).not.toBe(dead.id);
    expect((await named()).map((i) => [i.id, i.status]).sort()).toEqual(
      [
        [dead.id, "failed"],
        [image.id, "available"],
      ].sort(),
    );
  });

  it("Custom3DEnvironment: the same", async () => {
    const source = write("broken.glb", "glTF broken");
    stack.emulator.setFaults({ failContentProcessing: 1 });
    const environment = await Managed.of(stack.plugin, "custom3DEnvironment", "broken-hall");
    const failed = await failure(environment.create({ source, __claimant: "broken-hall" }));
    expect(failed.message).toMatch(/ended its processing as "failed"/);
    await environment.create({ source, __claimant: "broken-hall" });
    const named = (await stack.admin.custom3DEnvironments.all()).filter((e) => e.objectName === "broken.glb");
    expect(named.map((e) => e.status).sort()).toEqual(["available", "failed"]);
    expect(named.find((e) => e.status === "available")?.id).toBe(environment.id);
  });

  it("AppBundle: a failed processing fails the create (AppBundleFailedError); the next create makes one new bundle", async () => {
    const { appId, versionId } = await seededApp(stack);
    const files = [{ source: write("broken.obb", "broken expansion"), path: "/sdcard/broken" }];
    const bundles = async () =>
      (await stack.admin.releases.bundles(appId).all()).filter((b) => b.appBuild?.id === versionId);
    const before = (await bundles()).length;
    stack.emulator.setFaults({ failBundleProcessing: 1 });
    const bundle = await Managed.of(stack.plugin, "appBundle", "broken-bundle");
    const declared = { appId, versionId, files, __claimant: "broken-bundle" };
    // The bundle is processing a minute of the emulator clock: move it on while the create waits.
    const moving = setInterval(() => stack.emulator.advanceClock(30_000), 500);
    const failed = await failure(bundle.create(declared)).finally(() => clearInterval(moving));
    expect(failed.message).toMatch(/App bundle [0-9a-f-]+ failed processing after it was finalized/);
    expect(stack.emulator.stats().faults.bundleProcessingFailed).toBe(1);
    const dead = (await bundles()).filter((b) => b.status === "failed");
    expect(dead).toHaveLength(1);
    const puts = storagePuts(stack);
    const again = setInterval(() => stack.emulator.advanceClock(30_000), 500);
    await bundle.create(declared).finally(() => clearInterval(again));
    expect(storagePuts(stack)).toBe(puts); // its file is reused by hash and name
    expect(bundle.id).not.toBe(dead[0].id);
    expect((await bundles()).length).toBe(before + 2);
    expect(await stack.admin.appBundles.get(bundle.id)).toMatchObject({ status: "available" });
  });

  it("AppVersion: a build that ends in error is not reused: the next create uploads a new build", async () => {
    const { appId } = await seededApp(stack);
    const source = write("broken.apk", "a build that fails");
    stack.emulator.setFaults({ failAppBuilds: 1 });
    const build = await Managed.of(stack.plugin, "appVersion", "broken-build");
    const declared = { appId, source, versionName: "9.2.0", __claimant: "broken-build" };
    const failed = await failure(build.create(declared));
    expect(failed.message).toMatch(/ended its processing in error/);
    await build.create(declared);
    const builds = await stack.admin.releases.versions(appId, [sha256("a build that fails")]).all();
    expect(builds.map((b) => b.status).sort()).toEqual(["available", "error"]);
    expect(builds.find((b) => b.status === "available")?.id).toBe(build.id);
  });
});

it("refuses a timeout that is not a whole number of seconds from 1, naming the setting, before anything is sent", async () => {
  const stack = await startStack({ config: { [SETTING]: "30m" } });
  try {
    const image = await Managed.of(stack.plugin, "image", "never");
    stack.emulator.resetStats();
    const refused = await failure(image.check({ source: write("never.png", "never sent") }));
    expect(refused.message).toContain(`${SETTING} must be a whole number of at least 1, got "30m".`);
    expect(stack.emulator.stats().requests).toBe(0);
  } finally {
    await stack.close();
  }
});
