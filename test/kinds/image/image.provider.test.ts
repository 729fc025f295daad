// Image and Custom3DEnvironment through the real dynamic-provider plugin against the emulator (issue 31): check
// refuses what cannot be uploaded and hashes the source; a create uploads in parts and waits for `available`;
// the diff compares the hash and the name, never the path; a replacement uploads a new object and forgets the
// old one (the API cannot delete either), saying so; adoption only with adoptId. Under both readings of the type
// an uploaded image gets (emulator switch uploadedImageType). The organization is asserted through the API.
import * as fs from "node:fs";
import * as path from "node:path";
import type { EmulatorOptions } from "../../../emulator";
import { sha512, useSourceFolder } from "../../fixtures/content";
import { failure, loggedWarning, Managed, startStack, type Stack } from "../../harness/providerStack";

describe.each<[string, EmulatorOptions, string]>([
  ["uploaded images are unknown (default)", {}, "unknown"],
  [
    "uploaded images are skyboxes",
    { strict: { uploadedImageType: "headset-xp-skybox" } },
    "headset-xp-skybox",
  ],
])("Image, %s", (_reading, emulatorOptions, type) => {
  let stack: Stack;
  const sources = useSourceFolder("image-plugin-");
  beforeAll(async () => {
    stack = await startStack({ emulator: emulatorOptions });
  });
  afterAll(async () => {
    await stack.close();
  });
  const write = sources.write;

  it("uploads and waits for available, keeps its own hash, replaces on new bytes and forgets on delete", async () => {
    const source = write("sky.jpg", "blue sky");
    const image = await Managed.of(stack.plugin, "image", "sky");
    const outs = await image.create({ source });
    expect(outs).toMatchObject({
      filename: "sky.jpg",
      sha512: sha512("blue sky"),
      type,
      status: "available",
      mimeType: "image/jpeg",
      sizeBytes: 8,
    });
    expect(await stack.admin.images.get(image.id)).toMatchObject({
      originalFileName: "sky.jpg",
      status: "available",
      type,
      sizeBytes: 8,
    });
    // Listed under the type the reading gives it.
    expect((await stack.admin.images.all(type as "unknown")).map((i) => i.id)).toContain(image.id);

    // Same bytes elsewhere: no change. A refresh keeps the provider's hash (the API answers none).
    const copy = write("copy-of-sky.jpg", "blue sky");
    expect(await image.diff({ source: copy, filename: "sky.jpg" })).toMatchObject({ changes: "none" });
    const read = await image.read();
    expect(read.properties).toMatchObject({ sha512: sha512("blue sky"), status: "available" });
    expect(await image.diff({ source })).toMatchObject({ changes: "none" });

    // New bytes at the same path: a replacement, which uploads first and then forgets the old image.
    write("sky.jpg", "red sky at night");
    expect(await image.diff({ source })).toMatchObject({ changes: "some", replaces: ["sha512"] });
    expect((await image.diff({ source })).deleteBeforeReplace).toBeFalsy();
    const { oldId } = await image.replace({ source });
    expect(image.id).not.toBe(oldId);
    expect(await stack.admin.images.get(image.id)).toMatchObject({ sizeBytes: 16, status: "available" });
    expect(await stack.admin.images.get(oldId)).toMatchObject({ originalFileName: "sky.jpg" }); // still there
    await loggedWarning(stack.plugin, `Image ${oldId} ("sky.jpg"): the API cannot delete images`);

    stack.emulator.resetStats();
    await image.delete();
    expect(stack.emulator.stats().writes).toBe(0);
    expect(await stack.admin.images.get(image.id)).toMatchObject({ status: "available" });
  });

  it("refuses at check a missing source, a folder, a file that is no image, and a wrong pinned hash", async () => {
    const image = await Managed.of(stack.plugin, "image", "bad");
    const reasons = async (news: Parameters<typeof image.check>[0]) =>
      (await image.check(news)).failures.map((f) => `${f.property}: ${f.reason}`);
    expect(await reasons({})).toEqual([expect.stringMatching(/^source: source: source is required/)]);
    expect(await reasons({ source: path.join(sources.dir, "nope.png") })).toEqual([
      expect.stringMatching(/^source: source: .*nope\.png does not exist/),
    ]);
    fs.mkdirSync(path.join(sources.dir, "folder.png"), { recursive: true });
    expect(await reasons({ source: path.join(sources.dir, "folder.png") })).toEqual([
      expect.stringMatching(/is a folder\. Give the path of one file/),
    ]);
    const scene = write("scene.glb", "glTF");
    expect(await reasons({ source: scene })).toEqual([
      expect.stringMatching(/scene\.glb: not of a type Image takes \(\.png, \.jpg, \.jpeg\)/),
    ]);
    const icon = write("icon.png", "png bytes");
    expect(await reasons({ source: icon, sha512: "a".repeat(128) })).toEqual([
      expect.stringMatching(/^sha512: .*icon\.png has the SHA-512 [0-9a-f]{128}, not the declared a{128}/),
    ]);
    expect(await reasons({ source: icon })).toEqual([]);
  });

  it("adopts an existing image only with adoptId and only of the declared name", async () => {
    const source = write("logo.png", "logo");
    const theirs = await stack.admin.uploadImage({ source, filename: "logo.png" });
    const other = await Managed.of(stack.plugin, "image", "wrong-name");
    const refused = await failure(other.create({ source, filename: "other.png", adoptId: theirs.made.id }));
    expect(refused.message).toMatch(
      `adoptId: ${theirs.made.id} is an image named "logo.png", not "other.png"`,
    );
    const image = await Managed.of(stack.plugin, "image", "logo");
    await image.create({ source, adoptId: theirs.made.id });
    expect(image.id).toBe(theirs.made.id);
    const own = (await stack.admin.images.all(type as "unknown")).filter(
      (i) => i.originalFileName === "logo.png",
    );
    expect(own.map((i) => i.id)).toEqual([theirs.made.id]);
  });

  it("inherits the uploader's fault handling: an expired URL is renewed and a lost complete answer resolved", async () => {
    const source = write("banner.png", "banner bytes");
    stack.emulator.setFaults({ expireUploadUrls: 1, loseCompleteAnswers: 1 });
    const image = await Managed.of(stack.plugin, "image", "banner");
    await image.create({ source });
    expect(stack.emulator.stats().faults).toMatchObject({ uploadUrlsExpired: 1, completeAnswersLost: 1 });
    const named = (await stack.admin.images.all(type as "unknown")).filter(
      (i) => i.originalFileName === "banner.png",
    );
    expect(named.map((i) => [i.id, i.status])).toEqual([[image.id, "available"]]);
  });
});

