// Video through the real dynamic-provider plugin against the emulator (issue 31): a create uploads the source in
// parts with its rendering fields and PUTs the declared name; metadata changes in place through the whole-object
// PUT without touching the video's tags (a TagSet owns them), under both readings of whether a PUT's tags replace
// or add (emulator switch mergeVideoTagsOnPut); new content is a new video, created before the old one is deleted,
// and a GroupVideo naming the new id follows it; adoption only with adoptId and the same content; a --replace of
// unchanged content; duplicates and bad rendering refused at check; the uploader's faults (expired URL, failed
// part, lost complete) and a source changed since preview. The organization is asserted through the API.
import * as fs from "node:fs";
import type { EmulatorOptions } from "../../../emulator";
import { sha512, useSourceFolder } from "../../fixtures/content";
import { failure, Managed, startStack, type Stack } from "../../harness/providerStack";

const READINGS: [string, EmulatorOptions][] = [
  ["a PUT's tags replace the video's (default)", {}],
  ["a PUT's tags are added to the video's", { strict: { mergeVideoTagsOnPut: true } }],
];
const flat = { videoType: "TwoDimensional", audioEncoding: "STEREO" } as const;

describe.each(READINGS)("Video, %s", (reading, emulatorOptions) => {
  let stack: Stack;
  const sources = useSourceFolder("video-plugin-");
  let n = 0;
  beforeAll(async () => {
    stack = await startStack({ emulator: emulatorOptions });
  });
  afterAll(async () => {
    await stack.close();
  });

  const write = sources.write;
  /** A file name of its own for each test (both readings share nothing, but tests of one reading do). */
  const unique = (stem: string) => `${stem}-${reading.length}-${++n}.mp4`;
  const named = async (filename: string) =>
    (await stack.admin.videos.all()).filter((v) => v.filename === filename);

  it("uploads with its rendering and name; a metadata change is a PUT that leaves the TagSet's tags", async () => {
    const filename = unique("tour");
    const source = write(filename, "first cut");
    const video = await Managed.of(stack.plugin, "video", "tour");
    const outs = await video.create({ source, name: "Welcome Tour", ...flat });
    expect(outs).toMatchObject({
      filename,
      name: "Welcome Tour",
      videoType: "TwoDimensional",
      videoMapping: null,
      audioEncoding: "STEREO",
      sha512: sha512("first cut"),
      sizeBytes: 9,
    });
    const live = await stack.admin.videos.get(video.id);
    expect(live).toMatchObject({ name: "Welcome Tour", filename, details: { videoType: "TwoDimensional" } });
    expect(live.checksum.value.toLowerCase()).toBe(sha512("first cut"));

    // A TagSet on the video (another resource) sets its tags.
    const tagSet = await Managed.of(stack.plugin, "tagSet", "tour-tags");
    await tagSet.create({ ownerType: "video", ownerId: video.id, tags: ["lobby", "safety"] });
    expect((await stack.admin.videos.get(video.id)).tags).toEqual(["lobby", "safety"]);

    // Metadata changes in place: same id, the tags as the TagSet left them.
    const change = {
      source,
      name: "Welcome Tour (360)",
      description: "Lobby loop",
      videoType: "ThreeSixty",
      videoMapping: "EQUIRECTANGULAR",
      videoDisplay: "Stereoscopic",
      videoPacking: "TOP_BOTTOM",
      audioEncoding: "AMBIX_4",
    };
    expect(await video.diff(change)).toMatchObject({ changes: "some", replaces: [] });
    await video.update(change);
    const updated = await stack.admin.videos.get(video.id);
    expect(updated).toMatchObject({
      name: "Welcome Tour (360)",
      description: "Lobby loop",
      tags: ["lobby", "safety"],
      details: {
        videoType: "ThreeSixty",
        videoMapping: "EQUIRECTANGULAR",
        videoDisplay: "Stereoscopic",
        videoPacking: "TOP_BOTTOM",
        audioEncoding: "AMBIX_4",
      },
    });
    expect(await video.diff(change)).toMatchObject({ changes: "none" });
    expect(await tagSet.read()).toMatchObject({ id: tagSet.id });
    expect(
      await tagSet.diff({ ownerType: "video", ownerId: video.id, tags: ["lobby", "safety"] }),
    ).toMatchObject({ changes: "none" });

    // An update whose metadata is what the video has sends nothing.
    stack.emulator.resetStats();
    await video.update(change);
    expect(stack.emulator.stats().writes).toBe(0);

    await video.delete();
    expect(await named(filename)).toEqual([]);
    await video.delete(); // already gone: nothing to do
  });

  it("new content is a new video, made before the old one goes; a GroupVideo moves to the new id", async () => {
    const filename = unique("drill");
    const source = write(filename, "take one");
    const video = await Managed.of(stack.plugin, "video", "drill");
    await video.create({ source, ...flat });
    const made = await stack.admin.groups.create({ name: `Site ${filename}`, parentId: null });
    const group = await stack.admin.groups.configure(made.id);
    const attachment = await Managed.of(stack.plugin, "groupVideo", "drill-on-group");
    await attachment.create({ groupId: group.id, videoId: video.id });

    fs.writeFileSync(source, "take two");
    expect(await video.diff({ source, ...flat })).toMatchObject({
      changes: "some",
      replaces: ["sha512"],
      deleteBeforeReplace: false,
    });
    // The engine's order for a create-first replacement and a dependent replaced onto the new id.
    const before = video.id;
    const old = { id: video.id, outputs: video.outputs, inputs: video.inputs };
    await video.create({ source, ...flat });
    expect(video.id).not.toBe(before);
    expect((await named(filename)).map((v) => v.id).sort()).toEqual([before, video.id].sort());
    await attachment.replace({ groupId: group.id, videoId: video.id });
    await stack.plugin.delete({ urn: video.urn, id: old.id, properties: old.outputs, oldInputs: old.inputs });

    const now = await named(filename);
    expect(now.map((v) => [v.id, v.checksum.value.toLowerCase()])).toEqual([[video.id, sha512("take two")]]);
    expect(stack.emulator.snapshot().groups.find((g) => g.id === group.id)?.videoIds).toEqual(
      expect.arrayContaining([video.id]),
    );
    expect(stack.emulator.snapshot().groups.find((g) => g.id === group.id)?.videoIds).not.toContain(before);
    await attachment.delete();
    await video.delete();
  });

  it("refuses a create over a video of the same filename and content; adopts it only with adoptId", async () => {
    const filename = unique("shared");
    const source = write(filename, "same bytes");
    const theirs = await stack.admin.uploadVideo({ source, filename, ...flat });
    // Another video of that filename with other content is no conflict: only the same bytes are.
    const video = await Managed.of(stack.plugin, "video", "shared");
    const refused = await failure(video.create({ source, ...flat }));
    expect(refused.message).toMatch(`with the same content (SHA-512 ${sha512("same bytes")}) already exists`);
    expect(refused.message).toMatch(`adoptId: "${theirs.made.id}"`);
    const other = write("other.mp4", "other bytes");
    const wrong = await failure(video.create({ source: other, filename, ...flat, adoptId: theirs.made.id }));
    expect(wrong.message).toMatch(/adoptId: video .* Adopt a video with the declared filename and content/);
    await video.create({ source, ...flat, name: "Adopted", adoptId: theirs.made.id });
    expect(video.id).toBe(theirs.made.id);
    expect(await named(filename)).toEqual([expect.objectContaining({ id: theirs.made.id, name: "Adopted" })]);
    await video.delete();
  });

  it("a replacement asked for with the same content (--replace) uploads a new video, not a refusal", async () => {
    const filename = unique("again");
    const source = write(filename, "same take");
    const video = await Managed.of(stack.plugin, "video", "again");
    const declared = { source, ...flat, __claimant: "again" };
    await video.create(declared);
    const { oldId } = await video.replace(declared);
    expect(video.id).not.toBe(oldId);
    expect((await named(filename)).map((v) => v.id)).toEqual([video.id]);
    await video.delete();
  });

  it("refuses at check a second resource of the run declaring the same filename and content, and bad input", async () => {
    const source = write(unique("twin"), "twin");
    const one = await Managed.of(stack.plugin, "video", "twin-one");
    const two = await Managed.of(stack.plugin, "video", "twin-two");
    expect((await one.check({ source, ...flat, __claimant: "twin-one" })).failures).toEqual([]);
    expect((await two.check({ source, ...flat, __claimant: "twin-two" })).failures).toEqual([
      {
        property: "source",
        reason: expect.stringMatching(/the video "twin-.*\.mp4" with SHA-512 .*twin-one/),
      },
    ]);
    // Fields of one video type on another, across the plugin: the property and the fix.
    const bad = await Managed.of(stack.plugin, "video", "bad");
    expect((await bad.check({ source, ...flat, videoMapping: "CUBEMAP" })).failures).toEqual([
      {
        property: "videoMapping",
        reason: expect.stringMatching(/a TwoDimensional video takes no videoMapping .*Remove videoMapping/),
      },
    ]);
  });

  it("inherits the uploader's fault handling: an expired URL, a failed part, a lost complete; no duplicate", async () => {
    const filename = unique("faulty");
    const source = write(filename, "bytes through a flaky store");
    stack.emulator.resetStats();
    stack.emulator.setFaults({ expireUploadUrls: 1, failUploadParts: 1, loseCompleteAnswers: 1 });
    try {
      const video = await Managed.of(stack.plugin, "video", "faulty");
      await video.create({ source, ...flat });
      expect(stack.emulator.stats().faults).toMatchObject({
        uploadUrlsExpired: 1,
        uploadPartsFailed: 1,
        completeAnswersLost: 1,
      });
      expect((await named(filename)).map((v) => [v.id, v.checksum.value.toLowerCase()])).toEqual([
        [video.id, sha512("bytes through a flaky store")],
      ]);
      await video.delete();
    } finally {
      stack.emulator.setFaults({ expireUploadUrls: 0, failUploadParts: 0, loseCompleteAnswers: 0 });
    }
  });

  it("refuses a source that changed since preview, leaving no video", async () => {
    const filename = unique("moving");
    const source = write(filename, "as previewed");
    const video = await Managed.of(stack.plugin, "video", "moving");
    const { inputs } = await video.check({ source, ...flat });
    fs.writeFileSync(source, "rewritten before the up");
    const refused = await failure(stack.plugin.create({ urn: video.urn, properties: inputs }));
    expect(refused.message).toMatch(/changed while it was being uploaded .*nothing was made/);
    expect(await named(filename)).toEqual([]);
  });
});
