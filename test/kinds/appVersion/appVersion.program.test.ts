// An AppVersion as a whole program on the real Pulumi CLI (test/engine), promoted by a ReleaseChannelVersion, the
// emulator as the organization, asserted through its API: up uploads the .apk and the channel delivers the new
// build; up again and refresh change nothing, and the drift report compares the build's hash; new bytes that the
// app already has (uploaded by the vendor's CLI) are taken over with a message instead of uploaded again, and the
// channel follows; destroy forgets the builds (the API cannot delete them) and says so; a run killed after its
// complete (its answer lost) is repaired by the next up, which takes that build over.
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { brief, runDrift } from "../../drift/support";
import { sha256, writeSource } from "../../fixtures/content";
import { expectUpChangesNothing, useProgramStack } from "../../harness/programStack";
import * as dm from "../../../provider";

const org = useProgramStack({
  project: "devicemgmt-app-version",
  emulator: { rollouts: { durationMs: 3_600_000 } },
});
let appId: string;
let channelId: string;
const built: string[] = [];

function program(source: string, versionName: string, releaseNotes = "From CI.") {
  return () => {
    const app = dm.getAppOutput({ name: "Training Simulator" });
    const build = new dm.AppVersion("sim", { appId: app.id, source, versionName, releaseNotes });
    const beta = dm.getReleaseChannelOutput({ appName: "Training Simulator", channelName: "Production" });
    const release = new dm.ReleaseChannelVersion("production", {
      appId: app.id,
      releaseChannelId: beta.id,
      versionId: build.id,
    });
    return { buildId: build.id, sha256: build.sha256, delivered: release.version };
  };
}

beforeAll(async () => {
  const app = (await org.admin.apps.all()).find((a) => a.name === "Training Simulator")!;
  appId = app.id;
  channelId = (await org.admin.apps.releaseChannels(appId).all()).find((c) => c.name === "Production")!.id;
});

const source = () => path.join(org.dir, "training-simulator.apk");
const builds = async (bytes: string) => org.admin.releases.versions(appId, [sha256(bytes)]).all();
const delivered = async () =>
  (await org.admin.apps.releaseChannels(appId).all()).find((c) => c.id === channelId)!;

test("up uploads the build and the channel delivers it; up again and refresh change nothing", async () => {
  fs.writeFileSync(source(), "training simulator 2.5.0");
  const result = await org.engine.up(program(source(), "2.5.0"));
  expect(result.errors).toEqual([]);
  expect(result.steps.create.map((s) => s.name).sort()).toEqual(["production", "sim"]);
  const buildId = result.outputs.buildId as string;
  built.push(buildId);
  expect(result.outputs.sha256).toBe(sha256("training simulator 2.5.0"));
  expect((await builds("training simulator 2.5.0")).map((b) => [b.id, b.version, b.status])).toEqual([
    [buildId, "2.5.0", "available"],
  ]);
  expect((await delivered()).version).toMatchObject({ id: buildId, version: "2.5.0" });

  await expectUpChangesNothing(org, program(source(), "2.5.0"));

  const refreshed = await org.engine.refresh();
  expect(refreshed.errors).toEqual([]);
  for (const kind of ["update", "delete"] as const) expect(refreshed.steps[kind]).toEqual([]);

  // The drift report reads the app's builds: the stack's build is there with its hash, nothing to report.
  const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), "app-version-drift-"));
  const stateFile = path.join(reportDir, "state.json");
  await org.engine.saveState(stateFile);
  const env = {
    DEVICEMGMT_BASE_URL: org.emulator.baseUrl,
    DEVICEMGMT_API_TOKEN: org.emulator.tokens.readOnly,
  };
  const drift = await runDrift(reportDir, ["--kinds", "appVersion", stateFile], env);
  expect(drift.report.findings).toEqual([]);
  expect(drift.report.notCompared).toEqual([]);
  // A state recording another hash than the build the app lists (as after content replaced elsewhere): changed.
  const state = JSON.parse(fs.readFileSync(stateFile, "utf8"));
  const recorded = state.deployment.resources.find((r: { type: string }) => r.type.endsWith(":AppVersion"));
  recorded.outputs.sha256 = "0".repeat(64);
  fs.writeFileSync(stateFile, JSON.stringify(state));
  const changed = await runDrift(reportDir, ["--kinds", "appVersion", stateFile], env);
  fs.rmSync(reportDir, { recursive: true, force: true });
  expect(changed.report.findings.map((f) => [brief(f), f.differences])).toEqual([
    [
      `changed appVersion "2.5.0" of "Training Simulator"`,
      [{ field: "sha256", state: "0".repeat(64), live: sha256("training simulator 2.5.0") }],
    ],
  ]);
});

