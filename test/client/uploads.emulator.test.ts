/**
 * `client.uploadFile` against the emulator over HTTP (issue 31, items 3 and 5): a multi-part file ends up in
 * the organization with the checksum of its bytes (read back through the API), the token never reaches the
 * storage endpoint and storage traffic spends no API budget, and each upload fault is survived the way it
 * should be: an expired URL is pre-signed again, a failed part is retried alone, a lost complete answer leaves
 * one file. Under both readings of `replace` the client answers the file that holds the content.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { type RunningEmulator, startEmulator } from "../../emulator";
import {
  AmbiguousWriteError,
  closeDispatchers,
  DeviceMgmtClient,
  type DeviceFile,
  SourceChangedError,
  type UploadProgress,
} from "../../provider/client";

const MiB = 1024 * 1024;

let folder: string;
let emulator: RunningEmulator;

beforeAll(async () => {
  folder = mkdtempSync(path.join(tmpdir(), "devicemgmt-upload-"));
  emulator = await startEmulator({ quiet: true });
});

afterAll(async () => {
  await closeDispatchers();
  await emulator.close();
  rmSync(folder, { recursive: true, force: true });
});

afterEach(() =>
  emulator.setFaults({
    expireUploadUrls: 0,
    failUploadParts: 0,
    loseInitiateAnswers: 0,
    loseCompleteAnswers: 0,
  }),
);

function client(on = emulator) {
  return new DeviceMgmtClient({
    baseUrl: on.baseUrl,
    apiToken: on.tokens.admin,
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
    sleep: async () => undefined,
  });
}

/** A file of `size` bytes that differ along it, and its SHA-512. */
function localFile(name: string, size: number, seed = 1): { source: string; sha512: string } {
  const bytes = Buffer.allocUnsafe(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 131 + seed * 17 + (i >> 12)) & 0xff;
  const source = path.join(folder, name);
  writeFileSync(source, bytes);
  return { source, sha512: createHash("sha512").update(bytes).digest("hex") };
}

/** The files of the organization named `filename`, read back through the API. */
async function filesNamed(filename: string): Promise<DeviceFile[]> {
  return (await client().files.all()).filter((f) => f.filename === filename);
}

const partPuts = (since: number) =>
  emulator
    .storageRequests()
    .slice(since)
    .filter((r) => r.method === "PUT");

test("a 12 MiB file goes up in three parts; the organization holds it with the SHA-512 of its bytes", async () => {
  const { source, sha512 } = localFile("twelve.bin", 12 * MiB);
  const before = emulator.storageRequests().length;
  emulator.resetStats();
  const progress: UploadProgress[] = [];
  const result = await client().uploadFile({
    source,
    filename: "twelve.bin",
    path: "/sdcard/Content",
    onProgress: (p) => progress.push(p),
  });
  expect(result).toMatchObject({ checksum: sha512, sizeBytes: 12 * MiB, parts: 3, presignCalls: 1 });

  const [held] = await filesNamed("twelve.bin");
  expect(held).toMatchObject({
    id: result.made.id,
    location: "/sdcard/Content",
    sizeBytes: 12 * MiB,
    checksum: { algorithm: "SHA-512", value: sha512 },
  });
  const puts = partPuts(before);
  expect(puts.map((r) => r.partNumber).sort()).toEqual([1, 2, 3]);
  expect(puts.every((r) => r.status === 200)).toBe(true);
  // The token never went to storage.
  expect(puts.filter((r) => r.authorization)).toEqual([]);
  // Storage traffic is not API traffic: initiate, one pre-sign, complete (plus the token check).
  const byRoute = emulator.stats().byRoute;
  expect(byRoute["POST /files"]).toBe(1);
  expect(byRoute["POST /files/{fileId}/pre-sign"]).toBe(1);
  expect(byRoute["POST /files/{fileId}/complete"]).toBe(1);
  expect(progress.at(-1)).toEqual({ sentBytes: 12 * MiB, totalBytes: 12 * MiB, partsSent: 3, parts: 3 });
});

