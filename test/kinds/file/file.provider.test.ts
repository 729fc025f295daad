// File through the real dynamic-provider plugin against the emulator (issue 31): a create uploads the source in
// parts and records the checksum the API answers, a read finds content replaced in the portal (under the same id
// or, in the file's place, a new one), a replacement deletes first and uploads again, delete deletes. Under both
// readings of whether the API's `replace` keeps a file's id (emulator switch replaceKeepsFileId). A file that
// was never the resource's (two in its place, or a create) is refused. The organization is asserted through the
// API.
import type { EmulatorOptions } from "../../../emulator";
import { sha512, useSourceFolder } from "../../fixtures/content";
import { failure, Managed, startStack, type Stack } from "../../harness/providerStack";

const READINGS: [string, EmulatorOptions, boolean][] = [
  ["replace gives a new id (default)", {}, false],
  ["replace keeps the file's id", { strict: { replaceKeepsFileId: true } }, true],
];

describe.each(READINGS)("File, %s", (_reading, emulatorOptions, keepsId) => {
  let stack: Stack;
  const sources = useSourceFolder("file-plugin-");
  beforeAll(async () => {
    stack = await startStack({ emulator: emulatorOptions });
  });
  afterAll(async () => {
    await stack.close();
  });

  const write = sources.write;
  const named = async (filename: string) =>
    (await stack.admin.files.all()).filter((f) => f.filename === filename);

  it("uploads, reads back its checksum, sees a portal replace, replaces deleting first, and delete deletes", async () => {
    const source = write(`manual-${keepsId}.pdf`, "first edition");
    const filename = `manual-${keepsId}.pdf`;
    const file = await Managed.of(stack.plugin, "file", "manual");
    const outs = await file.create({ source, path: "/sdcard/Docs" });
    expect(outs).toMatchObject({
      filename,
      path: "/sdcard/Docs",
      sha512: sha512("first edition"),
      sizeBytes: 13,
    });
    const live = await stack.admin.files.get(file.id);
    expect(live).toMatchObject({ filename, location: "/sdcard/Docs", sizeBytes: 13 });
    expect(live.checksum.value.toLowerCase()).toBe(sha512("first edition"));
    expect(await file.diff({ source, path: "/sdcard/Docs" })).toMatchObject({ changes: "none" });

    // The same bytes under another local path: no change.
    const copy = write("copy.pdf", "first edition");
    expect(await file.diff({ source: copy, path: "/sdcard/Docs", filename })).toMatchObject({
      changes: "none",
    });

    // The portal replaces the content (the API's own conflictStrategy "replace").
    const portal = write("portal.pdf", "edited in the portal");
    const replaced = await stack.admin.uploadFile({
      source: portal,
      filename,
      path: "/sdcard/Docs",
      conflictStrategy: "replace",
    });
    expect(replaced.made.id === file.id).toBe(keepsId);
    // Drift under either id: the read reports the file in the place (a new id is recorded as the engine's
    // refresh records it) with the live checksum, so the next diff (the declared bytes) replaces the file.
    const read = await file.read();
    expect(read.id).toBe(replaced.made.id);
    expect(file.id).toBe(replaced.made.id);
    expect(read.properties).toMatchObject({ sha512: sha512("edited in the portal") });
    expect(await file.diff({ source, path: "/sdcard/Docs" })).toMatchObject({
      changes: "some",
      replaces: ["sha512"],
      deleteBeforeReplace: true,
    });
    // The replacement as the engine runs it for this kind: delete first, then upload the declared bytes.
    await file.delete();
    await expect(stack.admin.files.get(replaced.made.id)).rejects.toMatchObject({ status: 404 });
    await file.create({ source, path: "/sdcard/Docs" });
    const now = await named(filename);
    expect(now.map((f) => [f.id, f.checksum.value.toLowerCase()])).toEqual([
      [file.id, sha512("first edition")],
    ]);

    await file.delete();
    expect(await named(filename)).toEqual([]);
    await file.delete(); // already gone: nothing to do
  });

  it("refuses a create over a file of that name and folder, and adopts it only with adoptId and the same content", async () => {
    const filename = `shared-${keepsId}.txt`;
    const source = write(filename, "same bytes");
    const theirs = await stack.admin.uploadFile({ source, filename, path: "/sdcard" });
    const file = await Managed.of(stack.plugin, "file", "shared");
    const refused = await failure(file.create({ source, path: "/sdcard" }));
    expect(refused.message).toMatch(`(id ${theirs.made.id}, with the same content)`);
    expect(refused.message).toMatch(`adoptId: "${theirs.made.id}"`);
    const other = write("other.txt", "other bytes");
    const wrong = await failure(
      file.create({ source: other, filename, path: "/sdcard", adoptId: theirs.made.id }),
    );
    expect(wrong.message).toMatch(/adoptId: file .* Adopt a file with the declared name, folder and content/);
    await file.create({ source, path: "/sdcard", adoptId: theirs.made.id });
    expect(file.id).toBe(theirs.made.id);
    expect((await named(filename)).length).toBe(1);
  });

  it("reads a file deleted in the portal as gone, and two files in its place as no one's: the create refuses them", async () => {
    const filename = `deleted-${keepsId}.txt`;
    const source = write(filename, "declared");
    const file = await Managed.of(stack.plugin, "file", "deleted");
    await file.create({ source, path: "/sdcard" });
    const recorded = { id: file.id, outputs: file.outputs, inputs: file.inputs };
    await stack.admin.files.delete(file.id);
    expect((await file.read()).id).toBe("");

    // Deleted, then two uploads of the name there (keep-both): neither is the resource's file.
    Object.assign(file, recorded);
    const others = [];
    for (const bytes of ["one", "two"])
      others.push(
        await stack.admin.uploadFile({
          source: write(`other-${bytes}.txt`, bytes),
          filename,
          path: "/sdcard",
          conflictStrategy: "keep-both",
        }),
      );
    expect((await file.read()).id).toBe("");
    const again = await Managed.of(stack.plugin, "file", "deleted");
    const refused = await failure(again.create({ source, path: "/sdcard" }));
    expect(refused.message).toMatch(`A file named "${filename}" already exists in /sdcard`);
    expect((await named(filename)).map((f) => f.id).sort()).toEqual(others.map((o) => o.made.id).sort());
  });

  it("uploads again over a portal replace of a file it adopted, and over new bytes after (the adoption is spent)", async () => {
    const filename = `adopted-${keepsId}.txt`;
    const source = write(filename, "adopted bytes");
    const theirs = await stack.admin.uploadFile({ source, filename, path: "/sdcard" });
    const file = await Managed.of(stack.plugin, "file", "adopted");
    const declared = { source, path: "/sdcard", adoptId: theirs.made.id };
    await file.create(declared);
    const replaced = await stack.admin.uploadFile({
      source: write(`portal-${filename}`, "portal bytes"),
      filename,
      path: "/sdcard",
      conflictStrategy: "replace",
    });
    // The refresh and the up that follow are later runs (another plugin process, which adopted nothing).
    const later = file.inRun(await stack.nextRun());
    expect((await later.read()).id).toBe(replaced.made.id);
    expect(await later.diff(declared)).toMatchObject({ replaces: ["sha512"], deleteBeforeReplace: true });
    await later.delete();
    await later.create(declared);
    expect((await named(filename)).map((f) => [f.id, f.checksum.value.toLowerCase()])).toEqual([
      [later.id, sha512("adopted bytes")],
    ]);
    // And again: new bytes replace it while adoptId still names the first, long gone.
    const edited = { ...declared, source: write(`edited-${filename}`, "edited bytes"), filename };
    expect(await later.diff(edited)).toMatchObject({ replaces: ["sha512"], deleteBeforeReplace: true });
    const third = later.inRun(await stack.nextRun());
    await third.delete();
    await third.create(edited);
    expect((await named(filename)).map((f) => [f.id, f.checksum.value.toLowerCase()])).toEqual([
      [third.id, sha512("edited bytes")],
    ]);
  });

  it("refuses at check a second resource of the run declaring the same file name in the same folder", async () => {
    const source = write(`twin-${keepsId}.txt`, "twin");
    const one = await Managed.of(stack.plugin, "file", "twin-one");
    const two = await Managed.of(stack.plugin, "file", "twin-two");
    expect((await one.check({ source, path: "/sdcard", __claimant: "twin-one" })).failures).toEqual([]);
    const { failures } = await two.check({ source, path: "/sdcard", __claimant: "twin-two" });
    expect(failures).toEqual([
      {
        property: "filename",
        reason: expect.stringMatching(new RegExp(`the file "twin-${keepsId}.txt" in /sdcard.*twin-one`)),
      },
    ]);
  });
});
