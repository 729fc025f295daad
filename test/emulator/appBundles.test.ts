/**
 * App bundles through the emulator by hand (issue 31, tag "App Bundles"): a pending bundle of a build, data files
 * uploaded into it (`POST /files` with `appBundleId`) and found again by SHA-512 for the app, the bundle's files
 * and their device paths, auto labels, the label in place, finalize, and what a finalized bundle refuses; the
 * fault failBundleProcessing ends a finalized bundle `failed`.
 */
import { createHash } from "node:crypto";
import { request } from "undici";
import type { RunningEmulator } from "../../emulator";
import { client, listAll, start, validationErrors, type Client, type Json } from "./helpers";

let emulator: RunningEmulator;
let api: Client;
let appId: string;
let versionId: string;

beforeAll(async () => {
  emulator = await start();
  api = client(emulator, emulator.tokens.admin);
  const apps = await listAll(api, "/apps");
  appId = apps.find((a: Json) => a.name === "Training Simulator").id;
  versionId = (await listAll(api, `/apps/${appId}/versions`))[0].id;
});
afterAll(() => emulator.close());

async function newBundle(files?: Json[]): Promise<Json> {
  const response = await api.post("/app-bundles", { appBuildId: versionId, ...(files ? { files } : {}) });
  expect(response.status).toBe(201);
  return response.body;
}

/** Uploads `text` as `filename` in `path` into the bundle; answers the complete's response. */
async function uploadInto(bundleId: string, filename: string, path: string, text: string) {
  const started = await api.post("/files", { filename, path, appBundleId: bundleId });
  expect(started.status).toBe(200);
  const ids = { key: started.body.key, uploadId: started.body.uploadId };
  const signed = await api.post(`/files/${started.body.fileId}/pre-sign`, { ...ids, partNumbers: [1] });
  const sent = await request(signed.body[0].presignedUrl, { method: "PUT", body: text });
  await sent.body.text();
  return api.post(`/files/${started.body.fileId}/complete`, {
    ...ids,
    parts: [{ partNumber: 1, eTag: sent.headers.etag }],
  });
}

const sha512 = (text: string) => createHash("sha512").update(text).digest("hex");

