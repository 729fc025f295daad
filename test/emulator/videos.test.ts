/**
 * `PUT /videos/{videoId}` (UpdateVideo, issue 31's Video): the OpenAPI's whole-object body (`name`,
 * `description`, `videoType`, `audioEncoding` and `tags` required; the rendering fields under the upload's
 * rules), the permission, no-op PUTs, the audit record, and the switch for what the documents leave open (whether
 * a PUT's `tags` replace the video's or are added to them) tested both ways.
 */
import type { RunningEmulator } from "../../emulator";
import { optionsFromArgs } from "../../emulator/cli";
import { client, start, validationErrors, type Client, type Json } from "./helpers";

const MISSING = "00000000-0000-4000-8000-000000000000";

async function newestAudit(api: Client): Promise<Json> {
  return (await api.get("/audit-logs", { query: { per_page: 1 } })).body.data[0];
}

async function seededVideo(api: Client, name: string): Promise<Json> {
  const videos: Json[] = (await api.get("/videos", { query: { per_page: 100 } })).body.data;
  return videos.find((v) => v.name === name);
}

/** What the OpenAPI requires, for a flat video. */
const flat = {
  name: "Welcome Tour (2025)",
  description: null,
  videoType: "TwoDimensional",
  audioEncoding: "STEREO",
  tags: [],
};

describe("PUT /videos/{videoId} (default readings)", () => {
  let emulator: RunningEmulator;
  let admin: Client;
  beforeAll(async () => {
    emulator = await start();
    admin = client(emulator, emulator.tokens.admin);
  });
  afterAll(() => emulator.close());

  it("changes the name, description and rendering in place; GET reads them back; the content stays", async () => {
    const video = await seededVideo(admin, "Forklift Safety 360");
    const response = await admin.put(`/videos/${video.id}`, {
      name: "Forklift Safety (stereo)",
      description: "Aisle 4 walkthrough",
      videoType: "OneEighty",
      videoMapping: "CUBEMAP",
      videoDisplay: "Stereoscopic",
      videoPacking: "LEFT_RIGHT",
      audioEncoding: "AMBIX_4",
      tags: [],
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: video.id,
      name: "Forklift Safety (stereo)",
      description: "Aisle 4 walkthrough",
      filename: video.filename,
      checksum: video.checksum,
      sizeBytes: video.sizeBytes,
      details: {
        videoType: "OneEighty",
        videoMapping: "CUBEMAP",
        videoDisplay: "Stereoscopic",
        videoPacking: "LEFT_RIGHT",
        audioEncoding: "AMBIX_4",
        playtimeSeconds: video.details.playtimeSeconds,
      },
    });
    expect((await admin.get(`/videos/${video.id}`)).body).toEqual(response.body);
    expect(await newestAudit(admin)).toMatchObject({
      type: "updated",
      action: "update-video",
      resourceType: "video",
      resourceId: video.id,
      resourceName: "Forklift Safety (stereo)",
      description: "Updated video 'Forklift Safety 360'.",
    });
  });

  it("a PUT that changes nothing moves no timestamp and records no audit entry", async () => {
    const video = await seededVideo(admin, "Evacuation Drill");
    const same = {
      name: video.name,
      description: video.description,
      videoType: video.details.videoType,
      videoMapping: video.details.videoMapping,
      videoDisplay: video.details.videoDisplay,
      videoPacking: video.details.videoPacking,
      audioEncoding: video.details.audioEncoding,
      tags: video.tags,
    };
    const before = (await admin.get("/audit-logs", { query: { per_page: 1 } })).body.meta.total;
    const response = await admin.put(`/videos/${video.id}`, same);
    expect(response.body).toEqual(video);
    expect((await admin.get("/audit-logs", { query: { per_page: 1 } })).body.meta.total).toBe(before);
  });

  it("requires the whole object: name, description (null allowed), videoType, audioEncoding, tags", async () => {
    const video = await seededVideo(admin, "Welcome Tour");
    const response = await admin.put(`/videos/${video.id}`, {});
    expect(response.status).toBe(422);
    expect(Object.keys(validationErrors(response)).sort()).toEqual([
      "audioEncoding",
      "description",
      "name",
      "tags",
      "videoType",
    ]);
    expect((await admin.get(`/videos/${video.id}`)).body).toEqual(video);
  });

  it.each([
    ["TwoDimensional with a mapping", { videoMapping: "EQUIRECTANGULAR" }, ["videoMapping"]],
    ["TwoDimensional with a display", { videoDisplay: "Monoscopic" }, ["videoDisplay"]],
    ["ThreeSixty without mapping and display", { videoType: "ThreeSixty" }, ["videoDisplay", "videoMapping"]],
    [
      "Stereoscopic without packing",
      { videoType: "OneEighty", videoMapping: "EQUIRECTANGULAR", videoDisplay: "Stereoscopic" },
      ["videoPacking"],
    ],
    [
      "Monoscopic with packing",
      {
        videoType: "ThreeSixty",
        videoMapping: "EQUIRECTANGULAR",
        videoDisplay: "Monoscopic",
        videoPacking: "TOP_BOTTOM",
      },
      ["videoPacking"],
    ],
  ])("refuses the rendering rules broken: %s (422, nothing changed)", async (_what, fields, refused) => {
    const video = await seededVideo(admin, "Welcome Tour");
    const response = await admin.put(`/videos/${video.id}`, { ...flat, ...fields });
    expect(response.status).toBe(422);
    expect(Object.keys(validationErrors(response)).sort()).toEqual(refused);
    expect((await admin.get(`/videos/${video.id}`)).body).toEqual(video);
  });

  it("needs CONTENT__MANAGE (a reader gets 403) and an existing video (404)", async () => {
    const video = await seededVideo(admin, "Welcome Tour");
    const reader = client(emulator, emulator.tokens.readOnly);
    expect((await reader.put(`/videos/${video.id}`, flat)).status).toBe(403);
    expect((await admin.put(`/videos/${MISSING}`, flat)).status).toBe(404);
    expect((await admin.get(`/videos/${video.id}`)).body).toEqual(video);
  });
});

describe.each([false, true])("mergeVideoTagsOnPut: %s", (merge) => {
  it("PUT /videos/{id} tags replace the video's tags, or are added to them; its own tags sent back keep them", async () => {
    const emulator = await start({ strict: { mergeVideoTagsOnPut: merge } });
    try {
      const admin = client(emulator, emulator.tokens.admin);
      const video = await seededVideo(admin, "Welcome Tour");
      await admin.patch(`/videos/${video.id}/tags/attach`, { tags: ["lobby", "training"] });
      const put = await admin.put(`/videos/${video.id}`, { ...flat, tags: ["safety", "training"] });
      expect(put.body.tags).toEqual(merge ? ["lobby", "training", "safety"] : ["safety", "training"]);
      const own = await admin.put(`/videos/${video.id}`, { ...flat, name: "Renamed", tags: put.body.tags });
      expect(own.body).toMatchObject({ name: "Renamed", tags: put.body.tags });
    } finally {
      await emulator.close();
    }
  });
});

it("--strict-catalog names the video tags switch", () => {
  expect(optionsFromArgs(["--strict-catalog", "merge-video-tags-on-put"])).toMatchObject({
    strict: { mergeVideoTagsOnPut: true },
  });
});
