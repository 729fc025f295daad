// AppVersion through the real dynamic-provider plugin against the emulator (issue 31): check hashes the .apk
// (SHA-256) and refuses what is not one; a create uploads it and waits for the build to be processed; another
// resource of the same bytes takes the existing build over instead of uploading it again, and refuses it under
// another version name; a build still being processed (what a run killed after its complete leaves) is waited
// for and taken over; a build that fails processing fails the create with the reason; read sees another hash
// or a build gone; delete forgets and the build stays. The organization is asserted through the API.
import * as fs from "node:fs";
import * as path from "node:path";
import { sha256, useSourceFolder } from "../../fixtures/content";
import { failure, Managed, startStack, type Stack } from "../../harness/providerStack";

let stack: Stack;
const sources = useSourceFolder("app-version-plugin-");
let appId: string;
beforeAll(async () => {
  stack = await startStack();
  appId = (await stack.admin.apps.all()).find((a) => a.name === "Training Simulator")!.id;
});
afterAll(async () => {
  await stack.close();
});

const write = sources.write;
const builds = (hash: string) => stack.admin.releases.versions(appId, [hash]).all();

it("refuses at check what is not an .apk, a missing source and a folder, naming source and the fix", async () => {
  const build = await Managed.of(stack.plugin, "appVersion", "bad");
  const reasons = async (source: string) =>
    (await build.check({ appId, source, versionName: "1.0.0" })).failures.map((f) => [f.property, f.reason]);
  expect(await reasons(write("main.1.obb", "obb"))).toEqual([
    [
      "source",
      expect.stringMatching(/main\.1\.obb: an expansion file \(\.obb\) belongs to an app bundle.*\.apk/),
    ],
  ]);
  expect(await reasons(write("manual.pdf", "pdf"))).toEqual([
    [
      "source",
      expect.stringMatching(/is an Android package \(\.apk\), not a \.pdf file\. Give the path of the \.apk/),
    ],
  ]);
  expect(await reasons(path.join(sources.dir, "missing.apk"))).toEqual([
    ["source", expect.stringMatching(/missing\.apk does not exist .*Give the path of the file to upload/)],
  ]);
  fs.mkdirSync(path.join(sources.dir, "folder.apk"));
  expect(await reasons(path.join(sources.dir, "folder.apk"))).toEqual([
    ["source", expect.stringMatching(/folder\.apk is a folder\. Give the path of one file/)],
  ]);
  const missing = await build.check({ appId, versionName: "1.0.0" });
  expect(missing.failures).toEqual([
    {
      property: "source",
      reason: expect.stringMatching(/source is required: the path of the \.apk to upload/),
    },
  ]);
});

it("uploads, takes the same bytes over elsewhere, refuses them under another name, and forgets on delete", async () => {
  const source = write("sim.apk", "build 2.5.0");
  const build = await Managed.of(stack.plugin, "appVersion", "sim");
  const outs = await build.create({ appId, source, versionName: "2.5.0", releaseNotes: "Faster." });
  expect(outs).toMatchObject({
    appId,
    versionName: "2.5.0",
    sha256: sha256("build 2.5.0"),
    status: "available",
  });
  expect((await builds(sha256("build 2.5.0"))).map((b) => [b.id, b.version, b.status])).toEqual([
    [build.id, "2.5.0", "available"],
  ]);
  // Same bytes, another local path: no change; changed bytes: a new build (replace on sha256).
  const moved = write("moved/sim-copy.apk", "build 2.5.0");
  expect(
    await build.diff({ appId, source: moved, versionName: "2.5.0", releaseNotes: "Faster." }),
  ).toMatchObject({
    changes: "none",
  });
  write("sim.apk", "build 2.5.1");
  expect(await build.diff({ appId, source, versionName: "2.5.0", releaseNotes: "Faster." })).toMatchObject({
    changes: "some",
    replaces: ["sha256"],
  });
  expect(await build.read()).toMatchObject({ id: build.id, properties: { sha256: sha256("build 2.5.0") } });

  // Another resource (another stack) declaring the same bytes: the existing build, nothing uploaded.
  const other = await Managed.of(stack.plugin, "appVersion", "other");
  await other.create({ appId, source: moved, versionName: "2.5.0" });
  expect(other.id).toBe(build.id);
  expect((await builds(sha256("build 2.5.0"))).length).toBe(1);
  // ... but not under another version name: the API renames no build.
  const renamed = await Managed.of(stack.plugin, "appVersion", "renamed");
  const refused = await failure(renamed.create({ appId, source: moved, versionName: "2.5.0-rc" }));
  expect(refused.message).toMatch(
    `versionName: app ${appId} already has the build of ${moved} (id ${build.id}, SHA-256 ${sha256("build 2.5.0")}) as version "2.5.0", not "2.5.0-rc"`,
  );
  expect((await builds(sha256("build 2.5.0"))).length).toBe(1);

  // Read: a recorded hash other than the listed build's is drift (refresh records the live one); an id the
  // app no longer lists is gone.
  build.outputs = { ...build.outputs, sha256: sha256("something else") };
  expect(await build.read()).toMatchObject({ id: build.id, properties: { sha256: sha256("build 2.5.0") } });
  const gone = await Managed.of(stack.plugin, "appVersion", "gone");
  gone.id = "00000000-0000-4000-8000-000000000000";
  gone.outputs = { ...build.outputs };
  gone.inputs = { ...build.inputs };
  expect((await gone.read()).id).toBe("");

  // Builds cannot be deleted: delete forgets, the build stays.
  await build.delete();
  expect((await builds(sha256("build 2.5.0"))).map((b) => b.id)).toEqual([other.id]);
});

