/**
 * The storage request chain's wrappers alone (provider/client/storage.ts), around a fake `next` that plays the
 * storage host's answers; and the uploader (provider/client/upload.ts) around a fake protocol and a fake
 * storage, for what the emulator cannot be made to do (answer another checksum than that of the bytes sent).
 * The chain against a real storage endpoint is test/client/uploads.emulator.test.ts.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { ChainRequest, ChainResponse, RequestFn } from "../../provider/client/chain";
import {
  AmbiguousWriteError,
  NetworkError,
  PresignedUrlExpiredError,
  StorageError,
} from "../../provider/client/errors";
import { withRetry } from "../../provider/client/retry";
import { presignedPartsSchema } from "../../provider/client/schemas";
import {
  putPart,
  STORAGE_BACKOFF,
  storageErrorFields,
  withoutCredentials,
  withStorageErrors,
} from "../../provider/client/storage";
import type { DeviceFile, PresignedPart } from "../../provider/client/types";
import {
  checksumOfFile,
  COMPLETE_ATTEMPTS,
  MAX_PARTS,
  MIN_PART_BYTES,
  partSizeFor,
  UploadChecksumError,
  uploadInParts,
  type UploadProtocol,
} from "../../provider/client/upload";

const MiB = 1024 * 1024;
const URL_1 =
  "https://storage.example/bucket/org/files/a/b/data.bin?partNumber=1&uploadId=u&X-Amz-Signature=sig";

function request(overrides: Partial<ChainRequest> = {}): ChainRequest {
  return {
    method: "PUT",
    url: new URL(URL_1),
    shownPath: "/bucket/org/files/a/b/data.bin (part 1)",
    headers: {},
    body: Buffer.from("part"),
    ...overrides,
  };
}

function answer(status: number, text = "", headers: Record<string, string> = {}): ChainResponse {
  return { kind: "answer", status, headers, text, sentAt: Date.now() };
}

const s3Error = (code: string, message: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`;

function scripted(...script: ChainResponse[]): RequestFn & { seen: ChainRequest[] } {
  const seen: ChainRequest[] = [];
  const next = async (req: ChainRequest) => {
    seen.push(req);
    const response = script.shift();
    if (response === undefined) throw new Error("the fake next was called more often than scripted");
    return response;
  };
  return Object.assign(next, { seen });
}

describe("withoutCredentials", () => {
  test("strips Authorization, Cookie and Proxy-Authorization whatever their case; keeps the rest", async () => {
    const next = scripted(answer(200));
    await withoutCredentials(next)(
      request({
        headers: {
          Authorization: "Bearer 1|secret",
          cookie: "session=1",
          "proxy-authorization": "Basic x",
          "content-type": "application/octet-stream",
        },
      }),
    );
    expect(next.seen[0].headers).toEqual({ "content-type": "application/octet-stream" });
  });
});

describe("withStorageErrors", () => {
  test("passes a success on", async () => {
    const ok = answer(200, "", { etag: '"abc"' });
    await expect(withStorageErrors(scripted(ok))(request())).resolves.toBe(ok);
  });

  test("an expired URL is PresignedUrlExpiredError with the part number and S3's code", async () => {
    const error = await withStorageErrors(
      scripted(answer(403, s3Error("AccessDenied", "Request has expired"))),
    )(request()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PresignedUrlExpiredError);
    expect(error).toMatchObject({
      status: 403,
      code: "AccessDenied",
      partNumber: 1,
      serverMessage: "Request has expired",
    });
    // The pre-signed query (the signature) is in neither the path nor the message.
    expect((error as Error).message).not.toContain("sig");
  });

  test("another refusal is a StorageError, not an expiry; a lost connection a NetworkError", async () => {
    const forged = await withStorageErrors(
      scripted(answer(403, s3Error("SignatureDoesNotMatch", "The signature does not match."))),
    )(request()).catch((e: unknown) => e);
    expect(forged).toBeInstanceOf(StorageError);
    expect(forged).not.toBeInstanceOf(PresignedUrlExpiredError);
    expect(forged).toMatchObject({ code: "SignatureDoesNotMatch", partNumber: 1 });
    const lost: ChainResponse = {
      kind: "network",
      sent: true,
      error: new Error("reset"),
      sentAt: Date.now(),
    };
    await expect(withStorageErrors(scripted(lost))(request())).rejects.toBeInstanceOf(NetworkError);
  });

  test("reads S3's error document, and tolerates a body that is not one", () => {
    expect(storageErrorFields(s3Error("SlowDown", "Reduce your request rate."))).toEqual({
      code: "SlowDown",
      message: "Reduce your request rate.",
    });
    expect(storageErrorFields("oops")).toEqual({ code: undefined, message: undefined });
  });
});

describe("a part's own retry (withRetry with the storage policy)", () => {
  const policy = (sleeps: number[]) => ({
    backoff: STORAGE_BACKOFF,
    deadlineMs: 60_000,
    sleep: async (ms: number) => void sleeps.push(ms),
    rng: () => 0.5,
  });

  test("a 500 and a lost connection are sent again (a PUT); an expired URL is not", async () => {
    const sleeps: number[] = [];
    const lost: ChainResponse = {
      kind: "network",
      sent: true,
      error: new Error("reset"),
      sentAt: Date.now(),
    };
    const flaky = scripted(answer(500), lost, answer(200, "", { etag: '"e"' }));
    const response = await withRetry(flaky, policy(sleeps))(request());
    expect(response).toMatchObject({ status: 200, retry: { attempts: 3 } });
    expect(sleeps).toEqual([250, 500]); // half of 500 ms, then of 1 s
    const expired = scripted(answer(403, s3Error("AccessDenied", "Request has expired")));
    await withRetry(expired, policy([]))(request());
    expect(expired.seen).toHaveLength(1);
  });
});

describe("putPart", () => {
  test("answers the ETag; sends the bytes with no credential and the pre-signed URL as is", async () => {
    const next = scripted(answer(200, "", { etag: '"d41d8cd9"' }));
    await expect(putPart(next, URL_1, Buffer.from("bytes"))).resolves.toBe('"d41d8cd9"');
    expect(next.seen[0]).toMatchObject({ method: "PUT", url: new URL(URL_1), body: Buffer.from("bytes") });
    expect(next.seen[0].shownPath).toBe("/bucket/org/files/a/b/data.bin (part 1)");
    expect(Object.keys(next.seen[0].headers).map((h) => h.toLowerCase())).not.toContain("authorization");
  });

  test("an answer without an ETag is a StorageError (complete could not name the part)", async () => {
    const error = await putPart(scripted(answer(200)), URL_1, Buffer.from("x")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect(error).toMatchObject({ partNumber: 1, status: 200 });
  });
});

describe("pre-sign answers", () => {
  test("take presignedUrl (files) and url (the app versions' schema) alike", () => {
    const parsed = presignedPartsSchema.parse([
      { partNumber: 1, presignedUrl: "https://s.example/a?partNumber=1" },
      { partNumber: 2, url: "https://s.example/a?partNumber=2" },
    ]);
    expect(parsed).toEqual([
      { partNumber: 1, url: "https://s.example/a?partNumber=1" },
      { partNumber: 2, url: "https://s.example/a?partNumber=2" },
    ]);
    expect(presignedPartsSchema.safeParse([{ partNumber: 1 }]).success).toBe(false);
  });
});

describe("part sizing (the vendor CLI's: at least 5 MiB, at most 1000 parts)", () => {
  test.each([
    [0, MIN_PART_BYTES],
    [12 * MiB, MIN_PART_BYTES],
    [4 * 1024 * MiB, 5 * MiB],
    [10 * 1024 * MiB, 11 * MiB],
  ])("%d bytes: parts of %d bytes", (size, part) => {
    expect(partSizeFor(size)).toBe(part);
    expect(Math.ceil(size / partSizeFor(size))).toBeLessThanOrEqual(MAX_PARTS);
  });

  test("a larger size asked for is kept (in whole MiB); a smaller one is raised", () => {
    expect(partSizeFor(12 * MiB, 8 * MiB)).toBe(8 * MiB);
    expect(partSizeFor(12 * MiB, 1)).toBe(MIN_PART_BYTES);
  });
});

describe("uploadInParts around a fake protocol", () => {
  let folder: string;
  beforeAll(() => (folder = mkdtempSync(path.join(tmpdir(), "devicemgmt-upload-unit-"))));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  function fakeProtocol(answered: string): UploadProtocol<DeviceFile> & { presigned: number[][] } {
    const presigned: number[][] = [];
    const file = (value: string): DeviceFile => ({
      id: "6f1f4a4e-0000-4000-8000-000000000001",
      filename: "data.bin",
      sizeBytes: 1,
      checksum: { algorithm: "SHA-512", value },
      deviceStatuses: [],
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "2026-01-01T00:00:00.000Z",
    });
    return {
      presigned,
      algorithm: "SHA-512",
      initiate: async () => ({ id: "f", key: "k", uploadId: "u" }),
      presign: async (_id, body): Promise<PresignedPart[]> => {
        presigned.push(body.partNumbers);
        return body.partNumbers.map((n) => ({ partNumber: n, url: `https://s.example/k?partNumber=${n}` }));
      },
      complete: async () => file(answered),
      checksumOf: (f) => f.checksum,
      idOf: (f) => f.id,
      findCompleted: async () => undefined,
    };
  }

  const storage = scripted(...Array.from({ length: 20 }, (_, i) => answer(200, "", { etag: `"e${i}"` })));

  test("another checksum than that of the bytes sent is refused with UploadChecksumError and its fields", async () => {
    const source = path.join(folder, "small.bin");
    writeFileSync(source, "content");
    const sent = createHash("sha512").update("content").digest("hex");
    const error = await uploadInParts(fakeProtocol("00ff"), storage, { source }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UploadChecksumError);
    expect(error).toMatchObject({
      source,
      id: "6f1f4a4e-0000-4000-8000-000000000001",
      algorithm: "SHA-512",
      sent,
      answered: { algorithm: "SHA-512", value: "00ff" },
      property: "source",
    });
  });

  test("a complete whose outcome stays open (5xx, lost answer) is sent again until it answers, at most COMPLETE_ATTEMPTS times", async () => {
    const source = path.join(folder, "completes.bin");
    writeFileSync(source, "completes");
    const sent = createHash("sha512").update("completes").digest("hex");
    const ambiguous = () =>
      new AmbiguousWriteError({ method: "POST", path: "/files/f/complete", status: 503 });
    const completingAfter = (failures: number) => {
      const protocol = fakeProtocol(sent);
      const complete = protocol.complete;
      let calls = 0;
      protocol.complete = async (id, body) => {
        if (++calls <= failures) throw ambiguous();
        return complete(id, body);
      };
      return { protocol, calls: () => calls };
    };
    const twice = completingAfter(2);
    await expect(uploadInParts(twice.protocol, storage, { source })).resolves.toMatchObject({
      checksum: sent,
    });
    expect(twice.calls()).toBe(3);
    const always = completingAfter(Number.POSITIVE_INFINITY);
    await expect(uploadInParts(always.protocol, storage, { source })).rejects.toBeInstanceOf(
      AmbiguousWriteError,
    );
    expect(always.calls()).toBe(COMPLETE_ATTEMPTS);
  });

  test("pre-signs the parts 4 at a time, the next ones along", async () => {
    const source = path.join(folder, "nine.bin");
    writeFileSync(source, Buffer.alloc(9 * MIN_PART_BYTES - 1, 7));
    const sent = createHash("sha512")
      .update(Buffer.alloc(9 * MIN_PART_BYTES - 1, 7))
      .digest("hex");
    const protocol = fakeProtocol(sent);
    const result = await uploadInParts(protocol, storage, { source, concurrency: 3 });
    expect(result).toMatchObject({ parts: 9, presignCalls: 3, checksum: sent });
    expect(protocol.presigned).toEqual([[1, 2, 3, 4], [5, 6, 7, 8], [9]]);
  });

  test("asks for the next 4 parts' URLs with the first ones (presignAhead 1, the default), none ahead with 0", async () => {
    const source = path.join(folder, "ahead.bin");
    writeFileSync(source, Buffer.alloc(6 * MIN_PART_BYTES, 3));
    const sent = createHash("sha512")
      .update(Buffer.alloc(6 * MIN_PART_BYTES, 3))
      .digest("hex");
    const asked = async (presignAhead?: number) => {
      const protocol = fakeProtocol(sent);
      const parts = scripted(...Array.from({ length: 6 }, (_, i) => answer(200, "", { etag: `"a${i}"` })));
      // How many pre-sign calls had been made when each part's PUT was sent.
      const callsAtPut: number[] = [];
      const recording: RequestFn = (request) => {
        callsAtPut.push(protocol.presigned.length);
        return parts(request);
      };
      const result = await uploadInParts(protocol, recording, {
        source,
        concurrency: 1,
        ...(presignAhead === undefined ? {} : { presignAhead }),
      });
      expect(result).toMatchObject({ parts: 6, presignCalls: 2, checksum: sent });
      expect(protocol.presigned).toEqual([
        [1, 2, 3, 4],
        [5, 6],
      ]);
      return callsAtPut;
    };
    expect(await asked()).toEqual([2, 2, 2, 2, 2, 2]);
    expect(await asked(0)).toEqual([1, 1, 1, 1, 2, 2]);
  });
});

test("checksumOfFile streams a file through SHA-512 or SHA-256 as the API names them", async () => {
  const folder = mkdtempSync(path.join(tmpdir(), "devicemgmt-checksum-"));
  try {
    const source = path.join(folder, "three.bin");
    const bytes = Buffer.alloc(3 * MiB + 5, 9);
    writeFileSync(source, bytes);
    await expect(checksumOfFile(source, "SHA-512")).resolves.toBe(
      createHash("sha512").update(bytes).digest("hex"),
    );
    await expect(checksumOfFile(source, "SHA-256")).resolves.toBe(
      createHash("sha256").update(bytes).digest("hex"),
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
