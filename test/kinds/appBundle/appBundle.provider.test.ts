// AppBundle through the real dynamic-provider plugin against the emulator (issue 31): a create makes a pending
// bundle, uploads its data files into it and finalizes it; files the app already has are reused, not uploaded;
// a pending bundle left by an interrupted run is resumed, not duplicated; the label changes in place and a label
// changed in the portal is seen by read; delete forgets (the API cannot delete bundles). The upload faults
// (expired URL, failed part, lost complete) are inherited from the shared uploader. getAppBundle finds a bundle
// by label or id. Under both readings of whether an upload into a bundle joins it (emulator switch
// uploadsLeaveBundle). The organization is asserted through the API.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { getAppBundle } from "../../../provider";
import { LookupArgumentError, LookupError } from "../../../provider/errors";
import type { EmulatorOptions } from "../../../emulator";
import { liveBundle, sha512, useSourceFolder } from "../../fixtures/content";
import { failure, Managed, startStack, type Stack } from "../../harness/providerStack";

/** Whether an upload with appBundleId puts the file into the bundle: the documents do not say. */
const READINGS: [string, EmulatorOptions][] = [
  ["an upload into a bundle joins it (default)", {}],
  ["an upload into a bundle leaves it to POST …/files", { strict: { uploadsLeaveBundle: true } }],
];

let stack: Stack;
const sources = useSourceFolder("bundle-plugin-");
let appId: string;
let versionId: string;

const write = sources.write;

const live = (id: string) => liveBundle(stack.admin, id);

const pendingOfBuild = async () =>
  (await stack.admin.releases.bundles(appId, "pending").all()).filter((b) => b.appBuild?.id === versionId);
const storagePuts = () => stack.emulator.storageRequests().filter((r) => r.method === "PUT").length;

