// An AppBundle as a whole program on the real Pulumi CLI (test/engine), the emulator as the organization,
// asserted through its API: up uploads the data files and finalizes the bundle, up again and refresh change
// nothing, a label changed in the portal is drift (the report and refresh) that up sets back in place, changed
// bytes make a new bundle (the old one stays: the API cannot delete bundles), destroy forgets.
import * as fs from "fs";
import * as path from "path";
import { createEngine } from "../../engine";
import { brief } from "../../drift/support";
import { liveBundle, sha512 } from "../../fixtures/content";
import { driftReport, repoRoot, useProgramStack } from "../../harness/programStack";
import * as dm from "../../../provider";

const org = useProgramStack({ project: "devicemgmt-app-bundle" });
let appId: string;
let versionId: string;
let bundleId: string;

function program() {
  return () => {
    const bundle = new dm.AppBundle("field-test", {
      appId,
      versionId,
      files: [
        { source: path.join(org.dir, "main.1.com.acme.sim.obb"), path: "/sdcard/Android/obb/com.acme.sim" },
        { source: path.join(org.dir, "config.json"), path: "/sdcard/sim" },
      ],
      label: "Field test",
    });
    return { bundleId: bundle.id, status: bundle.status };
  };
}

const live = (id: string) => liveBundle(org.admin, id);

const noSteps = (result: { steps: Record<string, unknown[]> }) => {
  for (const kind of ["create", "update", "replace", "delete"]) expect(result.steps[kind]).toEqual([]);
};

beforeAll(async () => {
  fs.writeFileSync(path.join(org.dir, "main.1.com.acme.sim.obb"), "expansion v1");
  fs.writeFileSync(path.join(org.dir, "config.json"), '{"level":1}');
  appId = (await org.admin.apps.all()).find((a) => a.name === "Training Simulator")?.id as string;
  versionId = (await org.admin.releases.versions(appId).all())[0].id;
});

test("preview refuses a build given as a data file, naming files[0].source and the fix; nothing is made", async () => {
  fs.writeFileSync(path.join(org.dir, "sim.apk"), "a build");
  const before = (await org.admin.releases.bundles(appId).all()).length;
  const preview = await org.engine.preview(
    () =>
      void new dm.AppBundle("bad", {
        appId,
        versionId,
        files: [{ source: path.join(org.dir, "sim.apk"), path: "/sdcard" }],
      }),
  );
  expect(preview.errors.map((e) => e.message).join("\n")).toMatch(
    /files\[0\]\.source: .*sim\.apk: an app build \(\.apk\) is not a data file: upload it as an app version and give its id as the bundle's versionId/,
  );
  expect((await org.admin.releases.bundles(appId).all()).length).toBe(before);
});

test("up uploads the files and finalizes the bundle; up again and refresh change nothing", async () => {
  const result = await org.engine.up(program());
  expect(result.errors).toEqual([]);
  expect(result.steps.create.map((s) => s.name)).toEqual(["field-test"]);
  bundleId = result.outputs.bundleId as string;
  expect(await live(bundleId)).toEqual({
    status: "available",
    label: "Field test",
    versionId,
    files: [
      ["/sdcard/Android/obb/com.acme.sim/main.1.com.acme.sim.obb", sha512("expansion v1")],
      ["/sdcard/sim/config.json", sha512('{"level":1}')],
    ],
  });

  org.emulator.resetStats();
  const again = await org.engine.up(program());
  expect(again.errors).toEqual([]);
  noSteps(again);
  expect(org.emulator.stats().writes).toBe(0);

  const refreshed = await org.engine.refresh();
  expect(refreshed.errors).toEqual([]);
  noSteps(refreshed);
  const afterRefresh = await org.engine.up(program());
  noSteps(afterRefresh);
});

test("a label changed in the portal is drift (report and refresh), and up sets it back in place", async () => {
  await org.admin.appBundles.setLabel(bundleId, "Renamed in the portal");

  const drift = await driftReport(org, "appBundle");
  expect(drift.report.findings.map((f) => [brief(f), f.differences])).toEqual([
    [
      expect.stringMatching(/^changed .* "Renamed in the portal"$/),
      [{ field: "label", state: "Field test", live: "Renamed in the portal" }],
    ],
  ]);

  const refreshed = await org.engine.refresh();
  expect(refreshed.errors).toEqual([]);
  expect(refreshed.steps.update.map((s) => s.name)).toEqual(["field-test"]);
  const repaired = await org.engine.up(program());
  expect(repaired.errors).toEqual([]);
  expect(repaired.steps.update.map((s) => s.name)).toEqual(["field-test"]);
  expect(repaired.steps.replace).toEqual([]);
  expect(await live(bundleId)).toMatchObject({ label: "Field test", status: "available" });
});