test("parts are pre-signed at most 4 per call: 6 parts take two calls", async () => {
  const { source, sha512 } = localFile("six.bin", 26 * MiB);
  emulator.resetStats();
  const result = await client().uploadFile({ source, filename: "six.bin", path: "/sdcard", concurrency: 2 });
  expect(result).toMatchObject({ parts: 6, presignCalls: 2, checksum: sha512 });
  expect(emulator.stats().byRoute["POST /files/{fileId}/pre-sign"]).toBe(2);
});

test("an expired URL is pre-signed again and its part sent again; the file is whole", async () => {
  const { source, sha512 } = localFile("expired.bin", 11 * MiB, 2);
  const before = emulator.storageRequests().length;
  emulator.resetStats();
  emulator.setFaults({ expireUploadUrls: 1 }); // the first URL handed out (part 1) is already expired
  const result = await client().uploadFile({ source, filename: "expired.bin", path: "/sdcard" });
  expect(result.presignCalls).toBe(2);
  expect(emulator.stats().faults.uploadUrlsExpired).toBe(1);
  const puts = partPuts(before).map((r) => [r.partNumber, r.status]);
  expect(puts.filter(([n]) => n === 1)).toEqual([
    [1, 403],
    [1, 200],
  ]);
  expect((await filesNamed("expired.bin")).map((f) => f.checksum.value)).toEqual([sha512]);
});

test("URLs that expired together are renewed together: one pre-sign call, not one per part", async () => {
  const { source, sha512 } = localFile("expired-batch.bin", 18 * MiB, 9);
  emulator.resetStats();
  emulator.setFaults({ expireUploadUrls: 4 }); // the whole first answer (parts 1-4) is expired
  const result = await client().uploadFile({
    source,
    filename: "expired-batch.bin",
    path: "/sdcard",
    concurrency: 1,
  });
  expect(result).toMatchObject({ parts: 4, presignCalls: 2, checksum: sha512 });
  expect(emulator.stats().faults.uploadUrlsExpired).toBe(4);
  expect((await filesNamed("expired-batch.bin")).map((f) => f.checksum.value)).toEqual([sha512]);
});

test("under s3PartSizes (S3's minimum part size) the client's parts complete", async () => {
  const strict = await startEmulator({ quiet: true, strict: { s3PartSizes: true } });
  try {
    const { source, sha512 } = localFile("strict.bin", 11 * MiB, 10);
    const result = await client(strict).uploadFile({ source, filename: "strict.bin", path: "/sdcard" });
    expect(result).toMatchObject({ parts: 3, checksum: sha512 });
    const held = (await client(strict).files.all()).filter((f) => f.filename === "strict.bin");
    expect(held.map((f) => [f.sizeBytes, f.checksum.value])).toEqual([[11 * MiB, sha512]]);
  } finally {
    await strict.close();
  }
});

test("a part that fails is retried alone; the others are sent once", async () => {
  const { source, sha512 } = localFile("flaky.bin", 12 * MiB, 3);
  const before = emulator.storageRequests().length;
  emulator.setFaults({ failUploadParts: 1 });
  const result = await client().uploadFile({
    source,
    filename: "flaky.bin",
    path: "/sdcard",
    concurrency: 1,
  });
  expect(result.checksum).toBe(sha512);
  expect(partPuts(before).map((r) => [r.partNumber, r.status])).toEqual([
    [1, 500],
    [1, 200],
    [2, 200],
    [3, 200],
  ]);
  expect(result.presignCalls).toBe(1);
  expect((await filesNamed("flaky.bin")).map((f) => f.checksum.value)).toEqual([sha512]);
});

