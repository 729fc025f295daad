/**
 * Uploading a file through the emulator by hand (issue 31, item 5): initiate, pre-sign, PUT each part to the
 * storage endpoint, complete. The storage endpoint's own rules (signature, expiry on the emulator clock, no
 * Authorization header, ETags), the checksum computed from the bytes received, the API's rules for each step,
 * the upload faults, and each switch for what the documents leave open, tested both ways.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { request } from "undici";
import { optionsFromArgs } from "../../emulator/cli";
import { call, client, ISO_MS, UUID, validationErrors, type Client, type Json } from "./helpers";
// Apart, so that the list above keeps to one line.
import { withEmulator } from "./helpers";

const MiB = 1024 * 1024;

/** Bytes that differ from part to part (so a part sent in the wrong order changes the checksum). */
function bytes(size: number, seed: number): Buffer {
  const out = Buffer.allocUnsafe(size);
  for (let i = 0; i < size; i++) out[i] = (i * 31 + seed * 7) & 0xff;
  return out;
}

async function put(url: string, body: Buffer, headers: Record<string, string> = {}) {
  const response = await request(url, { method: "PUT", body, headers });
  const text = await response.body.text();
  return { status: response.statusCode, etag: response.headers.etag as string | undefined, text };
}

interface Started {
  fileId: string;
  key: string;
  uploadId: string;
}

async function initiate(api: Client, filename = "data.bin", path = "/sdcard/data"): Promise<Started> {
  const response = await api.post("/files", { filename, path });
  expect(response.status).toBe(200);
  return response.body;
}

async function presign(api: Client, upload: Started, partNumbers: number[]): Promise<string[]> {
  const response = await api.post(`/files/${upload.fileId}/pre-sign`, {
    key: upload.key,
    uploadId: upload.uploadId,
    partNumbers,
  });
  expect(response.status).toBe(200);
  expect(response.body.map((p: Json) => p.partNumber)).toEqual(partNumbers);
  return response.body.map((p: Json) => p.presignedUrl);
}

/** Initiate, send `parts` (one pre-sign), complete; answers the complete's response. */
async function upload(api: Client, parts: Buffer[], filename?: string, extra: Record<string, unknown> = {}) {
  const started = await initiate(api, filename);
  const urls = await presign(
    api,
    started,
    parts.map((_, i) => i + 1),
  );
  const eTags: string[] = [];
  for (const [i, part] of parts.entries()) {
    const sent = await put(urls[i], part);
    expect(sent.status).toBe(200);
    eTags.push(sent.etag as string);
  }
  const complete = await api.post(`/files/${started.fileId}/complete`, {
    key: started.key,
    uploadId: started.uploadId,
    parts: eTags.map((eTag, i) => ({ partNumber: i + 1, eTag })),
    ...extra,
  });
  return { started, complete };
}

const sha512 = (...parts: Buffer[]) => {
  const hash = createHash("sha512");
  for (const part of parts) hash.update(part);
  return hash.digest("hex");
};