test("changed bytes make a new bundle; the old one stays (forgotten), and destroy forgets the new one", async () => {
  fs.writeFileSync(path.join(org.dir, "config.json"), '{"level":2}');
  const result = await org.engine.up(program());
  expect(result.errors).toEqual([]);
  expect(result.steps.replace.map((s) => [s.name, s.replaceKeys])).toEqual([["field-test", ["files"]]]);
  // The replaced bundle's delete forgets it and says so where the user reads it.
  expect(result.output).toMatch(
    new RegExp(
      `AppBundle ${bundleId} \\("Field test"\\): the API cannot delete app bundles; the bundle stays`,
    ),
  );
  const newId = result.outputs.bundleId as string;
  expect(newId).not.toBe(bundleId);
  expect((await live(newId)).files).toContainEqual(["/sdcard/sim/config.json", sha512('{"level":2}')]);
  // The unchanged .obb was reused (the app had it), not uploaded again: one app file with its content.
  expect((await org.admin.appBundles.appFilesBySha512(appId, [sha512("expansion v1")])).length).toBe(1);
  expect((await live(bundleId)).status).toBe("available");

  const destroyed = await org.engine.destroy();
  expect(destroyed.errors).toEqual([]);
  expect(destroyed.steps.delete.map((s) => s.name)).toEqual(["field-test"]);
  expect(destroyed.output).toMatch(`AppBundle ${newId} ("Field test"): the API cannot delete app bundles`);
  expect((await live(newId)).status).toBe("available");
});

test("a run killed mid-upload: the next up makes the bundle once, reusing what was uploaded; the stuck bundle is named", async () => {
  // The killed run leaves a pending bundle holding first.bin and an upload of second.bin it never completed,
  // which (the service validates that no file of the bundle is pending) keeps that bundle from being finalized.
  const build = (await org.admin.releases.versions(appId).all())[1].id;
  const bundlesOfBuild = async () =>
    (await org.admin.releases.bundles(appId).all()).filter((b) => b.appBuild?.id === build);
  const before = (await bundlesOfBuild()).length;
  fs.writeFileSync(path.join(org.dir, "first.bin"), "first of two");
  fs.writeFileSync(path.join(org.dir, "second.bin"), "second of two");
  const program = () =>
    void new dm.AppBundle("killed", {
      appId,
      versionId: build,
      files: [
        { source: path.join(org.dir, "first.bin"), path: "/sdcard/k" },
        { source: path.join(org.dir, "second.bin"), path: "/sdcard/k" },
      ],
    });
  const stack = await createEngine({
    cwd: repoRoot,
    project: "devicemgmt-app-bundle-killed",
    config: { "devicemgmt:baseUrl": org.emulator.baseUrl },
    secretConfig: { "devicemgmt:apiToken": org.emulator.tokens.admin },
  });
  const puts = (name: string, status: number) =>
    org.emulator
      .storageRequests()
      .some((r) => r.method === "PUT" && r.key.endsWith(`/${name}`) && r.status === status);
  const until = async (done: () => boolean) => {
    while (!done()) await new Promise((r) => setTimeout(r, 5));
  };
  try {
    // Slow answers; once first.bin is stored, every part fails (retried with backoff): the run is killed while
    // second.bin's upload is open.
    org.emulator.setFaults({ latencyMs: 300 });
    const interrupted = await stack.up(program, {
      interruptAfter: 1,
      interruptWhen: async () => {
        await until(() => puts("first.bin", 200));
        org.emulator.setFaults({ latencyMs: 300, failUploadParts: 1000 });
        await until(() => puts("second.bin", 500));
      },
    });
    org.emulator.setFaults({ latencyMs: 0, failUploadParts: 0 });
    expect(interrupted.interrupted).toBe(true);
    const [left] = (await org.admin.releases.bundles(appId, "pending").all()).filter(
      (b) => b.appBuild?.id === build,
    );
    expect(left).toBeDefined();

    const next = await stack.up(program);
    expect(next.errors).toEqual([]);
    expect(next.output).toMatch(`resuming app bundle ${left.id}`);
    expect(next.output).toMatch(`app bundle ${left.id}, left pending by an earlier run, cannot be finalized`);
    const made = stack.resource("killed").id as string;
    expect(made).not.toBe(left.id);
    expect(await live(made)).toMatchObject({
      status: "available",
      files: [
        ["/sdcard/k/first.bin", sha512("first of two")],
        ["/sdcard/k/second.bin", sha512("second of two")],
      ],
    });
    expect((await org.admin.appBundles.get(left.id)).status).toBe("pending");
    expect((await bundlesOfBuild()).length).toBe(before + 2);
    // Each file's content was stored once (the new bundle reused both).
    for (const bytes of ["first of two", "second of two"])
      expect((await org.admin.appBundles.appFilesBySha512(appId, [sha512(bytes)])).length).toBe(1);
    expect((await stack.up(program)).operations).toEqual([]);
    expect((await stack.destroy()).errors).toEqual([]);
  } finally {
    org.emulator.setFaults({ latencyMs: 0, failUploadParts: 0 });
    await stack.close();
  }
});
