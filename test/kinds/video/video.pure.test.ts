// The Video kind without Pulumi or HTTP: check hashes the source (the shared source module, framework/source.ts),
// refuses a container the API does not take and a combination of rendering fields the OpenAPI forbids, each
// naming the property and the fix; the diff replaces on new content (create first), updates metadata in place,
// and ignores the local path and what the program leaves out.
import * as path from "node:path";
import { UNKNOWN, diffKind } from "../../../provider/framework";
import { videoHandler } from "../../../provider/kinds/video/handler";
import { videoProperties } from "../../../provider/kinds/video/properties";
import { sha512, useSourceFolder } from "../../fixtures/content";

const VIDEO = { type: "Video", properties: videoProperties, naturalKey: false };

const sources = useSourceFolder("video-kind-");

const write = sources.write;

const flat = { videoType: "TwoDimensional", audioEncoding: "STEREO" };
const immersive = {
  videoType: "ThreeSixty",
  videoMapping: "EQUIRECTANGULAR",
  videoDisplay: "Monoscopic",
  audioEncoding: "AMBIX_4",
};

const reasons = async (news: Record<string, unknown>) =>
  Object.fromEntries((await videoHandler.check({}, news)).failures.map((f) => [f.property, f.reason]));

describe("Video check", () => {
  it("records the source's SHA-512 and its name as the filename; absent rendering fields are null", async () => {
    const source = write("tour.mp4", "first cut");
    const { inputs, failures } = await videoHandler.check({}, { source, ...flat });
    expect(failures).toEqual([]);
    expect(inputs).toEqual({
      source,
      ...flat,
      filename: "tour.mp4",
      videoMapping: null,
      videoDisplay: null,
      videoPacking: null,
      sha512: sha512("first cut"),
    });
    const named = await videoHandler.check({}, { source, filename: "Tour.WEBM", ...flat });
    expect(named.failures).toEqual([]);
    expect(named.inputs.filename).toBe("Tour.WEBM");
  });

  it("refuses a container the API does not take, on the property that names it", async () => {
    expect(await reasons({ source: write("tour.mov", "x"), ...flat })).toEqual({
      source: expect.stringMatching(
        /^source: .*tour\.mov: the API takes videos as \.mp4, \.mkv or \.webm, not \.mov\. Convert the video/,
      ),
    });
    // A declared filename is what the API sees: the source's own name no longer matters.
    expect(await reasons({ source: write("raw.bin", "x"), filename: "tour.mkv", ...flat })).toEqual({});
    expect(await reasons({ source: write("ok.mp4", "x"), filename: "tour.avi", ...flat })).toEqual({
      filename: expect.stringMatching(/^filename: filename must end with \.mp4, \.mkv or \.webm/),
    });
    expect(await reasons({ source: sources.dir, ...flat })).toEqual({
      source: expect.stringMatching(/^source: .* is a folder\. Give the path of one file/),
    });
    expect(await reasons({ source: path.join(sources.dir, "nope.mp4"), ...flat })).toEqual({
      source: expect.stringMatching(/does not exist .*Give the path of the file to upload/),
    });
  });

  it("refuses fields of one video type on another, naming the field and the fix", async () => {
    const source = write("clip.mp4", "clip");
    expect(await reasons({ source, ...flat, videoMapping: "CUBEMAP", videoDisplay: "Monoscopic" })).toEqual({
      videoMapping: expect.stringMatching(
        /^videoMapping: a TwoDimensional video takes no videoMapping .*Remove videoMapping, or set videoType to "ThreeSixty" or "OneEighty"/,
      ),
      videoDisplay: expect.stringMatching(/^videoDisplay: a TwoDimensional video takes no videoDisplay/),
    });
    expect(await reasons({ source, videoType: "OneEighty", audioEncoding: "STEREO" })).toEqual({
      videoMapping: 'videoMapping is required for a OneEighty video: give "EQUIRECTANGULAR" or "CUBEMAP".',
      videoDisplay: 'videoDisplay is required for a OneEighty video: give "Monoscopic" or "Stereoscopic".',
    });
    expect(await reasons({ source, ...immersive, videoDisplay: "Stereoscopic" })).toEqual({
      videoPacking: 'videoPacking is required for a Stereoscopic video: give "TOP_BOTTOM" or "LEFT_RIGHT".',
    });
    expect(await reasons({ source, ...immersive, videoPacking: "TOP_BOTTOM" })).toEqual({
      videoPacking: expect.stringMatching(
        /^videoPacking: only a Stereoscopic video takes videoPacking .*set videoDisplay to "Stereoscopic"/,
      ),
    });
    expect(
      await reasons({ source, ...immersive, videoDisplay: "Stereoscopic", videoPacking: "LEFT_RIGHT" }),
    ).toEqual({});
    expect(await reasons({ source, videoType: "Flat", audioEncoding: "DOLBY" })).toEqual({
      videoType: expect.stringMatching(
        /^videoType: videoType is required: one of ThreeSixty, OneEighty, TwoDimensional/,
      ),
      audioEncoding: expect.stringMatching(
        /^audioEncoding: audioEncoding is required: the API's encoding name/,
      ),
    });
  });

  it("leaves what is unknown at preview to the up", async () => {
    const { inputs, failures } = await videoHandler.check(
      {},
      {
        source: UNKNOWN,
        videoType: "ThreeSixty",
        videoMapping: UNKNOWN,
        videoDisplay: "Monoscopic",
        audioEncoding: "STEREO",
      },
    );
    expect(failures).toEqual([]);
    expect(inputs).toMatchObject({ source: UNKNOWN, videoMapping: UNKNOWN });
    expect(inputs.sha512).toBeUndefined();
  });
});