test("a file uploaded in parts: the storage ETags, then the file with the size and SHA-512 of the bytes received", () =>
  withEmulator({}, async (emulator, api) => {
    const parts = [bytes(2 * MiB, 1), bytes(2 * MiB, 2), bytes(123, 3)];
    const started = await initiate(api, "manual.pdf", "/sdcard/Docs");
    expect(started.fileId).toMatch(UUID);
    expect(started.key).toContain(`/files/`);
    expect(started.key.endsWith("/manual.pdf")).toBe(true);
    // Being uploaded is not a file yet.
    expect((await api.get(`/files/${started.fileId}`)).status).toBe(404);

    const urls = await presign(api, started, [1, 2, 3]);
    for (const url of urls) expect(url.startsWith(`${emulator.storageUrl}/`)).toBe(true);
    expect(new URL(emulator.storageUrl).port).not.toBe(new URL(emulator.url).port);
    const sent = await Promise.all(urls.map((url, i) => put(url, parts[i])));
    expect(sent.map((s) => s.status)).toEqual([200, 200, 200]);
    expect(sent.map((s) => s.etag)).toEqual(
      parts.map((p) => `"${createHash("md5").update(p).digest("hex")}"`),
    );

    const complete = await api.post(`/files/${started.fileId}/complete`, {
      key: started.key,
      uploadId: started.uploadId,
      parts: sent.map((s, i) => ({ partNumber: i + 1, eTag: s.etag })),
    });
    expect(complete.status).toBe(200);
    const expected = {
      id: started.fileId,
      filename: "manual.pdf",
      location: "/sdcard/Docs",
      sizeBytes: 4 * MiB + 123,
      checksum: { algorithm: "SHA-512", value: sha512(...parts) },
      tags: [],
      deviceStatuses: [],
    };
    expect(complete.body).toMatchObject(expected);
    expect(complete.body.createdAt).toMatch(ISO_MS);
    expect((await api.get(`/files/${started.fileId}`)).body).toEqual(complete.body);
    const listed = (await api.get("/files", { query: { per_page: 100 } })).body.data;
    expect(listed.filter((f: Json) => f.id === started.fileId)).toEqual([complete.body]);
    const audit = (await api.get("/audit-logs", { query: { per_page: 1 } })).body.data[0];
    expect(audit).toMatchObject({
      action: "create-file",
      resourceId: started.fileId,
      resourceName: "manual.pdf",
    });

    // The upload id is single-use: neither pre-sign nor complete nor a part PUT finds it again.
    const again = { key: started.key, uploadId: started.uploadId };
    expect((await api.post(`/files/${started.fileId}/pre-sign`, { ...again, partNumbers: [1] })).status).toBe(
      404,
    );
    expect(
      (
        await api.post(`/files/${started.fileId}/complete`, {
          ...again,
          parts: [{ partNumber: 1, eTag: "x" }],
        })
      ).status,
    ).toBe(404);
    expect((await put(urls[0], parts[0])).status).toBe(404);
    // No request to storage carried a token.
    expect(emulator.storageRequests().filter((r) => r.authorization)).toEqual([]);
  }));