describe("Custom3DEnvironment", () => {
  let stack: Stack;
  const sources = useSourceFolder("environment-plugin-");
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack.close();
  });

  it("uploads a .glb, waits for available, refuses other files at check, and forgets on delete", async () => {
    const source = sources.write("hall.glb", "glTF hall");
    const environment = await Managed.of(stack.plugin, "custom3DEnvironment", "hall");
    const gltf = sources.write("hall.gltf", "{}");
    expect((await environment.check({ source: gltf })).failures).toEqual([
      {
        property: "source",
        reason: expect.stringMatching(/hall\.gltf: not of a type Custom3DEnvironment takes \(\.glb\)/),
      },
    ]);
    const outs = await environment.create({ source });
    expect(outs).toMatchObject({
      filename: "hall.glb",
      sha512: sha512("glTF hall"),
      status: "available",
      sizeBytes: 9,
    });
    expect(await stack.admin.custom3DEnvironments.get(environment.id)).toMatchObject({
      objectName: "hall.glb",
      status: "available",
    });
    expect(await environment.diff({ source })).toMatchObject({ changes: "none" });
    await environment.delete();
    expect(await stack.admin.custom3DEnvironments.get(environment.id)).toMatchObject({
      objectName: "hall.glb",
    });
    await loggedWarning(
      stack.plugin,
      `Custom3DEnvironment ${environment.id} ("hall.glb"): the API cannot delete custom 3D environments`,
    );
  });
});