describe.each(READINGS)("AppBundle, %s", (_reading, emulatorOptions) => {
  beforeAll(async () => {
    stack = await startStack({ emulator: emulatorOptions });
    appId = (await stack.admin.apps.all()).find((a) => a.name === "Training Simulator")?.id as string;
    versionId = (await stack.admin.releases.versions(appId).all())[0].id;
  });
  afterAll(async () => {
    await stack.close();
  });

  it("uploads and finalizes; no change on a second diff; a portal label change is read and set back; delete forgets", async () => {
    const obb = write("main.1.com.acme.sim.obb", "expansion v1");
    const config = write("config.json", '{"level":1}');
    const files = [
      { source: obb, path: "/sdcard/Android/obb/com.acme.sim" },
      { source: config, path: "/sdcard/sim" },
    ];
    const bundle = await Managed.of(stack.plugin, "appBundle", "field-test");
    const outs = await bundle.create({ appId, versionId, files, label: "Field test" });
    expect(outs).toMatchObject({ status: "available", label: "Field test", versionId });
    expect(await live(bundle.id)).toEqual({
      status: "available",
      label: "Field test",
      versionId,
      files: [
        ["/sdcard/Android/obb/com.acme.sim/main.1.com.acme.sim.obb", sha512("expansion v1")],
        ["/sdcard/sim/config.json", sha512('{"level":1}')],
      ].sort(),
    });
    expect(await pendingOfBuild()).toEqual([]);
    expect(await bundle.diff({ appId, versionId, files, label: "Field test" })).toMatchObject({
      changes: "none",
    });

    // Changed bytes at the same local path: a new bundle (replacement).
    fs.writeFileSync(config, '{"level":2}');
    expect(await bundle.diff({ appId, versionId, files, label: "Field test" })).toMatchObject({
      changes: "some",
      replaces: ["files"],
    });
    fs.writeFileSync(config, '{"level":1}');

    // The portal relabels the bundle: read sees it, the diff updates it in place, update sets it back.
    await stack.admin.appBundles.setLabel(bundle.id, "Renamed in the portal");
    const read = await bundle.read();
    expect(read.properties).toMatchObject({ label: "Renamed in the portal" });
    expect(await bundle.diff({ appId, versionId, files, label: "Field test" })).toMatchObject({
      changes: "some",
      replaces: [],
    });
    await bundle.update({ appId, versionId, files, label: "Field test" });
    expect((await live(bundle.id)).label).toBe("Field test");

    // Delete forgets: the bundle stays (the API cannot delete one).
    await bundle.delete();
    expect((await live(bundle.id)).status).toBe("available");
  });

  it("a create whose answer was lost finds the bundle it made and goes on: one bundle, the run not stopped", async () => {
    expect(await pendingOfBuild()).toEqual([]);
    const bundles = async () => (await stack.admin.releases.bundles(appId).all()).length;
    const count = await bundles();
    // Seed 18 at rate 0.5: the first write's answer is lost (the POST /app-bundles), the next two arrive.
    stack.emulator.setFaults({ dropAfterWriteRate: 0.5, seed: 18 });
    stack.emulator.resetStats();
    try {
      const bundle = await Managed.of(stack.plugin, "appBundle", "lost-answer");
      const outs = await bundle.create({ appId, versionId, label: "Lost answer" });
      expect(stack.emulator.stats().faults.droppedAfterWrite).toBe(1);
      expect(stack.emulator.stats().byRoute["POST /app-bundles"]).toBe(1);
      expect(outs).toMatchObject({ status: "available", label: "Lost answer" });
      expect(await bundles()).toBe(count + 1);
      expect(await pendingOfBuild()).toEqual([]);
    } finally {
      stack.emulator.setFaults({ dropAfterWriteRate: 0 });
    }
  });

  it("reuses the files the app already has (same content and name) instead of uploading them again", async () => {
    const data = write("levels.dat", "levels");
    const first = await Managed.of(stack.plugin, "appBundle", "first");
    await first.create({ appId, versionId, files: [{ source: data, path: "/sdcard/a" }] });
    const before = storagePuts();
    const appFiles = (await stack.admin.appBundles.appFiles(appId).all()).length;
    const second = await Managed.of(stack.plugin, "appBundle", "second");
    await second.create({ appId, versionId, files: [{ source: data, path: "/sdcard/b" }] });
    expect(storagePuts()).toBe(before);
    expect((await stack.admin.appBundles.appFiles(appId).all()).length).toBe(appFiles);
    expect((await live(second.id)).files).toEqual([["/sdcard/b/levels.dat", sha512("levels")]]);
    expect(second.id).not.toBe(first.id);
  });

  it("resumes the pending bundle an interrupted run left (uploading only what it lacks), not a second one", async () => {
    const one = write("one.bin", "resume one");
    const two = write("two.bin", "resume two");
    // What a run killed after its first upload leaves: a pending bundle holding one of the two files.
    const left = await stack.admin.appBundles.create({ appBuildId: versionId });
    await stack.admin.uploadBundleFile({
      appId,
      appBundleId: left.id,
      source: one,
      filename: "one.bin",
      path: "/sdcard/r",
    });
    const puts = storagePuts();
    const bundle = await Managed.of(stack.plugin, "appBundle", "resumed");
    const files = [
      { source: one, path: "/sdcard/r" },
      { source: two, path: "/sdcard/r" },
    ];
    await bundle.create({ appId, versionId, files });
    expect(bundle.id).toBe(left.id);
    expect(storagePuts()).toBe(puts + 1); // two.bin only
    expect(await live(left.id)).toMatchObject({
      status: "available",
      files: [
        ["/sdcard/r/one.bin", sha512("resume one")],
        ["/sdcard/r/two.bin", sha512("resume two")],
      ],
    });
    expect(await pendingOfBuild()).toEqual([]);
  });

  it("inherits the uploader's repairs: an expired URL, a failed part and a lost complete still make one file", async () => {
    const data = write("faulty.bin", "through faults");
    stack.emulator.setFaults({ expireUploadUrls: 1, failUploadParts: 1, loseCompleteAnswers: 1 });
    try {
      const bundle = await Managed.of(stack.plugin, "appBundle", "faulty");
      await bundle.create({ appId, versionId, files: [{ source: data, path: "/sdcard/f" }] });
      expect((await live(bundle.id)).files).toEqual([["/sdcard/f/faulty.bin", sha512("through faults")]]);
      const made = await stack.admin.appBundles.appFilesBySha512(appId, [sha512("through faults")]);
      expect(made.length).toBe(1);
    } finally {
      stack.emulator.setFaults({ expireUploadUrls: 0, failUploadParts: 0, loseCompleteAnswers: 0 });
    }
  });

  it("adopts only a bundle of the declared build and files", async () => {
    const data = write("adopt.bin", "adopt me");
    const made = await Managed.of(stack.plugin, "appBundle", "made");
    await made.create({ appId, versionId, files: [{ source: data, path: "/sdcard/ad" }] });
    const other = write("other.bin", "not the same");
    const wrong = await Managed.of(stack.plugin, "appBundle", "wrong");
    const refused = await failure(
      wrong.create({ appId, versionId, files: [{ source: other, path: "/sdcard/ad" }], adoptId: made.id }),
    );
    expect(refused.message).toMatch(/adoptId: app bundle .* Adopt a bundle of the declared build and files/);
    const adopted = await Managed.of(stack.plugin, "appBundle", "adopted");
    await adopted.create({
      appId,
      versionId,
      files: [{ source: data, path: "/sdcard/ad" }],
      adoptId: made.id,
      label: "Adopted",
    });
    expect(adopted.id).toBe(made.id);
    expect((await live(made.id)).label).toBe("Adopted");
  });

  it("getAppBundle finds a bundle by label or id, and refuses an ambiguous or half-given call", async () => {
    pulumi.runtime.setAllConfig(
      { "devicemgmt:baseUrl": stack.emulator.baseUrl, "devicemgmt:apiToken": stack.emulator.tokens.admin },
      ["devicemgmt:apiToken"],
    );
    try {
      const made = await stack.admin.appBundles.create({ appBuildId: versionId });
      await stack.admin.appBundles.setLabel(made.id, "Lookup me");
      expect(await getAppBundle({ appId, label: "Lookup me" })).toEqual({
        id: made.id,
        label: "Lookup me",
        versionId,
        status: "pending",
      });
      expect((await getAppBundle({ appId, id: made.id })).label).toBe("Lookup me");
      expect(await failure(getAppBundle({ appId, label: "No such label" }))).toBeInstanceOf(LookupError);
      const both = await failure(getAppBundle({ appId, label: "Lookup me", id: made.id }));
      expect(both).toBeInstanceOf(LookupArgumentError);
      expect(both.message).toMatch(/exactly one of "label" and "id"/);
    } finally {
      pulumi.runtime.setAllConfig({});
    }
  });
});

