// A File as a whole program on the real Pulumi CLI (test/engine), the emulator as the organization, asserted
// through its API: up uploads, up again changes nothing, new bytes at the same path replace the file (delete
// first, then upload), the same bytes at another local path are no change, destroy deletes the file, and a relative
// source is resolved in the program's folder (where the engine starts the plugin). Content replaced in the portal
// is drift under both readings of the API's replace (the same id, or a new id in the file's place): the report,
// refresh, and an up that uploads again, leaving one file there and nothing more to do.
import * as fs from "fs";
import * as path from "path";
import { createEngine } from "../../engine";
import { brief } from "../../drift/support";
import { sha512, writeSource } from "../../fixtures/content";
import { driftReport, expectUpChangesNothing, repoRoot, useProgramStack } from "../../harness/programStack";
import * as dm from "../../../provider";

const org = useProgramStack({ project: "devicemgmt-file" });
let fileId: string;

function program(source: string) {
  return () => {
    const file = new dm.File("manual", { source, filename: "safety-manual-v2.pdf", path: "/sdcard/Docs" });
    return { fileId: file.id, sha512: file.sha512 };
  };
}

const source = () => path.join(org.dir, "manual.pdf");
const named = async () => (await org.admin.files.all()).filter((f) => f.filename === "safety-manual-v2.pdf");

test("up uploads the file; up again changes nothing and writes nothing", async () => {
  fs.writeFileSync(source(), "first edition");
  const result = await org.engine.up(program(source()));
  expect(result.errors).toEqual([]);
  expect(result.steps.create.map((s) => s.name)).toEqual(["manual"]);
  fileId = result.outputs.fileId as string;
  expect(result.outputs.sha512).toBe(sha512("first edition"));
  const live = await org.admin.files.get(fileId);
  expect(live).toMatchObject({ filename: "safety-manual-v2.pdf", location: "/sdcard/Docs", sizeBytes: 13 });
  expect(live.checksum.value.toLowerCase()).toBe(sha512("first edition"));

  await expectUpChangesNothing(org, program(source()));
});

test("new bytes at the same path replace the file: the old one deleted, the new bytes uploaded", async () => {
  fs.writeFileSync(source(), "second edition");
  const result = await org.engine.up(program(source()));
  expect(result.errors).toEqual([]);
  expect(result.steps.replace.map((s) => [s.name, s.replaceKeys])).toEqual([["manual", ["sha512"]]]);
  const files = await named();
  expect(files.map((f) => [f.id, f.checksum.value.toLowerCase()])).toEqual([
    [result.outputs.fileId, sha512("second edition")],
  ]);
  await expect(org.admin.files.get(fileId)).rejects.toMatchObject({ status: 404 });
  fileId = result.outputs.fileId as string;
});

test("the same bytes at another local path are no change", async () => {
  const moved = path.join(org.dir, "moved", "renamed-manual.pdf");
  fs.mkdirSync(path.dirname(moved), { recursive: true });
  fs.renameSync(source(), moved);
  await expectUpChangesNothing(org, program(moved));
  expect((await named()).map((f) => f.id)).toEqual([fileId]);
});

test("destroy deletes the file from the organization", async () => {
  const destroyed = await org.engine.destroy();
  expect(destroyed.errors).toEqual([]);
  expect(destroyed.steps.delete.map((s) => s.name)).toEqual(["manual"]);
  expect(await named()).toEqual([]);
});

test("a separate preview binds nothing: up uploads the bytes it hashes then, unless a sha512 pin holds the reviewed ones", async () => {
  const reviewed = writeSource(org.dir, "reviewed.pdf", "reviewed bytes");
  const declare = (name: string, sha512Pin?: string) => () => {
    const file = new dm.File(name, { source: reviewed, path: `/sdcard/${name}`, sha512: sha512Pin });
    return { fileId: file.id };
  };
  const inFolder = async (name: string) =>
    (await org.admin.files.all())
      .filter((f) => f.location === `/sdcard/${name}`)
      .map((f) => f.checksum.value.toLowerCase());

  // Unpinned: the preview hashed the reviewed bytes, the up hashes the source again and uploads what it holds.
  expect((await org.engine.preview(declare("Unpinned"))).errors).toEqual([]);
  fs.writeFileSync(reviewed, "edited after the review");
  const unpinned = await org.engine.up(declare("Unpinned"));
  expect(unpinned.errors).toEqual([]);
  expect(await inFolder("Unpinned")).toEqual([sha512("edited after the review")]);

  // Pinned to the reviewed bytes: the up's check refuses the edited source, naming sha512; nothing is uploaded.
  fs.writeFileSync(reviewed, "reviewed bytes");
  const pinned = declare("Pinned", sha512("reviewed bytes"));
  expect((await org.engine.preview(pinned)).errors).toEqual([]);
  fs.writeFileSync(reviewed, "edited after the review");
  const refused = await org.engine.up(pinned);
  expect(refused.errors.map((e) => (e.failures ?? []).map((f) => f.reason).join(" "))).toEqual([
    expect.stringMatching(/^sha512: .*reviewed\.pdf has the SHA-512 [0-9a-f]{128}, not the declared/),
  ]);
  expect(await inFolder("Pinned")).toEqual([]);
  expect((await org.engine.destroy()).errors).toEqual([]);
});

