/**
 * `client.download` against a storage host that fails: a 503 and a connection cut mid-body are retried (a GET
 * is safe to send again), each attempt writes the file anew, and the file is kept only once the bytes verify;
 * a host that keeps failing fails the download with a StorageError and leaves nothing; a host that never answers
 * is given up on after the storage chain's timeout (option storageTimeoutMs, stack config
 * devicemgmt:uploadPartTimeoutSeconds), each attempt. The token is never sent.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { closeDispatchers, DeviceMgmtClient, StorageError } from "../../provider/client";

const BYTES = Buffer.alloc(256 * 1024, 3);
const SHA512 = { algorithm: "SHA-512", value: createHash("sha512").update(BYTES).digest("hex") };

let folder: string;
let server: Server;
let base: string;
/** What the host does with each request, in order; then it serves the bytes. */
let script: ("503" | "cut" | "hang")[] = [];
/** Requests the host holds without an answer (step "hang"), ended when the test is done. */
const held: import("node:http").ServerResponse[] = [];
const seen: { authorization: boolean }[] = [];

beforeAll(async () => {
  folder = mkdtempSync(path.join(tmpdir(), "devicemgmt-download-retry-"));
  server = createServer((req, res) => {
    seen.push({ authorization: req.headers.authorization !== undefined });
    const step = script.shift();
    if (step === "hang") return void held.push(res);
    if (step === "503") {
      res.writeHead(503, { "content-type": "application/xml" });
      return res.end(
        "<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>",
      );
    }
    res.writeHead(200, { "content-length": String(BYTES.length) });
    if (step === "cut") {
      res.write(BYTES.subarray(0, 1000));
      return void setTimeout(() => res.destroy(), 10);
    }
    res.end(BYTES);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const res of held) res.destroy();
  await closeDispatchers();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(folder, { recursive: true, force: true });
});

beforeEach(() => {
  seen.length = 0;
});

const client = () =>
  new DeviceMgmtClient({
    baseUrl: "http://127.0.0.1:1/api/v3",
    apiToken: "secret-token",
    sleep: async () => undefined,
    logger: () => undefined,
  });

test("a 503 and a cut connection are retried; the file is the whole content, verified", async () => {
  script = ["503", "cut"];
  const destination = path.join(folder, "retried.bin");
  const result = await client().download({
    url: `${base}/bucket/retried.bin?X-Amz-Signature=abc`,
    destination,
    label: "retried.bin",
    expected: SHA512,
  });
  expect(seen).toHaveLength(3);
  expect(seen.every((r) => !r.authorization)).toBe(true);
  expect(result).toEqual({ sizeBytes: BYTES.length, checksum: SHA512.value });
  expect(readFileSync(destination).equals(BYTES)).toBe(true);
  expect(readdirSync(folder).filter((f) => f.endsWith(".part"))).toEqual([]);
});

test("a host that keeps failing fails the download with a StorageError and leaves nothing", async () => {
  script = Array.from({ length: 10 }, () => "503" as const);
  const destination = path.join(folder, "failed.bin");
  await expect(
    client().download({
      url: `${base}/bucket/failed.bin`,
      destination,
      label: "failed.bin",
      expected: SHA512,
    }),
  ).rejects.toBeInstanceOf(StorageError);
  expect(seen.length).toBeGreaterThan(1);
  expect(existsSync(destination)).toBe(false);
  expect(existsSync(`${destination}.part`)).toBe(false);
  script = [];
});

test("a host that never answers fails each attempt after the storage timeout (devicemgmt:uploadPartTimeoutSeconds)", async () => {
  script = Array.from({ length: 6 }, () => "hang" as const);
  const started = Date.now();
  const failed = new DeviceMgmtClient({
    baseUrl: "http://127.0.0.1:1/api/v3",
    apiToken: "secret-token",
    storageTimeoutMs: 300,
    sleep: async () => undefined,
    logger: () => undefined,
  }).download({
    url: `${base}/bucket/slow.bin`,
    destination: path.join(folder, "slow.bin"),
    label: "slow.bin",
  });
  await expect(failed).rejects.toThrow(/Headers Timeout Error \[after 6 attempts\]/);
  expect(seen).toHaveLength(6); // every attempt, each given up after 300 ms (not the 2-minute default)
  expect(Date.now() - started).toBeLessThan(10_000);
  script = [];
});