describe("AppBundle where processing takes time (slowBundleProcessing)", () => {
  let slow: Stack;
  beforeAll(async () => {
    slow = await startStack({ emulator: { strict: { slowBundleProcessing: true } } });
  });
  afterAll(() => slow.close());

  it("waits for the finalized bundle to be available before it records it", async () => {
    const app = (await slow.admin.apps.all()).find((a) => a.name === "Training Simulator")?.id as string;
    const build = (await slow.admin.releases.versions(app).all())[0].id;
    const source = path.join(os.tmpdir(), `slow-${process.pid}.bin`);
    fs.writeFileSync(source, "slow");
    try {
      const bundle = await Managed.of(slow.plugin, "appBundle", "slow");
      const creating = bundle.create({
        appId: app,
        versionId: build,
        files: [{ source, path: "/sdcard/s" }],
      });
      // Finalized and processing: the create is still waiting.
      const processing = () => slow.emulator.snapshot().appBundles.some((b) => b.status === "processing");
      while (!processing()) await new Promise((r) => setTimeout(r, 20));
      let settled = false;
      void creating.then(() => (settled = true));
      await new Promise((r) => setTimeout(r, 2_500));
      expect(settled).toBe(false);
      slow.emulator.advanceClock(60_000);
      expect(await creating).toMatchObject({ status: "available" });
      expect((await slow.admin.appBundles.get(bundle.id)).status).toBe("available");
    } finally {
      fs.rmSync(source, { force: true });
    }
  });
});