test("new release notes alone are an update that sends nothing and says so: the build is neither replaced nor forgotten", async () => {
  org.emulator.resetStats();
  const result = await org.engine.up(program(source(), "2.5.0", "From CI, with the forklift scenario."));
  expect(result.errors).toEqual([]);
  expect(result.steps.update.map((s) => s.name)).toEqual(["sim"]);
  expect(result.steps.replace).toEqual([]);
  expect(result.output).toContain(
    `AppVersion ${built[0]}: releaseNotes changed, but the API takes a build's release notes only with its upload`,
  );
  expect(result.output).not.toContain("the API cannot delete an app build");
  expect(org.emulator.stats().writes).toBe(0);
  expect(result.outputs.buildId).toBe(built[0]);
  expect((await builds("training simulator 2.5.0")).map((b) => b.id)).toEqual([built[0]]);
  expect((await delivered()).version).toMatchObject({ id: built[0] });
  await expectUpChangesNothing(org, program(source(), "2.5.0", "From CI, with the forklift scenario."));
});

test("new bytes the app already has are taken over with a message, and the channel follows", async () => {
  // The vendor's CLI uploaded the next build already.
  const vendor = writeSource(org.dir, "vendor.apk", "training simulator 2.6.0");
  const theirs = await org.admin.uploadAppVersion({
    appId,
    source: vendor,
    filename: "vendor.apk",
    versionName: "2.6.0",
  });
  fs.writeFileSync(source(), "training simulator 2.6.0");
  const result = await org.engine.up(program(source(), "2.6.0"));
  expect(result.errors).toEqual([]);
  expect(result.steps.replace.map((s) => [s.name, [...(s.replaceKeys ?? [])].sort()])).toEqual([
    ["sim", ["sha256", "versionName"]],
  ]);
  expect(result.outputs.buildId).toBe(theirs.made.id);
  expect(result.output).toContain(
    `already has the build of ${source()} (id ${theirs.made.id}, version "2.6.0", available): taken over, nothing uploaded`,
  );
  expect(result.output).toContain(`AppVersion ${built[0]}: the API cannot delete an app build`);
  expect((await builds("training simulator 2.6.0")).map((b) => b.id)).toEqual([theirs.made.id]);
  expect((await delivered()).version).toMatchObject({ id: theirs.made.id, version: "2.6.0" });
  // The replaced build is forgotten, not deleted.
  expect((await builds("training simulator 2.5.0")).map((b) => b.id)).toEqual([built[0]]);
});

test("destroy forgets the build and says so: it stays in the app", async () => {
  const destroyed = await org.engine.destroy();
  expect(destroyed.errors).toEqual([]);
  expect(destroyed.steps.delete.map((s) => s.name).sort()).toEqual(["production", "sim"]);
  expect(destroyed.output).toMatch(/the API cannot delete an app build; version "2\.6\.0" stays/);
  expect((await builds("training simulator 2.6.0")).length).toBe(1);
  expect((await builds("training simulator 2.5.0")).length).toBe(1);
});

describe("a run killed while its build is processed (its complete's answer lost)", () => {
  const killed = useProgramStack({ project: "devicemgmt-app-version-killed" });

  test("the next up finds the build by its hash, waits for it and takes it over: one build", async () => {
    const apk = writeSource(org.dir, "killed.apk", "training simulator 2.7.0");
    const program = () => {
      const app = dm.getAppOutput({ name: "Training Simulator" });
      new dm.AppVersion("sim", { appId: app.id, source: apk, versionName: "2.7.0" });
    };
    const simulator = (await killed.admin.apps.all()).find((a) => a.name === "Training Simulator")!;
    const listed = () =>
      killed.admin.releases.versions(simulator.id, [sha256("training simulator 2.7.0")]).all();
    killed.emulator.setFaults({ latencyMs: 300, loseCompleteAnswers: 1 });
    const interrupted = await killed.engine.up(program, {
      interruptAfter: 1,
      interruptWhen: async () => {
        while ((await listed()).length === 0) await new Promise((r) => setTimeout(r, 10));
      },
    });
    killed.emulator.setFaults({ latencyMs: 0, loseCompleteAnswers: 0 });
    expect(interrupted.interrupted).toBe(true);
    expect(killed.engine.pending()).toEqual([expect.objectContaining({ type: "creating" })]);
    const next = await killed.engine.up(program);
    expect(next.errors).toEqual([]);
    expect(next.output).toContain("taken over, nothing uploaded");
    const builds = await listed();
    expect(builds.map((b) => [b.id, b.status])).toEqual([[killed.engine.resource("sim").id, "available"]]);
    expect((await killed.engine.up(program)).operations).toEqual([]);
  });
});
