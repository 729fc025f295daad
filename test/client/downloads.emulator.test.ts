/**
 * `client.download` against the emulator over HTTP (issue 31, item 6): under the `fileDownloadUrls` switch a file
 * answers a signed `downloadUrl` on the storage endpoint, the client streams it to disk without the token and
 * verifies the SHA-512 the API answers; a URL past its lifetime is read again; bytes that are not the content
 * the API describes are refused and nothing is written. Without the switch (the OpenAPI's File schema has no
 * `downloadUrl`) a file answers no such field; a seeded file without bytes answers null.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { type RunningEmulator, startEmulator } from "../../emulator";
import {
  closeDispatchers,
  DeviceMgmtClient,
  DownloadChecksumError,
  DownloadUrlExpiredError,
} from "../../provider/client";

const MiB = 1024 * 1024;

let folder: string;
let withUrls: RunningEmulator;
let asDocumented: RunningEmulator;

beforeAll(async () => {
  folder = mkdtempSync(path.join(tmpdir(), "devicemgmt-download-"));
  [withUrls, asDocumented] = await Promise.all([
    startEmulator({ quiet: true, strict: { fileDownloadUrls: true } }),
    startEmulator({ quiet: true }),
  ]);
});

afterAll(async () => {
  await closeDispatchers();
  await Promise.all([withUrls.close(), asDocumented.close()]);
  rmSync(folder, { recursive: true, force: true });
});

function client(on: RunningEmulator) {
  return new DeviceMgmtClient({
    baseUrl: on.baseUrl,
    apiToken: on.tokens.admin,
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
    sleep: async () => undefined,
  });
}

/** Uploads `size` varied bytes as `name`; answers the file's id and the bytes. */
async function uploaded(on: RunningEmulator, name: string, size: number) {
  const bytes = Buffer.allocUnsafe(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + (i >> 10)) & 0xff;
  const source = path.join(folder, `up-${name}`);
  writeFileSync(source, bytes);
  const { made } = await client(on).uploadFile({ source, filename: name, path: "/sdcard/Docs" });
  return { id: made.id, bytes, sha512: createHash("sha512").update(bytes).digest("hex") };
}

test("a file answers a signed download URL; the client streams it to disk, without the token, verified", async () => {
  const { id, bytes, sha512 } = await uploaded(withUrls, "manual.bin", 6 * MiB + 123);
  const file = await client(withUrls).files.get(id);
  expect(file.downloadUrl).toMatch(new RegExp(`^${withUrls.storageUrl}/`));
  const before = withUrls.storageRequests().length;
  const apiBefore = withUrls.stats().requests;
  const destination = path.join(folder, "manual.bin");
  const result = await client(withUrls).download({
    url: file.downloadUrl as string,
    destination,
    label: `file "manual.bin"`,
    expected: file.checksum,
  });
  expect(result).toEqual({ sizeBytes: bytes.length, checksum: sha512 });
  expect(readFileSync(destination).equals(bytes)).toBe(true);
  const gets = withUrls.storageRequests().slice(before);
  expect(gets).toEqual([expect.objectContaining({ method: "GET", authorization: false, status: 200 })]);
  // Storage traffic is not an API request.
  expect(withUrls.stats().requests).toBe(apiBefore);
});

test("the URL is the credential: an Authorization header, another key or a forged signature are refused", async () => {
  const { id } = await uploaded(withUrls, "signed.bin", 1000);
  const url = (await client(withUrls).files.get(id)).downloadUrl as string;
  expect((await fetch(url, { headers: { authorization: "Bearer x" } })).status).toBe(400);
  expect((await fetch(url.replace(/X-Amz-Signature=[0-9a-f]+/, "X-Amz-Signature=00"))).status).toBe(403);
  expect((await fetch(url.replace("signed.bin", "other.bin"))).status).toBe(403);
  expect((await fetch(url)).status).toBe(200);
});

test("a URL past its lifetime is read again through renewUrl; without one the download fails with its class", async () => {
  const { id, bytes } = await uploaded(withUrls, "late.bin", 2048);
  const api = client(withUrls);
  const stale = (await api.files.get(id)).downloadUrl as string;
  withUrls.advanceClock(2 * 3600 * 1000);
  expect((await fetch(stale)).status).toBe(403);
  let renewed = 0;
  const destination = path.join(folder, "late.bin");
  await api.download({
    url: stale,
    destination,
    label: "late.bin",
    renewUrl: async () => {
      renewed++;
      return (await api.files.get(id)).downloadUrl;
    },
  });
  expect(renewed).toBe(1);
  expect(readFileSync(destination).equals(bytes)).toBe(true);
  await expect(
    api.download({ url: stale, destination: path.join(folder, "never.bin"), label: "late.bin" }),
  ).rejects.toBeInstanceOf(DownloadUrlExpiredError);
  expect(existsSync(path.join(folder, "never.bin"))).toBe(false);
});

test("bytes without the checksum the API answers are refused, and nothing is written", async () => {
  const { id, sha512 } = await uploaded(withUrls, "forged.bin", 4096);
  const file = await client(withUrls).files.get(id);
  const other = "0".repeat(128);
  const destination = path.join(folder, "forged.bin");
  const refused = await client(withUrls)
    .download({
      url: file.downloadUrl as string,
      destination,
      label: `file "forged.bin"`,
      expected: { algorithm: "SHA-512", value: other },
    })
    .catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(DownloadChecksumError);
  expect(refused).toMatchObject({ expected: { value: other }, actual: sha512, property: "downloadUrl" });
  expect(readdirSync(folder).filter((f) => f.startsWith("forged.bin"))).toEqual([]);
});

test("without the switch a file answers no downloadUrl (as documented); with it, a seeded file answers null", async () => {
  const { id } = await uploaded(asDocumented, "plain.bin", 100);
  expect(await client(asDocumented).files.get(id)).not.toHaveProperty("downloadUrl");
  const withoutBytes = (await client(withUrls).files.all()).filter((f) => !f.filename.endsWith(".bin"));
  expect(withoutBytes.length).toBeGreaterThan(0);
  for (const f of withoutBytes) expect(f.downloadUrl).toBeNull();
});