it("waits for a build of the same bytes still being processed (a run killed after its complete) and takes it", async () => {
  const source = write("killed.apk", "build of a killed run");
  // The killed run's upload: completed, not waited for.
  const started = await stack.admin.releases.initiateVersionUpload(appId, "killed.apk");
  const [part] = await stack.admin.releases.presignVersionUpload(appId, started.versionId, {
    key: started.key,
    uploadId: started.uploadId,
    partNumbers: [1],
  });
  const put = await fetch(part.url, { method: "PUT", body: fs.readFileSync(source) });
  const made = await stack.admin.releases.completeVersionUpload(appId, started.versionId, {
    key: started.key,
    uploadId: started.uploadId,
    parts: [{ partNumber: 1, eTag: put.headers.get("etag")! }],
    versionName: "3.0.0",
  });
  expect(made.status).toBe("uploaded");
  const build = await Managed.of(stack.plugin, "appVersion", "killed");
  const outs = await build.create({ appId, source, versionName: "3.0.0" });
  expect(build.id).toBe(made.id);
  expect(outs).toMatchObject({ status: "available" });
  expect((await builds(sha256("build of a killed run"))).map((b) => [b.id, b.status])).toEqual([
    [made.id, "available"],
  ]);
});

it("fails a create whose build ends in error, with the build named; the next create uploads again", async () => {
  const source = write("unsigned.apk", "an unsigned build");
  stack.emulator.setFaults({ failAppBuilds: 1 });
  const build = await Managed.of(stack.plugin, "appVersion", "unsigned");
  const failed = await failure(build.create({ appId, source, versionName: "0.0.1" }));
  const [errored] = await builds(sha256("an unsigned build"));
  expect(errored.status).toBe("error");
  expect(failed.message).toMatch(`The build ${errored.id} of app ${appId} ended its processing in error`);
  await build.create({ appId, source, versionName: "0.0.1" });
  expect(build.id).not.toBe(errored.id);
  expect((await builds(sha256("an unsigned build"))).map((b) => [b.id, b.status])).toEqual([
    [build.id, "available"],
    [errored.id, "error"],
  ]);
});

it("refuses at check a second resource of the run declaring the same build of the same app", async () => {
  const source = write("twin.apk", "twin build");
  const one = await Managed.of(stack.plugin, "appVersion", "twin-one");
  const two = await Managed.of(stack.plugin, "appVersion", "twin-two");
  const declared = { appId, source, versionName: "1.0.0" };
  expect((await one.check({ ...declared, __claimant: "twin-one" })).failures).toEqual([]);
  const { failures } = await two.check({ ...declared, __claimant: "twin-two" });
  expect(failures).toEqual([
    {
      property: "sha256",
      reason: expect.stringMatching(
        new RegExp(`the build of app ${appId} with SHA-256 ${sha256("twin build")}.*twin-one`),
      ),
    },
  ]);
});
