// File through the real dynamic-provider plugin against the emulator (issue 31): a create uploads the source in
// parts and records the checksum the API answers, a read finds content replaced in the portal, a replacement
// deletes first and uploads again, delete deletes. Under both readings of whether the API's `replace` keeps a
// file's id (emulator switch replaceKeepsFileId). The organization is asserted through the API.
import type { EmulatorOptions } from "../../emulator";
import { sha512, useSourceFolder } from "../fixtures/content";
import { failure, Managed, startStack, type Stack } from "./support";

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
    const read = await file.read();
    if (keepsId) {
      // Drift: refresh records the live checksum, so the next diff (the declared bytes) replaces the file.
      expect(read.properties).toMatchObject({ sha512: sha512("edited in the portal") });
      expect(await file.diff({ source, path: "/sdcard/Docs" })).toMatchObject({
        changes: "some",
        replaces: ["sha512"],
        deleteBeforeReplace: true,
      });
      // The replacement as the engine runs it for this kind: delete first, then upload the declared bytes.
      const oldId = file.id;
      await file.delete();
      await expect(stack.admin.files.get(oldId)).rejects.toMatchObject({ status: 404 });
      await file.create({ source, path: "/sdcard/Docs" });
    } else {
      // The portal's file is another object: this one is gone, and a new create meets the portal's file.
      expect(read.id).toBe("");
      const again = await Managed.of(stack.plugin, "file", "manual");
      const refused = await failure(again.create({ source, path: "/sdcard/Docs" }));
      expect(refused.message).toMatch(
        `A file named "${filename}" already exists in /sdcard/Docs (id ${replaced.made.id}, with other content)`,
      );
      expect((await named(filename)).map((f) => f.id)).toEqual([replaced.made.id]);
      // The fix the message names: delete the other file (adoptId takes over only the declared content).
      await stack.admin.files.delete(replaced.made.id);
      await file.create({ source, path: "/sdcard/Docs" });
    }
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