describe("Video diff: new content is a new video, metadata changes in place", () => {
  const recorded = {
    source: "content/tour.mp4",
    filename: "tour.mp4",
    name: "Welcome Tour",
    description: null,
    ...flat,
    videoMapping: null,
    videoDisplay: null,
    videoPacking: null,
    sha512: sha512("first cut"),
    sizeBytes: 9,
  };
  const declared = {
    source: "content/tour.mp4",
    filename: "tour.mp4",
    ...flat,
    videoMapping: null,
    videoDisplay: null,
    videoPacking: null,
    sha512: sha512("first cut"),
  };

  it("the same bytes at another local path are no change; a name or description left out is not managed", () => {
    expect(diffKind(VIDEO, recorded, { ...declared, source: "elsewhere/tour-copy.mp4" })).toMatchObject({
      changes: false,
    });
  });

  it("new bytes or another filename replace the video, creating the new one first", () => {
    const content = diffKind(VIDEO, recorded, { ...declared, sha512: sha512("second cut") });
    expect(content).toMatchObject({ changes: true, replaces: ["sha512"] });
    expect(content.deleteBeforeReplace).toBeFalsy();
    expect(diffKind(VIDEO, recorded, { ...declared, filename: "tour.webm" })).toMatchObject({
      replaces: ["filename"],
    });
  });

  it.each([
    ["name", { name: "Tour" }],
    ["description", { description: "Lobby loop" }],
    ["rendering", { ...immersive, videoDisplay: "Stereoscopic", videoPacking: "TOP_BOTTOM" }],
    ["audio", { audioEncoding: "MONO" }],
  ])("%s changes in place (an update, no replacement)", (_what, change) => {
    expect(diffKind(VIDEO, recorded, { ...declared, ...change })).toMatchObject({
      changes: true,
      replaces: [],
    });
  });

  it('a description of "" is none, as null is (check reads it so): no change from a video without one', async () => {
    const { inputs } = await videoHandler.check(
      {},
      { source: write("d.mp4", "d"), ...flat, description: "" },
    );
    expect(inputs.description).toBeNull();
    expect(diffKind(VIDEO, recorded, { ...declared, description: inputs.description })).toMatchObject({
      changes: false,
    });
  });
});
