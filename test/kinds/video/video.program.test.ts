// A Video as a whole program on the real Pulumi CLI (test/engine), the emulator as the organization, asserted
// through its API: up uploads the video (with a TagSet on it and a GroupVideo putting it on a site), up again
// and refresh change nothing, a new name and rendering update it in place leaving the TagSet's tags, a rename in
// the portal is drift (report, refresh) that up repairs in place, new bytes upload a new video before deleting
// the old one (the GroupVideo and TagSet follow the new id), an upload of the same name in the portal is another
// video (the API replaces none) and the stack's deleted there is uploaded again, destroy deletes.
import * as fs from "fs";
import * as path from "path";
import { brief } from "../../drift/support";
import { sha512, writeSource } from "../../fixtures/content";
import { driftReport, expectUpChangesNothing, useProgramStack } from "../../harness/programStack";
import * as dm from "../../../provider";

const org = useProgramStack({ project: "devicemgmt-video" });
let siteId: string;
let videoId: string;

interface Declared {
  name: string;
  rendering: Pick<
    dm.VideoArgs,
    "videoType" | "videoMapping" | "videoDisplay" | "videoPacking" | "audioEncoding"
  >;
}

const flat: Declared["rendering"] = { videoType: "TwoDimensional", audioEncoding: "STEREO" };
const immersive: Declared["rendering"] = {
  videoType: "ThreeSixty",
  videoMapping: "EQUIRECTANGULAR",
  videoDisplay: "Stereoscopic",
  videoPacking: "TOP_BOTTOM",
  audioEncoding: "AMBIX_4",
};

function program(declared: Declared) {
  return () => {
    const video = new dm.Video("tour", {
      source: path.join(org.dir, "tour.mp4"),
      name: declared.name,
      ...declared.rendering,
    });
    new dm.TagSet("tour-tags", { ownerType: "video", ownerId: video.id, tags: ["lobby"] });
    new dm.GroupVideo("tour-on-site", { groupId: siteId, videoId: video.id });
    return { videoId: video.id, sha512: video.sha512 };
  };
}

const onSite = () => org.emulator.snapshot().groups.find((g) => g.id === siteId)?.videoIds;
const tours = async () => (await org.admin.videos.all()).filter((v) => v.filename === "tour.mp4");

beforeAll(async () => {
  siteId = (
    await org.admin.groups.configure((await org.admin.groups.create({ name: "Lobby", parentId: null })).id)
  ).id;
});

test("up uploads the video, tags it and puts it on the site; up again and refresh change nothing", async () => {
  fs.writeFileSync(path.join(org.dir, "tour.mp4"), "first cut");
  const result = await org.engine.up(program({ name: "Lobby Tour", rendering: flat }));
  expect(result.errors).toEqual([]);
  expect(result.steps.create.map((s) => s.name).sort()).toEqual(["tour", "tour-on-site", "tour-tags"]);
  videoId = result.outputs.videoId as string;
  expect(result.outputs.sha512).toBe(sha512("first cut"));
  const live = await org.admin.videos.get(videoId);
  expect(live).toMatchObject({
    name: "Lobby Tour",
    filename: "tour.mp4",
    sizeBytes: 9,
    tags: ["lobby"],
    details: { videoType: "TwoDimensional", videoMapping: null, audioEncoding: "STEREO" },
  });
  expect(live.checksum.value.toLowerCase()).toBe(sha512("first cut"));
  expect(onSite()).toEqual([videoId]);

  await expectUpChangesNothing(org, program({ name: "Lobby Tour", rendering: flat }));

  const refreshed = await org.engine.refresh();
  expect(refreshed.errors).toEqual([]);
  expect(refreshed.steps.update).toEqual([]);
});

test("a new name and rendering update the video in place; the TagSet's tags stay", async () => {
  const result = await org.engine.up(program({ name: "Lobby Tour 360", rendering: immersive }));
  expect(result.errors).toEqual([]);
  expect(result.steps.update.map((s) => s.name)).toEqual(["tour"]);
  expect(result.steps.replace).toEqual([]);
  expect(result.outputs.videoId).toBe(videoId);
  expect(await org.admin.videos.get(videoId)).toMatchObject({
    name: "Lobby Tour 360",
    tags: ["lobby"],
    details: immersive,
  });
  const again = await org.engine.up(program({ name: "Lobby Tour 360", rendering: immersive }));
  expect(again.steps.update).toEqual([]);
});