test("a complete whose answer is lost is resolved without a second file", async () => {
  const { source, sha512 } = localFile("lost.bin", 6 * MiB, 4);
  emulator.resetStats();
  emulator.setFaults({ loseCompleteAnswers: 1 });
  const result = await client().uploadFile({ source, filename: "lost.bin", path: "/sdcard" });
  expect(emulator.stats().faults.completeAnswersLost).toBe(1);
  // Sent twice: the second finds the upload gone (404), so the file the first made is looked up.
  expect(emulator.stats().byRoute["POST /files/{fileId}/complete"]).toBe(2);
  const held = await filesNamed("lost.bin");
  expect(held.map((f) => [f.id, f.checksum.value])).toEqual([[result.made.id, sha512]]);
});

test("an initiate whose answer is lost is sent again: one file, the first session left open and unused", async () => {
  const { source, sha512 } = localFile("initiated.bin", 1 * MiB, 7);
  emulator.resetStats();
  emulator.setFaults({ loseInitiateAnswers: 1 });
  const result = await client().uploadFile({ source, filename: "initiated.bin", path: "/sdcard" });
  expect(emulator.stats().faults.initiateAnswersLost).toBe(1);
  expect(emulator.stats().byRoute["POST /files"]).toBe(2);
  const held = await filesNamed("initiated.bin");
  expect(held.map((f) => [f.id, f.checksum.value])).toEqual([[result.made.id, sha512]]);
});

test("a file uploaded into a bundle is not initiated again: an open upload keeps the bundle from being finalized", async () => {
  const { source } = localFile("bundled.obb", 1 * MiB, 8);
  const admin = client();
  const app = (await admin.apps.all()).find((a) => a.name === "Training Simulator")!;
  const build = (await admin.releases.versions(app.id).all()).find((v) => v.status === "available")!;
  const bundle = await admin.appBundles.create({ appBuildId: build.id, files: [] });
  emulator.resetStats();
  emulator.setFaults({ loseInitiateAnswers: 1 });
  const refused = await admin
    .uploadBundleFile({
      appId: app.id,
      appBundleId: bundle.id,
      source,
      filename: "bundled.obb",
      path: "/sdcard/Android/obb/x",
    })
    .catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(AmbiguousWriteError);
  expect(emulator.stats().byRoute["POST /files"]).toBe(1);
});

test("a file that is not what the caller hashed earlier is refused before the complete: nothing is made", async () => {
  const { source } = localFile("changed.bin", 1 * MiB, 5);
  const earlier = localFile("changed-earlier.bin", 1 * MiB, 6).sha512;
  const refused = await client()
    .uploadFile({ source, filename: "changed.bin", path: "/sdcard", expectedChecksum: earlier })
    .then(
      () => undefined,
      (error: unknown) => error,
    );
  expect(refused).toBeInstanceOf(SourceChangedError);
  expect(refused).toMatchObject({ source, expected: earlier, property: "source" });
  expect(await filesNamed("changed.bin")).toEqual([]);
});

describe("replace (documents silent: replaceKeepsFileId), both readings", () => {
  async function replaceUnder(replaceKeepsFileId: boolean) {
    const own = await startEmulator({ quiet: true, strict: { replaceKeepsFileId } });
    try {
      const api = client(own);
      const first = localFile("replaced-1.bin", 1 * MiB, 7);
      const second = localFile("replaced-2.bin", 1 * MiB, 8);
      const one = await api.uploadFile({ source: first.source, filename: "doc.bin", path: "/sdcard" });
      const two = await api.uploadFile({
        source: second.source,
        filename: "doc.bin",
        path: "/sdcard",
        conflictStrategy: "replace",
      });
      const held = (await api.files.all()).filter((f) => f.filename === "doc.bin");
      expect(held.map((f) => [f.id, f.checksum.value])).toEqual([[two.made.id, second.sha512]]);
      return { one: one.made.id, two: two.made.id };
    } finally {
      await own.close();
    }
  }

  test("by default the new file takes the old one's place (a new id)", async () => {
    const { one, two } = await replaceUnder(false);
    expect(two).not.toBe(one);
  });

  test("with replaceKeepsFileId the old file keeps its id and holds the new content", async () => {
    const { one, two } = await replaceUnder(true);
    expect(two).toBe(one);
  });
});