test("a part sent again replaces the earlier one; the complete's order is the file's order", () =>
  withEmulator({}, async (_emulator, api) => {
    const started = await initiate(api);
    const urls = await presign(api, started, [1, 2]);
    await put(urls[0], bytes(100, 9));
    const first = await put(urls[0], bytes(100, 1));
    const second = await put(urls[1], bytes(50, 2));
    const complete = await api.post(`/files/${started.fileId}/complete`, {
      key: started.key,
      uploadId: started.uploadId,
      parts: [
        { partNumber: 1, eTag: first.etag?.replace(/"/g, "") }, // bare ETags name the same part
        { partNumber: 2, eTag: second.etag },
      ],
    });
    expect(complete.status).toBe(200);
    expect(complete.body.checksum.value).toBe(sha512(bytes(100, 1), bytes(50, 2)));
    expect(complete.body.sizeBytes).toBe(150);
  }));

test("storage refuses a request with an Authorization header, a forged signature, an unknown upload, a GET", () =>
  withEmulator({}, async (emulator, api) => {
    const started = await initiate(api);
    const [url] = await presign(api, started, [1]);
    const withToken = await put(url, bytes(10, 1), { authorization: `Bearer ${emulator.tokens.admin}` });
    expect(withToken.status).toBe(400);
    expect(withToken.text).toContain("<Code>InvalidArgument</Code>");
    const forged = new URL(url);
    forged.searchParams.set("partNumber", "2");
    expect((await put(forged.toString(), bytes(10, 1))).status).toBe(403);
    expect((await request(url, { method: "GET" })).statusCode).toBe(405);
    expect(emulator.storageRequests().map((r) => [r.authorization, r.status])).toEqual([
      [true, 400],
      [false, 403],
      [false, 405],
    ]);
    // Nothing was stored: completing names a part that never arrived.
    const complete = await api.post(`/files/${started.fileId}/complete`, {
      key: started.key,
      uploadId: started.uploadId,
      parts: [{ partNumber: 1, eTag: "abc" }],
    });
    expect(validationErrors(complete)).toEqual({ "parts.0.partNumber": ["Part 1 was not uploaded."] });
  }));

test("the API's rules: permission, bodies, key and upload id, ETags, part order, file names", () =>
  withEmulator({}, async (emulator, api) => {
    const reader = client(emulator, emulator.tokens.readOnly);
    expect((await reader.post("/files", { filename: "a.txt", path: "/sdcard" })).status).toBe(403);
    expect(validationErrors(await api.post("/files", { filename: "a.txt" }))).toHaveProperty("path");
    expect(validationErrors(await api.post("/files", { filename: "app.APK", path: "/sdcard" }))).toEqual({
      filename: ["The filename must not end with .apk."],
    });
    expect(
      validationErrors(await api.post("/files", { filename: "main.obb", path: "/sdcard" })),
    ).toHaveProperty("filename");
    const bundle = await api.post("/files", {
      filename: "main.obb",
      path: "/sdcard",
      appBundleId: "00000000-0000-4000-8000-000000000000",
    });
    expect(validationErrors(bundle)).toEqual({ appBundleId: ["The selected app bundle id is invalid."] });

    const started = await initiate(api);
    const at = `/files/${started.fileId}/pre-sign`;
    const ids = { key: started.key, uploadId: started.uploadId };
    expect(validationErrors(await api.post(at, { ...ids, partNumbers: [1, 2, 3, 4, 5] }))).toHaveProperty(
      "partNumbers",
    );
    expect(validationErrors(await api.post(at, { ...ids, partNumbers: [0] }))).toHaveProperty([
      "partNumbers.0",
    ]);
    expect(
      validationErrors(await api.post(at, { key: "other", uploadId: "other", partNumbers: [1] })),
    ).toEqual({
      key: ["The selected key is invalid."],
      uploadId: ["The selected upload id is invalid."],
    });
    expect(
      (await api.post(`/files/00000000-0000-4000-8000-000000000000/pre-sign`, { ...ids, partNumbers: [1] }))
        .status,
    ).toBe(404);

    const urls = await presign(api, started, [1, 2]);
    const one = await put(urls[0], bytes(10, 1));
    const two = await put(urls[1], bytes(10, 2));
    const complete = (parts: unknown) => api.post(`/files/${started.fileId}/complete`, { ...ids, parts });
    expect(validationErrors(await complete([{ partNumber: 1, eTag: two.etag }]))).toEqual({
      "parts.0.eTag": ["The eTag does not match part 1 as uploaded."],
    });
    expect(
      validationErrors(
        await complete([
          { partNumber: 2, eTag: two.etag },
          { partNumber: 1, eTag: one.etag },
        ]),
      ),
    ).toHaveProperty(["parts.1.partNumber"]);
    expect(validationErrors(await complete([]))).toHaveProperty("parts");
    // Refusals leave the upload pending: it still completes.
    expect(
      (
        await complete([
          { partNumber: 1, eTag: one.etag },
          { partNumber: 2, eTag: two.etag },
        ])
      ).status,
    ).toBe(200);
  }));

describe("URL lifetime (documents silent: uploadUrlLifetimeSeconds, default 3600 s)", () => {
  test("by default a URL still works a minute later and is refused after an hour", () =>
    withEmulator({}, async (emulator, api) => {
      const started = await initiate(api);
      const [url] = await presign(api, started, [1]);
      emulator.advanceClock(61_000);
      expect((await put(url, bytes(10, 1))).status).toBe(200);
      emulator.advanceClock(3_600_000);
      const late = await put(url, bytes(10, 1));
      expect(late.status).toBe(403);
      expect(late.text).toContain("Request has expired");
    }));

  test("with a 60 s lifetime the same URL is refused a minute later; a fresh pre-sign works", () =>
    withEmulator({ uploadUrlLifetimeSeconds: 60 }, async (emulator, api) => {
      const started = await initiate(api);
      const [url] = await presign(api, started, [1]);
      emulator.advanceClock(61_000);
      expect((await put(url, bytes(10, 1))).status).toBe(403);
      const [fresh] = await presign(api, started, [1]);
      expect((await put(fresh, bytes(10, 1))).status).toBe(200);
    }));

  test("the CLI sets it", () => {
    expect(optionsFromArgs(["--upload-url-lifetime", "90"])).toMatchObject({ uploadUrlLifetimeSeconds: 90 });
  });
});

describe("part sizes (documents silent: s3PartSizes)", () => {
  const parts = [bytes(1 * MiB, 1), bytes(1 * MiB, 2)];

  test("by default parts of any size complete", () =>
    withEmulator({}, async (_emulator, api) => {
      expect((await upload(api, parts)).complete.status).toBe(200);
    }));

  test("with s3PartSizes a part but the last below 5 MiB is refused at complete", () =>
    withEmulator({ strict: { s3PartSizes: true } }, async (_emulator, api) => {
      expect(validationErrors((await upload(api, parts)).complete)).toHaveProperty(["parts.0"]);
      expect((await upload(api, [bytes(5 * MiB, 1), bytes(10, 2)])).complete.status).toBe(200);
    }));

  test("the CLI's --strict-catalog s3-part-sizes turns it on", () => {
    expect(optionsFromArgs(["--strict-catalog", "s3-part-sizes"])).toMatchObject({
      strict: { s3PartSizes: true },
    });
  });
});

describe("conflicts: a file of the same name at the same path", () => {
  /** A first upload of data.bin, attached to a group and tagged. */
  async function existing(api: Client) {
    const first = (await upload(api, [bytes(10, 1)])).complete.body;
    const group = (await api.post("/groups", { name: "Lab", parentId: null })).body.id;
    expect((await api.patch(`/groups/${group}/configure`)).status).toBe(200);
    expect((await api.post(`/groups/${group}/files`, { fileId: first.id })).status).toBe(204);
    expect((await api.patch(`/files/${first.id}/tags/attach`, { tags: ["manuals"] })).status).toBe(204);
    return { first, group };
  }

  const namedDataBin = async (api: Client) =>
    (await api.get("/files", { query: { per_page: 100 } })).body.data.filter(
      (f: Json) => f.filename === "data.bin",
    );

  test("keep-both, and no strategy by default, keep both files", () =>
    withEmulator({}, async (_emulator, api) => {
      await existing(api);
      expect(
        (await upload(api, [bytes(10, 2)], undefined, { conflictStrategy: "keep-both" })).complete.status,
      ).toBe(200);
      expect((await upload(api, [bytes(10, 3)])).complete.status).toBe(200);
      expect(await namedDataBin(api)).toHaveLength(3);
    }));

  test("with requireConflictStrategy no strategy over a conflict is refused, and nothing is made", () =>
    withEmulator({ strict: { requireConflictStrategy: true } }, async (_emulator, api) => {
      await existing(api);
      const { complete } = await upload(api, [bytes(10, 2)]);
      expect(validationErrors(complete)).toHaveProperty("conflictStrategy");
      expect(await namedDataBin(api)).toHaveLength(1);
      // Without a conflict no strategy is needed.
      expect((await upload(api, [bytes(10, 2)], "other.bin")).complete.status).toBe(200);
    }));

  test("replace by default: the new file (the initiated id) takes the old one's place, tags and groups", () =>
    withEmulator({}, async (emulator, api) => {
      const { first, group } = await existing(api);
      const { started, complete } = await upload(api, [bytes(10, 2)], undefined, {
        conflictStrategy: "replace",
      });
      expect(complete.body).toMatchObject({
        id: started.fileId,
        tags: ["manuals"],
        checksum: { value: sha512(bytes(10, 2)) },
      });
      expect((await api.get(`/files/${first.id}`)).status).toBe(404);
      expect(await namedDataBin(api)).toHaveLength(1);
      expect(emulator.snapshot().groups.find((g) => g.id === group)?.fileIds).toEqual([started.fileId]);
    }));

  test("replace with replaceKeepsFileId: the old file keeps its id and takes the new content", () =>
    withEmulator({ strict: { replaceKeepsFileId: true } }, async (emulator, api) => {
      const { first, group } = await existing(api);
      const { started, complete } = await upload(api, [bytes(10, 2)], undefined, {
        conflictStrategy: "replace",
      });
      expect(complete.body).toMatchObject({
        id: first.id,
        tags: ["manuals"],
        checksum: { value: sha512(bytes(10, 2)) },
      });
      expect((await api.get(`/files/${started.fileId}`)).status).toBe(404);
      expect(await namedDataBin(api)).toHaveLength(1);
      expect(emulator.snapshot().groups.find((g) => g.id === group)?.fileIds).toEqual([first.id]);
    }));
});

describe("upload faults (counts: each hits the next occurrence)", () => {
  test("expireUploadUrls: the next URL handed out is already expired; the one after is fine", () =>
    withEmulator({ faults: { expireUploadUrls: 1 } }, async (emulator, api) => {
      const started = await initiate(api);
      const [expired, fine] = await presign(api, started, [1, 2]);
      expect((await put(expired, bytes(10, 1))).status).toBe(403);
      expect((await put(fine, bytes(10, 2))).status).toBe(200);
      expect(emulator.stats().faults.uploadUrlsExpired).toBe(1);
    }));

  test("failUploadParts: the next part PUT is answered 500 and not stored; sent again it is", () =>
    withEmulator({ faults: { failUploadParts: 1 } }, async (emulator, api) => {
      const started = await initiate(api);
      const [url] = await presign(api, started, [1]);
      expect((await put(url, bytes(10, 1))).status).toBe(500);
      const again = await put(url, bytes(10, 1));
      expect(again.status).toBe(200);
      expect(emulator.stats().faults.uploadPartsFailed).toBe(1);
    }));

  test("loseCompleteAnswers: the complete is applied, its answer lost; the file exists once", () =>
    withEmulator({}, async (emulator, api) => {
      const started = await initiate(api);
      const [url] = await presign(api, started, [1]);
      const part = await put(url, bytes(10, 1));
      const control = await call("PUT", `${emulator.url}/_emulator/faults`, {
        token: emulator.adminToken,
        body: { loseCompleteAnswers: 1 },
      });
      expect(control.body.loseCompleteAnswers).toBe(1);
      await expect(
        api.post(`/files/${started.fileId}/complete`, {
          key: started.key,
          uploadId: started.uploadId,
          parts: [{ partNumber: 1, eTag: part.etag }],
        }),
      ).rejects.toThrow();
      expect(emulator.stats().faults.completeAnswersLost).toBe(1);
      expect((await api.get(`/files/${started.fileId}`)).body.checksum.value).toBe(sha512(bytes(10, 1)));
    }));
});

describe("videos: the same protocol, the OpenAPI's rules between the rendering fields", () => {
  const immersive = {
    filename: "tour.mp4",
    videoType: "ThreeSixty",
    videoMapping: "EQUIRECTANGULAR",
    videoDisplay: "Stereoscopic",
    videoPacking: "TOP_BOTTOM",
    audioEncoding: "AMBIX_4",
  };

  test("a video uploaded in parts: the video with its rendering fields, size and SHA-512", () =>
    withEmulator({}, async (emulator, api) => {
      const started = await api.post("/videos", immersive);
      expect(started.status).toBe(200);
      const { videoId, key, uploadId } = started.body;
      expect(videoId).toMatch(UUID);
      expect((await api.get(`/videos/${videoId}`)).status).toBe(404);
      const signed = await api.post(`/videos/${videoId}/pre-sign`, { key, uploadId, partNumbers: [1, 2] });
      const parts = [bytes(3 * MiB, 1), bytes(77, 2)];
      const sent = await Promise.all(signed.body.map((p: Json, i: number) => put(p.presignedUrl, parts[i])));
      const complete = await api.post(`/videos/${videoId}/complete`, {
        key,
        uploadId,
        parts: sent.map((s, i) => ({ partNumber: i + 1, eTag: s.etag })),
      });
      expect(complete.status).toBe(200);
      expect(complete.body).toMatchObject({
        id: videoId,
        name: "tour.mp4",
        filename: "tour.mp4",
        sizeBytes: 3 * MiB + 77,
        checksum: { algorithm: "SHA-512", value: sha512(...parts) },
        details: {
          videoType: "ThreeSixty",
          videoMapping: "EQUIRECTANGULAR",
          videoDisplay: "Stereoscopic",
          videoPacking: "TOP_BOTTOM",
          audioEncoding: "AMBIX_4",
          playtimeSeconds: null,
        },
      });
      expect((await api.get(`/videos/${videoId}`)).body).toEqual(complete.body);
      expect(emulator.storageRequests().filter((r) => r.authorization)).toEqual([]);
      // A file's upload id is not a video's, nor the other way round.
      expect((await api.post(`/files/${videoId}/pre-sign`, { key, uploadId, partNumbers: [1] })).status).toBe(
        404,
      );
    }));

  test("the rendering rules: required for 360/180, prohibited for 2D, packing only for stereoscopic", () =>
    withEmulator({}, async (_emulator, api) => {
      const refused = async (body: Record<string, unknown>) =>
        validationErrors(await api.post("/videos", body));
      expect(
        await refused({ ...immersive, videoMapping: null, videoDisplay: undefined, videoPacking: null }),
      ).toEqual({
        videoMapping: ["The video mapping field is required when video type is ThreeSixty."],
        videoDisplay: ["The video display field is required when video type is ThreeSixty."],
      });
      expect(await refused({ ...immersive, videoType: "TwoDimensional" })).toEqual({
        videoMapping: ["The video mapping field is prohibited when video type is TwoDimensional."],
        videoDisplay: ["The video display field is prohibited when video type is TwoDimensional."],
      });
      expect(await refused({ ...immersive, videoPacking: null })).toEqual({
        videoPacking: ["The video packing field is required when video display is Stereoscopic."],
      });
      expect(await refused({ ...immersive, videoDisplay: "Monoscopic" })).toEqual({
        videoPacking: ["The video packing field is prohibited unless video display is Stereoscopic."],
      });
      expect(await refused({ ...immersive, filename: "tour.mov" })).toHaveProperty("filename");
      expect(await refused({ ...immersive, audioEncoding: undefined })).toHaveProperty("audioEncoding");
      const flat = await api.post("/videos", {
        filename: "flat.webm",
        videoType: "TwoDimensional",
        audioEncoding: "MONO",
      });
      expect(flat.status).toBe(200);
    }));
});

test("an uploaded file is part of --state; a pending upload is not (after a restart its id is unknown)", async () => {
  const folder = mkdtempSync(path.join(tmpdir(), "devicemgmt-upload-state-"));
  const statePath = path.join(folder, "state.json");
  try {
    let made: Json;
    let pending: Started;
    await withEmulator({ statePath }, async (_emulator, api) => {
      made = (await upload(api, [bytes(100, 1)], "kept.bin")).complete.body;
      pending = await initiate(api, "pending.bin");
    });
    await withEmulator({ statePath }, async (_emulator, api) => {
      expect((await api.get(`/files/${made.id}`)).body).toEqual(made);
      const again = { key: pending.key, uploadId: pending.uploadId, partNumbers: [1] };
      expect((await api.post(`/files/${pending.fileId}/pre-sign`, again)).status).toBe(404);
    });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test("storage survives a malformed path: 403, and it still serves the next request", () =>
  withEmulator({}, async (emulator, api) => {
    const response = await request(`${emulator.storageUrl}/devicemgmt-emulator/%E0%A4%A?partNumber=1`, {
      method: "PUT",
      body: "x",
    });
    await response.body.text();
    expect(response.statusCode).toBe(403);
    const started = await initiate(api);
    const [url] = await presign(api, started, [1]);
    expect((await put(url, bytes(10, 1))).status).toBe(200);
  }));
