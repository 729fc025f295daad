// An AppBundle as a whole program on the real Pulumi CLI (test/engine), the emulator as the organization,
// asserted through its API: up uploads the data files and finalizes the bundle, up again and refresh change
// nothing, a label changed in the portal is drift (the report and refresh) that up sets back in place, changed
// bytes make a new bundle (the old one stays: the API cannot delete bundles), destroy forgets.
import { createHash } from "crypto";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { DeviceMgmtClient } from "../../provider/client";
import { createEngine, type Engine } from "../engine";
import { brief, runDrift } from "../drift/support";
import * as dm from "../../provider";

const repoRoot = path.resolve(__dirname, "../..");
const sha512 = (bytes: string) => createHash("sha512").update(bytes).digest("hex");

let emulator: RunningEmulator;
let engine: Engine;
let admin: DeviceMgmtClient;
let dir: string;
let appId: string;
let versionId: string;
let bundleId: string;

function program() {
  return () => {
    const bundle = new dm.AppBundle("field-test", {
      appId,
      versionId,
      files: [
        { source: path.join(dir, "main.1.com.acme.sim.obb"), path: "/sdcard/Android/obb/com.acme.sim" },
        { source: path.join(dir, "config.json"), path: "/sdcard/sim" },
      ],
      label: "Field test",
    });
    return { bundleId: bundle.id, status: bundle.status };
  };
}

/** The bundle as the API shows it. */
async function live(id: string) {
  const bundle = await admin.appBundles.get(id);
  const files = await admin.appBundles.files(id).all();
  return {
    status: bundle.status,
    label: bundle.label,
    versionId: bundle.appBuild?.id,
    files: files.flatMap((f) => f.bundlePaths.map((p) => [p, f.checksum.value.toLowerCase()])).sort(),
  };
}

const noSteps = (result: { steps: Record<string, unknown[]> }) => {
  for (const kind of ["create", "update", "replace", "delete"]) expect(result.steps[kind]).toEqual([]);
};

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "bundle-program-"));
  fs.writeFileSync(path.join(dir, "main.1.com.acme.sim.obb"), "expansion v1");
  fs.writeFileSync(path.join(dir, "config.json"), '{"level":1}');
  emulator = await startEmulator({ port: 0 });
  admin = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
  appId = (await admin.apps.all()).find((a) => a.name === "Training Simulator")?.id as string;
  versionId = (await admin.releases.versions(appId).all())[0].id;
  engine = await createEngine({
    cwd: repoRoot,
    project: "devicemgmt-app-bundle",
    config: { "devicemgmt:baseUrl": emulator.baseUrl },
    secretConfig: { "devicemgmt:apiToken": emulator.tokens.admin },
  });
});

afterAll(async () => {
  await engine?.close();
  await emulator?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test("up uploads the files and finalizes the bundle; up again and refresh change nothing", async () => {
  const result = await engine.up(program());
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

  emulator.resetStats();
  const again = await engine.up(program());
  expect(again.errors).toEqual([]);
  noSteps(again);
  expect(emulator.stats().writes).toBe(0);

  const refreshed = await engine.refresh();
  expect(refreshed.errors).toEqual([]);
  noSteps(refreshed);
  const afterRefresh = await engine.up(program());
  noSteps(afterRefresh);
});

test("a label changed in the portal is drift (report and refresh), and up sets it back in place", async () => {
  await admin.appBundles.setLabel(bundleId, "Renamed in the portal");

  const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), "bundle-drift-"));
  const stateFile = path.join(reportDir, "state.json");
  await engine.saveState(stateFile);
  const env = { DEVICEMGMT_BASE_URL: emulator.baseUrl, DEVICEMGMT_API_TOKEN: emulator.tokens.readOnly };
  const drift = await runDrift(reportDir, ["--kinds", "appBundle", stateFile], env);
  fs.rmSync(reportDir, { recursive: true, force: true });
  expect(drift.report.findings.map((f) => [brief(f), f.differences])).toEqual([
    [
      expect.stringMatching(/^changed .* "Renamed in the portal"$/),
      [{ field: "label", state: "Field test", live: "Renamed in the portal" }],
    ],
  ]);

  const refreshed = await engine.refresh();
  expect(refreshed.errors).toEqual([]);
  expect(refreshed.steps.update.map((s) => s.name)).toEqual(["field-test"]);
  const repaired = await engine.up(program());
  expect(repaired.errors).toEqual([]);
  expect(repaired.steps.update.map((s) => s.name)).toEqual(["field-test"]);
  expect(repaired.steps.replace).toEqual([]);
  expect(await live(bundleId)).toMatchObject({ label: "Field test", status: "available" });
});

test("changed bytes make a new bundle; the old one stays (forgotten), and destroy forgets the new one", async () => {
  fs.writeFileSync(path.join(dir, "config.json"), '{"level":2}');
  const result = await engine.up(program());
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
  expect((await admin.appBundles.appFilesBySha512(appId, [sha512("expansion v1")])).length).toBe(1);
  expect((await live(bundleId)).status).toBe("available");

  const destroyed = await engine.destroy();
  expect(destroyed.errors).toEqual([]);
  expect(destroyed.steps.delete.map((s) => s.name)).toEqual(["field-test"]);
  expect(destroyed.output).toMatch(`AppBundle ${newId} ("Field test"): the API cannot delete app bundles`);
  expect((await live(newId)).status).toBe("available");
});