test("a lost initiate answer is survived the same way by videos, images, 3D environments and app builds", async () => {
  const admin = client();
  const app = (await admin.apps.all()).find((a) => a.name === "Training Simulator")!;
  const kinds = {
    video: async (source: string) =>
      (
        await admin.uploadVideo({
          source,
          filename: "again.mp4",
          videoType: "TwoDimensional",
          audioEncoding: "STEREO",
        })
      ).made.id,
    image: async (source: string) => (await admin.uploadImage({ source, filename: "again.png" })).made.id,
    environment: async (source: string) =>
      (await admin.uploadCustom3DEnvironment({ source, filename: "again.glb" })).made.id,
    build: async (source: string) =>
      (await admin.uploadAppVersion({ appId: app.id, source, filename: "again.apk", versionName: "9.9.9" }))
        .made.id,
  };
  const routes = {
    video: "POST /videos",
    image: "POST /images",
    environment: "POST /custom-3d-environments",
    build: "POST /apps/{appId}/versions",
  };
  for (const [kind, upload] of Object.entries(kinds) as [
    keyof typeof kinds,
    (s: string) => Promise<string>,
  ][]) {
    const { source } = localFile(`again-${kind}.bin`, 64 * 1024, kind.length);
    emulator.resetStats();
    emulator.setFaults({ loseInitiateAnswers: 1 });
    const id = await upload(source);
    expect([
      kind,
      emulator.stats().faults.initiateAnswersLost,
      emulator.stats().byRoute[routes[kind]],
    ]).toEqual([kind, 1, 2]);
    expect(id).toEqual(expect.any(String));
  }
  const snapshot = emulator.snapshot();
  expect(snapshot.videos.filter((v) => v.filename === "again.mp4")).toHaveLength(1);
  expect(snapshot.images.filter((i) => i.originalFileName === "again.png")).toHaveLength(1);
  expect((await admin.releases.versions(app.id).all()).filter((v) => v.version === "9.9.9")).toHaveLength(1);
});

describe("videos: uploadVideo on the same machinery", () => {
  test("a 360 video goes up in parts with its rendering fields; the organization holds it once", async () => {
    const { source, sha512 } = localFile("tour.mp4", 11 * MiB, 11);
    const before = emulator.storageRequests().length;
    const result = await client().uploadVideo({
      source,
      filename: "tour.mp4",
      videoType: "ThreeSixty",
      videoMapping: "EQUIRECTANGULAR",
      videoDisplay: "Monoscopic",
      audioEncoding: "STEREO",
    });
    expect(result).toMatchObject({ parts: 3, checksum: sha512, sizeBytes: 11 * MiB });
    const held = (await client().videos.all()).filter((v) => v.filename === "tour.mp4");
    expect(held.map((v) => [v.id, v.sizeBytes, v.checksum])).toEqual([
      [result.made.id, 11 * MiB, { algorithm: "SHA-512", value: sha512 }],
    ]);
    expect(partPuts(before).filter((r) => r.authorization)).toEqual([]);
  });

  test("a lost complete answer leaves one video", async () => {
    const { source, sha512 } = localFile("drill.webm", 1 * MiB, 12);
    emulator.setFaults({ loseCompleteAnswers: 1 });
    const result = await client().uploadVideo({
      source,
      filename: "drill.webm",
      videoType: "TwoDimensional",
      audioEncoding: "MONO",
    });
    const held = (await client().videos.all()).filter((v) => v.filename === "drill.webm");
    expect(held.map((v) => [v.id, v.checksum.value])).toEqual([[result.made.id, sha512]]);
  });
});
