/**
 * `client.uploadAppVersion` against the emulator over HTTP (issue 31): a multi-part .apk becomes a build of the
 * app with the SHA-256 of its bytes, answered once the API has processed it (`available`), under both readings of
 * the pre-sign answer's field; a build whose processing ends in `error` fails with AppBuildFailedError and the
 * API's reason where it gives one; and the upload faults every kind inherits from the shared uploader (an expired
 * URL, a failed part, a lost complete) leave exactly one build.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { type EmulatorOptions, type RunningEmulator, startEmulator } from "../../emulator";
import { AppBuildFailedError, closeDispatchers, DeviceMgmtClient } from "../../provider/client";

const MiB = 1024 * 1024;
let folder: string;

beforeAll(() => {
  folder = mkdtempSync(path.join(tmpdir(), "devicemgmt-build-"));
});
afterAll(async () => {
  await closeDispatchers();
  rmSync(folder, { recursive: true, force: true });
});

async function withEmulator(
  options: EmulatorOptions,
  run: (emulator: RunningEmulator, api: DeviceMgmtClient, appId: string) => Promise<void>,
) {
  const emulator = await startEmulator({ quiet: true, ...options });
  try {
    const api = new DeviceMgmtClient({
      baseUrl: emulator.baseUrl,
      apiToken: emulator.tokens.admin,
      retry: { baseDelayMs: 5, maxDelayMs: 20 },
    });
    const app = (await api.apps.all()).find((a) => a.name === "Training Simulator");
    await run(emulator, api, app!.id);
  } finally {
    await emulator.close();
  }
}

/** An .apk of `size` bytes that differ along it, and its SHA-256. */
function apk(name: string, size: number, seed = 1): { source: string; sha256: string } {
  const bytes = Buffer.allocUnsafe(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 131 + seed * 17 + (i >> 12)) & 0xff;
  const source = path.join(folder, name);
  writeFileSync(source, bytes);
  return { source, sha256: createHash("sha256").update(bytes).digest("hex") };
}

const buildsOf = async (api: DeviceMgmtClient, appId: string, sha256: string) =>
  api.releases.versions(appId, [sha256]).all();

describe.each([
  ["presignedUrl (default)", {}],
  ["url (presignAnswersUrl)", { strict: { presignAnswersUrl: true } }],
])("pre-sign answering %s", (_reading, options: EmulatorOptions) => {
  test("a multi-part .apk becomes an available build with the SHA-256 of its bytes", () =>
    withEmulator(options, async (_emulator, api, appId) => {
      const { source, sha256 } = apk("sim.apk", 11 * MiB);
      const statuses: string[] = [];
      const result = await api.uploadAppVersion({
        appId,
        source,
        filename: "sim.apk",
        versionName: "2.5.0",
        releaseNotes: "Faster loading.",
        expectedChecksum: sha256,
        onStatus: (s) => statuses.push(s),
      });
      expect(result.parts).toBe(3);
      expect(result.made).toMatchObject({ version: "2.5.0", status: "available", sizeBytes: 11 * MiB });
      expect(statuses[0]).toBe("uploaded");
      expect(statuses.at(-1)).toBe("available");
      const listed = await buildsOf(api, appId, sha256);
      expect(listed.map((b) => [b.id, b.status, b.checksum?.value])).toEqual([
        [result.made.id, "available", sha256],
      ]);
    }));
});

describe.each([
  ["without a reason (default: the OpenAPI has no field for one)", {}, null],
  [
    "with the API's reason (buildStatusReasons)",
    { strict: { buildStatusReasons: true } },
    "The APK signature could not be verified: the package is not signed.",
  ],
])("a build whose processing ends in error, %s", (_reading, options: EmulatorOptions, reason) => {
  test("fails with AppBuildFailedError naming the build and the reason", () =>
    withEmulator({ ...options, faults: { failAppBuilds: 1 } }, async (_emulator, api, appId) => {
      const { source, sha256 } = apk("unsigned.apk", 1000, 2);
      const failed = await api
        .uploadAppVersion({ appId, source, filename: "unsigned.apk", versionName: "0.0.1" })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(failed).toBeInstanceOf(AppBuildFailedError);
      const [build] = await buildsOf(api, appId, sha256);
      expect(failed).toMatchObject({ appId, versionId: build.id, reason, property: "source" });
      expect((failed as Error).message).toContain(reason ?? "the API gives no reason");
      expect(build.status).toBe("error");
    }));
});

test("an expired URL, a failed part and a lost complete answer still leave one available build", () =>
  withEmulator(
    { faults: { expireUploadUrls: 1, failUploadParts: 1, loseCompleteAnswers: 1 } },
    async (emulator, api, appId) => {
      const { source, sha256 } = apk("faults.apk", 6 * MiB, 3);
      const result = await api.uploadAppVersion({
        appId,
        source,
        filename: "faults.apk",
        versionName: "2.6.0",
      });
      const stats = emulator.stats().faults;
      expect([stats.uploadUrlsExpired, stats.uploadPartsFailed, stats.completeAnswersLost]).toEqual([
        1, 1, 1,
      ]);
      expect(result.made).toMatchObject({ status: "available", checksum: { value: sha256 } });
      expect((await buildsOf(api, appId, sha256)).map((b) => b.id)).toEqual([result.made.id]);
    },
  ));
