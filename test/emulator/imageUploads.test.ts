/**
 * Uploading images and custom 3D environments through the emulator by hand (issue 31): initiate (only a
 * filename), pre-sign, parts on the storage endpoint, complete; the record answers `pending`, no checksum, and
 * becomes `available` on the emulator clock. The file types refused at initiate, and the switch for the type an
 * uploaded image gets (documents silent), both ways, with an experience slot taking the image. The fault
 * failContentProcessing ends a processing `failed`.
 */
import { request } from "undici";
import { optionsFromArgs } from "../../emulator/cli";
import { PROCESSING_MS } from "../../emulator/routes/imageUploads";
import { catalogue, homeBody } from "./experienceHelpers";
import { createConfiguredGroup, UUID, validationErrors, type Client, type Json } from "./helpers";
// Apart, so that the list above keeps to one line.
import { withEmulator } from "./helpers";

/** Initiate, one part, complete: what complete answered, and the id. */
async function uploadOne(
  api: Client,
  kind: "images" | "custom-3d-environments",
  filename: string,
  body: Buffer,
) {
  const started = await api.post(`/${kind}`, { filename });
  expect(started.status).toBe(kind === "images" ? 200 : 201);
  const id = started.body[kind === "images" ? "imageId" : "custom3DEnvironmentId"] as string;
  expect(id).toMatch(UUID);
  const signed = await api.post(`/${kind}/${id}/pre-sign`, {
    key: started.body.key,
    uploadId: started.body.uploadId,
    partNumbers: [1],
  });
  expect(signed.status).toBe(200);
  const put = await request(signed.body[0].presignedUrl as string, { method: "PUT", body });
  await put.body.text();
  expect(put.statusCode).toBe(200);
  const complete = await api.post(`/${kind}/${id}/complete`, {
    key: started.body.key,
    uploadId: started.body.uploadId,
    parts: [{ partNumber: 1, eTag: put.headers.etag }],
  });
  expect(complete.status).toBe(200);
  return { id, answer: complete.body as Json };
}

test("fault failContentProcessing: the next upload ends its processing failed (no download), the one after is available", () =>
  withEmulator({ faults: { failContentProcessing: 1 } }, async (emulator, api) => {
    const failed = await uploadOne(api, "images", "broken.png", Buffer.alloc(10, 1));
    const fine = await uploadOne(api, "custom-3d-environments", "fine.glb", Buffer.alloc(10, 2));
    expect(failed.answer).toMatchObject({ status: "pending" });
    emulator.advanceClock(PROCESSING_MS);
    expect((await api.get(`/images/${failed.id}`)).body).toMatchObject({
      status: "failed",
      downloadUrl: null,
    });
    expect((await api.get(`/custom-3d-environments/${fine.id}`)).body.data).toMatchObject({
      status: "available",
    });
    expect(emulator.stats().faults.contentProcessingFailed).toBe(1);
  }));