test("a relative source is the program folder's", async () => {
  const programDir = path.join(org.dir, "program");
  fs.mkdirSync(path.join(programDir, "content"), { recursive: true });
  fs.writeFileSync(path.join(programDir, "content", "relative.txt"), "relative bytes");
  // The plugin runs in the program's folder and loads the SDK and the provider from its node_modules.
  fs.symlinkSync(path.join(repoRoot, "node_modules"), path.join(programDir, "node_modules"));
  const own = await createEngine({
    cwd: programDir,
    project: "devicemgmt-file-relative",
    config: { "devicemgmt:baseUrl": org.emulator.baseUrl },
    secretConfig: { "devicemgmt:apiToken": org.emulator.tokens.admin },
  });
  try {
    const result = await own.up(() => {
      const file = new dm.File("relative", { source: "content/relative.txt", path: "/sdcard" });
      return { fileId: file.id };
    });
    expect(result.errors).toEqual([]);
    const live = await org.admin.files.get(result.outputs.fileId as string);
    expect(live).toMatchObject({ filename: "relative.txt", location: "/sdcard" });
    expect(live.checksum.value.toLowerCase()).toBe(sha512("relative bytes"));
    expect((await own.destroy()).errors).toEqual([]);
  } finally {
    await own.close();
  }
});

describe.each([
  ["keeps the file's id", true],
  ["gives its place to a new id (the emulator's default)", false],
])("content replaced in the portal, where the API's replace %s", (_reading, replaceKeepsFileId) => {
  const stack = useProgramStack({
    project: `devicemgmt-file-drift-${replaceKeepsFileId ? "same" : "new"}-id`,
    emulator: { strict: { replaceKeepsFileId } },
  });
  let siteId: string;
  beforeAll(async () => {
    const site = await stack.admin.groups.create({ name: "Warehouse", parentId: null });
    siteId = (await stack.admin.groups.configure(site.id)).id;
  });
  /** The File, on a site: the site's file follows the file's id. */
  const onSite = (source: string) => () => {
    const file = new dm.File("manual", { source, filename: "safety-manual-v2.pdf", path: "/sdcard/Docs" });
    new dm.GroupFile("manual-on-site", { groupId: siteId, fileId: file.id });
    return { fileId: file.id };
  };
  const siteFiles = () => stack.emulator.snapshot().groups.find((g) => g.id === siteId)?.fileIds;
  const inPlace = async () =>
    (await stack.admin.files.all())
      .filter((f) => f.filename === "safety-manual-v2.pdf" && f.location === "/sdcard/Docs")
      .map((f) => [f.id, f.checksum.value.toLowerCase()]);

  test("shows in the drift report and on refresh, up uploads the declared bytes again, once; then all is quiet", async () => {
    const declared = writeSource(stack.dir, "declared.pdf", "declared bytes");
    const created = await stack.engine.up(onSite(declared));
    expect(created.errors).toEqual([]);
    const id = created.outputs.fileId as string;

    const portal = writeSource(stack.dir, "portal.pdf", "portal bytes");
    const replaced = await stack.admin.uploadFile({
      source: portal,
      filename: "safety-manual-v2.pdf",
      path: "/sdcard/Docs",
      conflictStrategy: "replace",
    });
    expect(replaced.made.id === id).toBe(replaceKeepsFileId);

    const drift = await driftReport(stack, "file");
    expect(drift.report.findings.map((f) => [brief(f), f.differences])).toEqual([
      [
        'changed file "safety-manual-v2.pdf" in /sdcard/Docs',
        [{ field: "sha512", state: sha512("declared bytes"), live: sha512("portal bytes") }],
      ],
    ]);

    // Refresh keeps the File, on the object in its place (a new id recorded where the replace made one).
    const refreshed = await stack.engine.refresh();
    expect(refreshed.errors).toEqual([]);
    expect(refreshed.steps.update.map((s) => s.name)).toEqual(["manual"]);
    // The site's attachment names the replaced id: where that id is gone, it reads as gone too (the up attaches
    // the declared file again); the API moved the site to the replacement, which the up then replaces.
    expect(refreshed.steps.delete.map((s) => s.name)).toEqual(replaceKeepsFileId ? [] : ["manual-on-site"]);
    expect(stack.engine.resource("manual")).toMatchObject({
      id: replaced.made.id,
      outputs: expect.objectContaining({ sha512: sha512("portal bytes") }),
    });

    const repaired = await stack.engine.up(onSite(declared));
    expect(repaired.errors).toEqual([]);
    expect(repaired.steps.replace.map((s) => [s.name, s.replaceKeys])).toContainEqual(["manual", ["sha512"]]);
    expect(await inPlace()).toEqual([[repaired.outputs.fileId, sha512("declared bytes")]]);
    expect(stack.engine.resource("manual").id).toBe(repaired.outputs.fileId);
    expect(siteFiles()).toEqual([repaired.outputs.fileId]);

    await expectUpChangesNothing(stack, onSite(declared));
    const quiet = await stack.engine.refresh();
    expect(quiet.errors).toEqual([]);
    for (const kind of ["create", "update", "replace", "delete"] as const)
      expect(quiet.steps[kind]).toEqual([]);

    expect((await stack.engine.destroy()).errors).toEqual([]);
    expect(await inPlace()).toEqual([]);
    expect(siteFiles()).toEqual([]);
  });
});
