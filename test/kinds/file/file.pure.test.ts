// The File kind without Pulumi or HTTP: check hashes the source (and caches the hash by path, size and mtime),
// refuses sources that cannot be a File with the property and the fix, and the diff compares the content's hash,
// never the local path.
import * as fs from "node:fs";
import * as path from "node:path";
import { UNKNOWN, diffKind, checkSource, hashReads } from "../../../provider/framework";
import { fileHandler } from "../../../provider/kinds/file/handler";
import { fileProperties } from "../../../provider/kinds/file/properties";
import { sha512, useSourceFolder } from "../../fixtures/content";

const FILE = { type: "File", properties: fileProperties, naturalKey: true };

const sources = useSourceFolder("file-kind-");

const write = sources.write;

describe("File check", () => {
  it("records the source's SHA-512 and its name as the file name (a declared name wins)", async () => {
    const source = write("manual.pdf", "first edition");
    const { inputs, failures } = await fileHandler.check({}, { source, path: "/sdcard/Docs" });
    expect(failures).toEqual([]);
    expect(inputs).toEqual({
      source,
      path: "/sdcard/Docs",
      filename: "manual.pdf",
      sha512: sha512("first edition"),
    });
    const named = await fileHandler.check({}, { source, path: "/sdcard/Docs", filename: "safety.pdf" });
    expect(named.inputs.filename).toBe("safety.pdf");
  });

  it("leaves a source not known yet (preview) to the up", async () => {
    const { inputs, failures } = await fileHandler.check({}, { source: UNKNOWN, path: "/sdcard" });
    expect(failures).toEqual([]);
    expect(inputs).toEqual({ source: UNKNOWN, path: "/sdcard" });
  });

  it("reads an unchanged file once per process, and again once its size or mtime changed", async () => {
    const source = write("cached.txt", "v1");
    await fileHandler.check({}, { source, path: "/sdcard" });
    const after = hashReads();
    await fileHandler.check({}, { source, path: "/sdcard" });
    await fileHandler.check({}, { source, path: "/sdcard", filename: "other.txt" });
    expect(hashReads()).toBe(after);
    fs.writeFileSync(source, "v2, longer");
    const { inputs } = await fileHandler.check({}, { source, path: "/sdcard" });
    expect(hashReads()).toBe(after + 1);
    expect(inputs.sha512).toBe(sha512("v2, longer"));
  });

  it("refuses a source that cannot be a File, naming the property and the fix", async () => {
    const reasons = async (news: Record<string, unknown>) =>
      Object.fromEntries((await fileHandler.check({}, news)).failures.map((f) => [f.property, f.reason]));
    expect(await reasons({ source: path.join(sources.dir, "nope.pdf"), path: "/sdcard" })).toEqual({
      source: expect.stringMatching(
        /^source: .*nope\.pdf does not exist .*Give the path of the file to upload/,
      ),
    });
    expect(await reasons({ source: sources.dir, path: "/sdcard" })).toEqual({
      source: expect.stringMatching(/^source: .* is a folder\. Give the path of one file/),
    });
    expect(await reasons({ source: write("app.APK", "x"), path: "/sdcard" })).toEqual({
      source: expect.stringMatching(/app build \(\.apk\) is uploaded as an app version, not as a File/),
    });
    expect(await reasons({ source: write("main.obb", "x"), path: "/sdcard" })).toEqual({
      source: expect.stringMatching(/expansion file \(\.obb\) belongs to an app bundle/),
    });
    expect(await reasons({ path: "/sdcard" })).toEqual({
      source: expect.stringMatching(/^source: source is required/),
    });
    expect(await reasons({ source: write("a.txt", "a") })).toEqual({
      path: expect.stringMatching(/^path: path is required/),
    });
    expect(await reasons({ source: write("b.txt", "b"), path: "/sdcard", sha512: sha512("other") })).toEqual({
      sha512: expect.stringMatching(/^sha512: .*b\.txt has the SHA-512 [0-9a-f]{128}, not the declared/),
    });
    if (process.getuid?.() !== 0) {
      const locked = write("locked.txt", "secret");
      fs.chmodSync(locked, 0o000);
      expect(await reasons({ source: locked, path: "/sdcard" })).toEqual({
        source: expect.stringMatching(/^source: .*locked\.txt cannot be read .*Make it readable/),
      });
    }
  });

  it("follows a symbolic link inside the program's folder, refuses one leading outside", async () => {
    const program = path.join(sources.dir, "program");
    fs.mkdirSync(path.join(program, "content"), { recursive: true });
    fs.writeFileSync(path.join(program, "content", "inside.txt"), "inside");
    fs.symlinkSync(path.join(program, "content", "inside.txt"), path.join(program, "near.txt"));
    fs.symlinkSync(write("outside.txt", "outside"), path.join(program, "far.txt"));
    expect(await checkSource("near.txt", program)).toMatchObject({
      sha512: sha512("inside"),
      filename: "near.txt",
    });
    expect(await checkSource("far.txt", program)).toEqual({
      failure: expect.stringMatching(
        /^source: far\.txt is a symbolic link to .*outside\.txt, outside the program's folder .*Copy the file into the program's folder/,
      ),
    });
    // Relative sources are the program's folder's.
    expect(await checkSource("content/inside.txt", program)).toMatchObject({ sha512: sha512("inside") });
  });
});

describe("File diff: the hash is the identity, never the path", () => {
  const recorded = {
    source: "content/manual.pdf",
    filename: "manual.pdf",
    path: "/sdcard/Docs",
    sha512: sha512("first edition"),
    sizeBytes: 13,
  };
  const declared = {
    source: "content/manual.pdf",
    filename: "manual.pdf",
    path: "/sdcard/Docs",
    sha512: sha512("first edition"),
  };

  it("the same bytes at another local path are no change", () => {
    expect(diffKind(FILE, recorded, { ...declared, source: "elsewhere/copy-of-manual.pdf" })).toMatchObject({
      changes: false,
    });
  });

  it("changed bytes at the same path replace the file, deleting first", () => {
    expect(diffKind(FILE, recorded, { ...declared, sha512: sha512("second edition") })).toMatchObject({
      changes: true,
      replaces: ["sha512"],
      deleteBeforeReplace: true,
    });
  });

  it("another device folder or file name replaces it; a hash in other case is the same hash", () => {
    expect(diffKind(FILE, recorded, { ...declared, path: "/sdcard/Manuals" })).toMatchObject({
      replaces: ["path"],
    });
    expect(diffKind(FILE, recorded, { ...declared, filename: "manual-v2.pdf" })).toMatchObject({
      replaces: ["filename"],
    });
    expect(diffKind(FILE, recorded, { ...declared, sha512: declared.sha512.toUpperCase() })).toMatchObject({
      changes: false,
    });
  });
});
