/**
 * Uploading an app build through the emulator by hand (issue 31): initiate, pre-sign, PUT the parts to storage,
 * complete with `versionName` and `releaseNotes`; the build's SHA-256 from the bytes received, its processing
 * through the OpenAPI's statuses on the emulator clock to `available` (or `error` under the `failAppBuilds`
 * fault), the `sha256[]` filter, the rules of each step, and the switches for what the documents leave open
 * (the pre-sign answer's field, a failed build's reason), each tested both ways.
 */
import { createHash } from "node:crypto";
import { request } from "undici";
import type { RunningEmulator } from "../../emulator";
import { BUILD_PROCESSING_MS } from "../../emulator/routes/appVersionUploads";
import { client, listAll, start, UUID, type Client, type Json } from "./helpers";

async function withApp(
  options: NonNullable<Parameters<typeof start>[0]>,
  run: (emulator: RunningEmulator, api: Client, app: Json) => Promise<void>,
): Promise<void> {
  const emulator = await start(options);
  try {
    const api = client(emulator, emulator.tokens.admin);
    const app = (await listAll(api, "/apps")).find((a: Json) => a.name === "Training Simulator");
    await run(emulator, api, app);
  } finally {
    await emulator.close();
  }
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

async function put(url: string, body: Buffer) {
  const response = await request(url, { method: "PUT", body });
  await response.body.text();
  return { status: response.statusCode, etag: response.headers.etag as string };
}

/** Initiate, one part, complete; answers what initiate and complete answered. */
async function upload(api: Client, app: Json, bytes: Buffer, extra: Record<string, unknown> = {}) {
  const started = (await api.post(`/apps/${app.id}/versions`, { filename: "sim.apk" })).body;
  const signed = await api.post(`/apps/${app.id}/versions/${started.versionId}/pre-sign`, {
    key: started.key,
    uploadId: started.uploadId,
    partNumbers: [1],
  });
  expect(signed.status).toBe(200);
  const sent = await put(signed.body[0].presignedUrl ?? signed.body[0].url, bytes);
  expect(sent.status).toBe(200);
  const complete = await api.post(`/apps/${app.id}/versions/${started.versionId}/complete`, {
    key: started.key,
    uploadId: started.uploadId,
    parts: [{ partNumber: 1, eTag: sent.etag }],
    ...extra,
  });
  return { started, signed, complete };
}

const listed = async (api: Client, app: Json, id: string) =>
  (await listAll(api, `/apps/${app.id}/versions`)).find((v: Json) => v.id === id);

test("a build: uploaded, SHA-256 of the bytes, processed on the clock to available, found by its hash", () =>
  withApp({}, async (emulator, api, app) => {
    const before = await listAll(api, `/apps/${app.id}/versions`);
    const bytes = Buffer.from("an apk's bytes");
    const started = (await api.post(`/apps/${app.id}/versions`, { filename: "sim.apk" })).body;
    expect(started.versionId).toMatch(UUID);
    expect(started.key).toContain("/app-versions/");
    // Being uploaded is no build yet (the emulator's reading).
    expect(await listed(api, app, started.versionId)).toBeUndefined();

    const { complete } = await upload(api, app, bytes, { versionName: "2.5.0", releaseNotes: "Faster." });
    expect(complete.status).toBe(200);
    expect(complete.body).toMatchObject({
      version: "2.5.0",
      code: Math.max(...before.map((v: Json) => v.code)) + 1,
      sizeBytes: bytes.length,
      checksum: { algorithm: "SHA-256", value: sha256(bytes) },
      status: "uploaded",
    });
    expect(complete.body).not.toHaveProperty("statusReason");
    const id = complete.body.id;
    // Listed newest first, still being processed; then available once the clock has passed its steps.
    expect((await listAll(api, `/apps/${app.id}/versions`))[0].id).toBe(id);
    expect((await listed(api, app, id)).status).not.toMatch(/^(pending|available|error)$/);
    emulator.advanceClock(BUILD_PROCESSING_MS);
    expect((await listed(api, app, id)).status).toBe("available");

    const byHash = await api.get(`/apps/${app.id}/versions`, { query: { "sha256[]": sha256(bytes) } });
    expect(byHash.body.data.map((v: Json) => v.id)).toEqual([id]);
    const other = await api.get(`/apps/${app.id}/versions`, {
      query: { "sha256[]": sha256(Buffer.from("x")) },
    });
    expect(other.body.data).toEqual([]);
    // Audited as a build of the app.
    const audit = (await api.get("/audit-logs")).body.data.find((r: Json) => r.resourceId === id);
    expect(audit).toMatchObject({ action: "create-app-version", type: "created" });
  }));

test("the build's version is named after the file without versionName; the upload id is single-use", () =>
  withApp({}, async (_emulator, api, app) => {
    const { started, complete } = await upload(api, app, Buffer.from("unnamed"));
    expect(complete.body.version).toBe("sim");
    const again = await api.post(`/apps/${app.id}/versions/${started.versionId}/complete`, {
      key: started.key,
      uploadId: started.uploadId,
      parts: [{ partNumber: 1, eTag: '"x"' }],
    });
    expect(again.status).toBe(404);
  }));

test("rules: an .apk only, an app of the organization, RELEASE_CHANNEL__MANAGE, a pending upload of that app", () =>
  withApp({}, async (emulator, api, app) => {
    const obb = await api.post(`/apps/${app.id}/versions`, { filename: "main.1.obb" });
    expect(obb.status).toBe(422);
    expect(obb.body.errors.filename).toEqual(["The filename must end with .apk."]);
    const missing = "00000000-0000-4000-8000-000000000000";
    expect((await api.post(`/apps/${missing}/versions`, { filename: "a.apk" })).status).toBe(404);
    const reader = client(emulator, emulator.tokens.readOnly);
    expect((await reader.post(`/apps/${app.id}/versions`, { filename: "a.apk" })).status).toBe(403);
    // A pending upload named under another app is not found.
    const started = (await api.post(`/apps/${app.id}/versions`, { filename: "a.apk" })).body;
    const otherApp = (await listAll(api, "/apps")).find((a: Json) => a.id !== app.id);
    const wrong = await api.post(`/apps/${otherApp.id}/versions/${started.versionId}/pre-sign`, {
      key: started.key,
      uploadId: started.uploadId,
      partNumbers: [1],
    });
    expect(wrong.status).toBe(404);
  }));

test.each([
  ["presignedUrl (the OpenAPI's example, default)", {}, "presignedUrl"],
  ["url (the OpenAPI's schema, presignAnswersUrl)", { strict: { presignAnswersUrl: true } }, "url"],
])("the pre-sign answer names each part's URL %s", (_reading, options, field) =>
  withApp(options, async (_emulator, api, app) => {
    const { signed, complete } = await upload(api, app, Buffer.from(`bytes for ${field}`));
    expect(Object.keys(signed.body[0]).sort()).toEqual(["partNumber", field].sort());
    expect(complete.status).toBe(200);
  }),
);

test.each([
  ["with its status alone (default)", {}, undefined],
  [
    "with statusReason (buildStatusReasons)",
    { strict: { buildStatusReasons: true } },
    "The APK signature could not be verified: the package is not signed.",
  ],
])("fault failAppBuilds: the build ends in error, listed %s", (_reading, options, reason) =>
  withApp({ ...options, faults: { failAppBuilds: 1 } }, async (emulator, api, app) => {
    const { complete } = await upload(api, app, Buffer.from("unsigned"), { versionName: "9.9.9" });
    expect(complete.body.status).toBe("uploaded");
    emulator.advanceClock(2 * BUILD_PROCESSING_MS);
    const build = await listed(api, app, complete.body.id);
    expect(build.status).toBe("error");
    expect(build.statusReason).toBe(reason);
    expect(emulator.stats().faults.appBuildsFailed).toBe(1);
    // The fault took one build: the next is processed to available.
    const next = await upload(api, app, Buffer.from("signed"), { versionName: "9.9.10" });
    emulator.advanceClock(2 * BUILD_PROCESSING_MS);
    expect((await listed(api, app, next.complete.body.id)).status).toBe("available");
  }),
);

test("a release channel takes an uploaded build once it is available, not while it is processed", () =>
  withApp({ rollouts: { durationMs: 3_600_000 } }, async (emulator, api, app) => {
    const channel = (await api.get(`/apps/${app.id}/release-channels`)).body.data[0];
    const { complete } = await upload(api, app, Buffer.from("promoted"), { versionName: "3.0.0" });
    const path = `/apps/${app.id}/release-channels/${channel.id}`;
    const early = await api.put(path, { versionId: complete.body.id });
    expect(early.status).toBe(422);
    expect(early.body.errors.versionId).toEqual(["The selected version is not available yet."]);
    emulator.advanceClock(BUILD_PROCESSING_MS);
    const promoted = await api.put(path, { versionId: complete.body.id });
    expect(promoted.status).toBe(200);
    expect(promoted.body.version).toMatchObject({ id: complete.body.id, version: "3.0.0" });
  }));

test("an uploaded build answers the downloadUrl of its schema: a signed GET of its bytes, no token; a seeded build null", () =>
  withApp({}, async (emulator, api, app) => {
    const bytes = Buffer.from("a build to download again");
    const { complete } = await upload(api, app, bytes, { versionName: "2.6.0" });
    expect(complete.body.downloadUrl).toMatch(new RegExp(`^${emulator.storageUrl}/`));
    emulator.advanceClock(BUILD_PROCESSING_MS);
    const build = await listed(api, app, complete.body.id);
    expect(build.status).toBe("available");
    const response = await request(build.downloadUrl, { method: "GET" });
    const body = Buffer.from(await response.body.arrayBuffer());
    expect(response.statusCode).toBe(200);
    expect(sha256(body)).toBe(build.checksum.value);
    // A seeded build has no bytes on this emulator.
    const seeded = (await listAll(api, `/apps/${app.id}/versions`)).find((v: Json) => v.version === "2.4.1");
    expect(seeded.downloadUrl).toBeNull();
  }));