test("a rename in the portal shows in the drift report and on refresh; up renames it back in place", async () => {
  const live = await org.admin.videos.get(videoId);
  await org.admin.videos.update(videoId, {
    name: "Renamed in the portal",
    description: live.description ?? null,
    videoType: "ThreeSixty",
    videoMapping: "EQUIRECTANGULAR",
    videoDisplay: "Stereoscopic",
    videoPacking: "TOP_BOTTOM",
    audioEncoding: "AMBIX_4",
    tags: live.tags ?? [],
  });
  const drift = await driftReport(org, "video");
  expect(drift.report.findings.map((f) => [brief(f), f.differences])).toEqual([
    [
      'changed video "Renamed in the portal" (tour.mp4)',
      [{ field: "name", state: "Lobby Tour 360", live: "Renamed in the portal" }],
    ],
  ]);

  const refreshed = await org.engine.refresh();
  expect(refreshed.errors).toEqual([]);
  expect(refreshed.steps.update.map((s) => s.name)).toEqual(["tour"]);
  const repaired = await org.engine.up(program({ name: "Lobby Tour 360", rendering: immersive }));
  expect(repaired.errors).toEqual([]);
  expect(repaired.steps.update.map((s) => s.name)).toEqual(["tour"]);
  expect(repaired.steps.replace).toEqual([]);
  expect(await org.admin.videos.get(videoId)).toMatchObject({ name: "Lobby Tour 360", tags: ["lobby"] });
});

test("new bytes upload a new video before the old one is deleted; the site and the tags follow it", async () => {
  fs.writeFileSync(path.join(org.dir, "tour.mp4"), "second cut");
  const result = await org.engine.up(program({ name: "Lobby Tour", rendering: flat }));
  expect(result.errors).toEqual([]);
  expect(result.steps.replace.map((s) => [s.name, s.replaceKeys])).toContainEqual(["tour", ["sha512"]]);
  // Create first: the new video exists before the GroupVideo moves to it, and the old one goes last.
  const operations = result.operations.map((o) => `${o.op} ${o.urn.split("::").pop()}`);
  expect(operations.indexOf("create tour")).toBeLessThan(operations.indexOf("create tour-on-site"));
  expect(operations.indexOf("create tour-on-site")).toBeLessThan(operations.indexOf("delete tour"));
  const newId = result.outputs.videoId as string;
  expect(newId).not.toBe(videoId);
  expect((await tours()).map((v) => [v.id, v.checksum.value.toLowerCase(), v.tags])).toEqual([
    [newId, sha512("second cut"), ["lobby"]],
  ]);
  await expect(org.admin.videos.get(videoId)).rejects.toMatchObject({ status: 404 });
  expect(onSite()).toEqual([newId]);
  videoId = newId;
});

test("the API replaces no video: another of its name is another video; the stack's deleted in the portal is uploaded again, once", async () => {
  const declared = program({ name: "Lobby Tour", rendering: flat });
  // An upload of the same name in the portal makes a second video (videos have no conflict to replace on).
  const portal = await org.admin.uploadVideo({
    source: writeSource(org.dir, "portal/tour.mp4", "portal cut"),
    filename: "tour.mp4",
    videoType: "TwoDimensional",
    audioEncoding: "STEREO",
  });
  expect(portal.made.id).not.toBe(videoId);
  const untouched = await org.engine.refresh();
  expect(untouched.errors).toEqual([]);
  for (const kind of ["update", "delete"] as const) expect(untouched.steps[kind]).toEqual([]);
  await expectUpChangesNothing(org, declared);

  // The stack's video deleted in the portal: refresh reads it gone, up uploads the declared bytes again.
  await org.admin.videos.delete(videoId);
  const refreshed = await org.engine.refresh();
  expect(refreshed.errors).toEqual([]);
  expect(refreshed.steps.delete.map((s) => s.name)).toContain("tour");
  const repaired = await org.engine.up(declared);
  expect(repaired.errors).toEqual([]);
  expect(repaired.steps.create.map((s) => s.name)).toContain("tour");
  videoId = repaired.outputs.videoId as string;
  expect((await tours()).map((v) => [v.id, v.checksum.value.toLowerCase()]).sort()).toEqual(
    [
      [portal.made.id, sha512("portal cut")],
      [videoId, sha512("second cut")],
    ].sort(),
  );
  expect(onSite()).toEqual([videoId]);
  await expectUpChangesNothing(org, declared);
  await org.admin.videos.delete(portal.made.id);
});

test("destroy deletes the video and takes it off the site", async () => {
  const destroyed = await org.engine.destroy();
  expect(destroyed.errors).toEqual([]);
  expect(destroyed.steps.delete.map((s) => s.name).sort()).toEqual(["tour", "tour-on-site", "tour-tags"]);
  expect(await tours()).toEqual([]);
  expect(onSite()).toEqual([]);
});