describe("image uploads", () => {
  test("an image is pending with its size and no checksum, then available once processed", () =>
    withEmulator({}, async (emulator, api) => {
      const { id, answer } = await uploadOne(api, "images", "Lobby.PNG", Buffer.alloc(3000, 7));
      expect(answer).toMatchObject({
        id,
        isSystemOwned: false,
        originalFileName: "Lobby.PNG",
        objectName: `${id}.png`,
        mimeType: "image/png",
        sizeBytes: 3000,
        type: "unknown",
        status: "pending",
        downloadUrl: null,
      });
      expect(answer).not.toHaveProperty("checksum");
      expect((await api.get(`/images/${id}`)).body.status).toBe("pending");
      emulator.advanceClock(PROCESSING_MS);
      const read = await api.get(`/images/${id}`);
      expect(read.body.status).toBe("available");
      // Its schema's downloadUrl: a signed GET of the bytes received, on the storage endpoint (no token).
      expect(read.body.downloadUrl).toMatch(new RegExp(`^${emulator.storageUrl}/`));
      const download = await fetch(read.body.downloadUrl);
      expect(download.status).toBe(200);
      expect((await download.arrayBuffer()).byteLength).toBe(3000);
      const listed = await api.get("/images", { query: { type: "unknown", per_page: 100 } });
      expect(listed.body.data.map((i: Json) => i.id)).toContain(id);
      expect(emulator.snapshot().images).toContainEqual(
        expect.objectContaining({ id, originalFileName: "Lobby.PNG", status: "available", sizeBytes: 3000 }),
      );
    }));

  test("an image file that is not .png, .jpg or .jpeg is refused at initiate", () =>
    withEmulator({}, async (_emulator, api) => {
      for (const filename of ["scene.glb", "movie.mp4", "icon.gif", "png"])
        expect(validationErrors(await api.post("/images", { filename })).filename).toEqual([
          "The filename must end with one of the following: .png, .jpg, .jpeg.",
        ]);
      expect(validationErrors(await api.post("/images", {})).filename).toBeDefined();
    }));

  test("uploadedImageType absent: the image is unknown and an experience's skybox slot takes it", () =>
    withEmulator({}, async (_emulator, api) => {
      const { id } = await uploadOne(api, "images", "sky.jpg", Buffer.alloc(100, 1));
      const group = await createConfiguredGroup(api, "Image Slot Lab", null);
      const c = await catalogue(api);
      const body = homeBody(c, {
        background: { type: "3d-model", bannerImageId: c.banner, skyboxImageId: id },
      });
      expect((await api.post(`/groups/${group}/headset-experience/arborxr-home`, body)).status).toBe(204);
      const read = await api.get(`/groups/${group}/headset-experience`);
      expect(read.body.background.skyboxImageId).toBe(id);
    }));

  test("uploadedImageType set: the image has that type, and only slots of that type take it", () =>
    withEmulator({ strict: { uploadedImageType: "headset-xp-banner" } }, async (_emulator, api) => {
      const { id, answer } = await uploadOne(api, "images", "banner.jpeg", Buffer.alloc(100, 2));
      expect(answer.type).toBe("headset-xp-banner");
      const group = await createConfiguredGroup(api, "Image Slot Lab", null);
      const c = await catalogue(api);
      const asSkybox = homeBody(c, {
        background: { type: "3d-model", bannerImageId: c.banner, skyboxImageId: id },
      });
      expect(
        validationErrors(await api.post(`/groups/${group}/headset-experience/arborxr-home`, asSkybox))[
          "background.skyboxImageId"
        ],
      ).toEqual(["The image must be an image of type headset-xp-skybox."]);
      const asBanner = homeBody(c, {
        background: { type: "3d-model", bannerImageId: id, skyboxImageId: c.skybox },
      });
      expect((await api.post(`/groups/${group}/headset-experience/arborxr-home`, asBanner)).status).toBe(204);
    }));
});

describe("custom 3D environment uploads", () => {
  test("an environment answers 201 at initiate, pending at complete (in `data`), available once processed", () =>
    withEmulator({}, async (emulator, api) => {
      const { id, answer } = await uploadOne(
        api,
        "custom-3d-environments",
        "hall.glb",
        Buffer.alloc(5000, 3),
      );
      expect(answer.data).toMatchObject({ id, objectName: "hall.glb", sizeBytes: 5000, status: "pending" });
      emulator.advanceClock(PROCESSING_MS);
      const read = await api.get(`/custom-3d-environments/${id}`);
      expect(read.body.data).toMatchObject({ id, status: "available" });
      expect(emulator.snapshot().custom3DEnvironments).toContainEqual(
        expect.objectContaining({ id, objectName: "hall.glb", status: "available" }),
      );
    }));

  test("a file that is not .glb is refused at initiate", () =>
    withEmulator({}, async (_emulator, api) => {
      expect(
        validationErrors(await api.post("/custom-3d-environments", { filename: "hall.gltf" })).filename,
      ).toEqual(["The filename must end with .glb."]);
    }));

  test("a complete naming a part never sent, or a pre-sign with another key, is 422", () =>
    withEmulator({}, async (_emulator, api) => {
      const started = await api.post("/custom-3d-environments", { filename: "x.glb" });
      const id = started.body.custom3DEnvironmentId as string;
      const complete = () =>
        api.post(`/custom-3d-environments/${id}/complete`, {
          key: started.body.key,
          uploadId: started.body.uploadId,
          parts: [{ partNumber: 1, eTag: "nothing" }],
        });
      expect(validationErrors(await complete())["parts.0.partNumber"]).toEqual(["Part 1 was not uploaded."]);
      expect(
        (
          await api.post(`/custom-3d-environments/${id}/pre-sign`, {
            key: "k",
            uploadId: "u",
            partNumbers: [1],
          })
        ).status,
      ).toBe(422);
    }));
});

test("--uploaded-image-type sets the switch, and refuses a type the OpenAPI does not name", () => {
  const options = optionsFromArgs(["--uploaded-image-type", "headset-xp-banner"]) as { strict: Json };
  expect(options.strict.uploadedImageType).toBe("headset-xp-banner");
  expect((optionsFromArgs([]) as { strict: Json }).strict).not.toHaveProperty("uploadedImageType");
  expect(() => optionsFromArgs(["--uploaded-image-type", "banner"])).toThrow(
    /--uploaded-image-type: one of unknown, three-sixty-background, .*, got "banner"/,
  );
});