describe("app bundles", () => {
  it("makes a pending bundle of a build; auto labels count the build's bundles (none, Original, Copy 1)", async () => {
    const seeded = (await listAll(api, `/apps/${appId}/app-bundles`)).filter(
      (b: Json) => b.appBuild?.id === versionId,
    );
    const first = await newBundle();
    expect(first).toMatchObject({ status: "pending", appBuild: { id: versionId } });
    const second = await newBundle();
    const labels = ["Original", ...Array.from({ length: 5 }, (_, i) => `Copy ${i + 1}`)];
    // The seeded build has `seeded.length` bundles already: the next labels follow from that count.
    expect(first.label).toBe(seeded.length === 0 ? null : labels[seeded.length - 1]);
    expect(second.label).toBe(labels[seeded.length]);
    const pending = await api.get(`/apps/${appId}/app-bundles`, { query: { status: "pending" } });
    expect(pending.body.data.map((b: Json) => b.id)).toEqual(expect.arrayContaining([first.id, second.id]));
    expect(pending.body.data.every((b: Json) => b.status === "pending")).toBe(true);
  });

  it("takes an .obb uploaded into it; the file is the app's (found by SHA-512), not among the organization's files", async () => {
    const bundle = await newBundle();
    const done = await uploadInto(bundle.id, "main.1.com.acme.obb", "/sdcard/Android/obb/", "obb bytes");
    expect(done.status).toBe(200);
    expect(done.body.checksum).toEqual({ algorithm: "SHA-512", value: sha512("obb bytes") });
    const found = await api.get(`/apps/${appId}/files`, {
      query: { "sha512[]": [sha512("obb bytes"), "0"] },
    });
    expect(found.body.data.map((f: Json) => f.id)).toEqual([done.body.id]);
    expect((await listAll(api, "/files")).some((f: Json) => f.id === done.body.id)).toBe(false);
    const files = await api.get(`/app-bundles/${bundle.id}/files`);
    // The snapshot (what tests read synchronously) shows the bundle and where it puts the file.
    expect(emulator.snapshot().appBundles.find((b) => b.id === bundle.id)).toEqual({
      id: bundle.id,
      appId,
      versionId,
      label: bundle.label,
      status: "pending",
      files: [{ fileId: done.body.id, path: "/sdcard/Android/obb" }],
    });
    expect(files.body.data).toEqual([
      expect.objectContaining({
        id: done.body.id,
        name: "main.1.com.acme.obb",
        bundlePaths: ["/sdcard/Android/obb/main.1.com.acme.obb"],
      }),
    ]);
    // The same file in another bundle at another folder: reused, not uploaded again.
    const other = await newBundle([{ fileId: done.body.id, path: "/sdcard/data" }]);
    const reused = await api.get(`/app-bundles/${other.id}/files`);
    expect(reused.body.data[0].bundlePaths).toEqual(["/sdcard/data/main.1.com.acme.obb"]);
    // An .obb without a bundle stays refused; a file id that is not the app's is refused by the bundle.
    expect(validationErrors(await api.post("/files", { filename: "x.obb", path: "/sdcard" }))).toHaveProperty(
      "filename",
    );
    const orgFile = (await listAll(api, "/files"))[0].id;
    expect(
      validationErrors(await api.post(`/app-bundles/${other.id}/files`, { files: [{ fileId: orgFile }] })),
    ).toHaveProperty(["files.0.fileId"]);
  });

  it("finalize answers processing, then the bundle is available and takes no more files", async () => {
    const bundle = await newBundle();
    const uploaded = await uploadInto(bundle.id, "config.json", "/sdcard/app", "{}");
    const finalized = await api.post(`/app-bundles/${bundle.id}/finalize`);
    expect(finalized.status).toBe(200);
    expect(finalized.body.status).toBe("processing");
    expect((await api.get(`/app-bundles/${bundle.id}`)).body.status).toBe("available");
    expect(validationErrors(await api.post(`/app-bundles/${bundle.id}/finalize`))).toHaveProperty("status");
    expect(
      validationErrors(
        await api.post(`/app-bundles/${bundle.id}/files`, { files: [{ fileId: uploaded.body.id }] }),
      ),
    ).toHaveProperty("files");
    expect(
      validationErrors(
        await api.post("/files", { filename: "more.json", path: "/sdcard", appBundleId: bundle.id }),
      ),
    ).toHaveProperty("appBundleId");
  });

  it("fault failBundleProcessing: the next finalized bundle ends failed, listed as such; the one after is available", async () => {
    emulator.setFaults({ failBundleProcessing: 1 });
    const failed = await newBundle();
    const fine = await newBundle();
    expect((await api.post(`/app-bundles/${failed.id}/finalize`)).body.status).toBe("processing");
    expect((await api.post(`/app-bundles/${fine.id}/finalize`)).body.status).toBe("processing");
    expect((await api.get(`/app-bundles/${failed.id}`)).body.status).toBe("failed");
    expect((await api.get(`/app-bundles/${fine.id}`)).body.status).toBe("available");
    const listed = await api.get(`/apps/${appId}/app-bundles`, { query: { status: "failed" } });
    expect(listed.body.data.map((b: Json) => b.id)).toEqual([failed.id]);
    expect(emulator.stats().faults.bundleProcessingFailed).toBe(1);
  });

  it("refuses to finalize while one of its files is still uploading", async () => {
    const bundle = await newBundle();
    const started = await api.post("/files", {
      filename: "late.bin",
      path: "/sdcard",
      appBundleId: bundle.id,
    });
    expect(started.status).toBe(200);
    expect(validationErrors(await api.post(`/app-bundles/${bundle.id}/finalize`))).toHaveProperty("files");
    expect((await api.get(`/app-bundles/${bundle.id}`)).body.status).toBe("pending");
  });

  it('sets and removes the label in place (1..60 characters; "" or null removes it)', async () => {
    const bundle = await newBundle();
    const set = await api.patch(`/app-bundles/${bundle.id}`, { label: "  Field test  " });
    expect(set.body).toMatchObject({ id: bundle.id, label: "Field test" });
    expect((await api.get(`/app-bundles/${bundle.id}`)).body.label).toBe("Field test");
    expect((await api.patch(`/app-bundles/${bundle.id}`, { label: "" })).body.label).toBeNull();
    expect(validationErrors(await api.patch(`/app-bundles/${bundle.id}`, {}))).toHaveProperty("label");
    expect(
      validationErrors(await api.patch(`/app-bundles/${bundle.id}`, { label: "x".repeat(61) })),
    ).toHaveProperty("label");
    const reader = client(emulator, emulator.tokens.readOnly);
    expect((await reader.patch(`/app-bundles/${bundle.id}`, { label: "no" })).status).toBe(403);
    expect((await api.get(`/app-bundles/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
  });
});

test("uploadsLeaveBundle: an upload with appBundleId makes the app's file only; POST …/files adds it", async () => {
  const strict = await start({ strict: { uploadsLeaveBundle: true } });
  const saved = { api, emulator };
  try {
    emulator = strict;
    api = client(strict, strict.tokens.admin);
    const bundle = await newBundle();
    const done = await uploadInto(bundle.id, "left.bin", "/sdcard/l", "left out");
    expect(done.status).toBe(200);
    expect((await api.get(`/app-bundles/${bundle.id}/files`)).body.data).toEqual([]);
    const found = await api.get(`/apps/${appId}/files`, { query: { "sha512[]": sha512("left out") } });
    expect(found.body.data.map((f: Json) => f.id)).toEqual([done.body.id]);
    expect(
      (await api.post(`/app-bundles/${bundle.id}/files`, { files: [{ fileId: done.body.id }] })).status,
    ).toBe(201);
    const files = await api.get(`/app-bundles/${bundle.id}/files`);
    expect(files.body.data.map((f: Json) => f.bundlePaths)).toEqual([["/sdcard/l/left.bin"]]);
  } finally {
    ({ api, emulator } = saved);
    await strict.close();
  }
});

test("slowBundleProcessing: a finalized bundle reads processing for a minute of the emulator clock, then available", async () => {
  const slow = await start({ strict: { slowBundleProcessing: true } });
  try {
    const admin = client(slow, slow.tokens.admin);
    const made = await admin.post("/app-bundles", { appBuildId: versionId });
    expect((await admin.post(`/app-bundles/${made.body.id}/finalize`)).body.status).toBe("processing");
    expect((await admin.get(`/app-bundles/${made.body.id}`)).body.status).toBe("processing");
    const processing = await admin.get(`/apps/${appId}/app-bundles`, { query: { status: "processing" } });
    expect(processing.body.data.map((b: Json) => b.id)).toEqual([made.body.id]);
    slow.advanceClock(60_000);
    expect((await admin.get(`/app-bundles/${made.body.id}`)).body.status).toBe("available");
  } finally {
    await slow.close();
  }
});
