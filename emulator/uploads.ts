/**
 * The upload machinery every content kind shares (the OpenAPI's protocol: initiate, pre-sign, PUT each part to
 * storage, complete): pending uploads, pre-signed part URLs, and the storage endpoint those URLs point at.
 *
 * The storage endpoint is a plain HTTP server on a loopback port of its own (`storageUrl` in the emulator's
 * handle), as a real deployment's bucket is another host than the API: it takes no API token (a request that
 * carries an Authorization header is refused, as S3 refuses two authentication mechanisms at once), counts
 * against no rate budget, and authenticates a part PUT by the URL alone — a signature over the method, key,
 * upload id, part number and expiry, with the expiry on the emulator clock (`advanceClock` expires URLs). Each
 * part is written to a temporary folder as it arrives (never held in memory) and answered with its ETag (the
 * MD5 of its bytes, quoted, as S3 does); `complete` reads the parts back in the order given to compute the
 * checksum and size of what was received. Pending uploads and their parts live only as long as the emulator
 * (not in `--state`): the folder is made when the first part arrives (an emulator that is killed before
 * receiving any leaves nothing behind) and removed on close.
 *
 * An app build's complete, and under the switch `fileDownloadUrls` (the OpenAPI's File and Video schemas have no
 * `downloadUrl`; its build schema has one) a file's or video's, is kept as one object (its key is the upload's), so
 * that the build, file or video can answer one: a GET
 * on the storage endpoint, signed and expiring as the part URLs are, without an Authorization header. Objects
 * live as long as the emulator: one of a loaded `--state` (or a seeded one) has no bytes here: a null URL.
 */
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import {
  closeSync,
  createReadStream,
  createWriteStream,
  mkdirSync,
  mkdtempSync,
  openSync,
  readSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { FaultInjector } from "./faults";
import type { Checksum } from "./model";
import type { StorageRequestRecord } from "./types";

/** What is uploaded: the path segment of its operations (`/files`, `/videos`, …). */
export type UploadKind = "files" | "videos" | "app-versions" | "images" | "custom-3d-environments";

/** The checksum each kind answers (files and videos SHA-512, app builds SHA-256). */
const ALGORITHM: Record<UploadKind, { name: Checksum["algorithm"]; node: string }> = {
  files: { name: "SHA-512", node: "sha512" },
  videos: { name: "SHA-512", node: "sha512" },
  "app-versions": { name: "SHA-256", node: "sha256" },
  // Images and 3D environments answer no checksum: the size is what their complete uses.
  images: { name: "SHA-512", node: "sha512" },
  "custom-3d-environments": { name: "SHA-512", node: "sha512" },
};

/** S3's part limits, enforced under the `s3PartSizes` switch (the v3 documents name none). */
export const MIN_PART_BYTES = 5 * 1024 * 1024;
export const MAX_PART_BYTES = 5 * 1024 * 1024 * 1024;
export const MAX_PART_NUMBER = 10_000;

/** Default lifetime of a pre-signed URL (documents silent; `uploadUrlLifetimeSeconds`). */
export const DEFAULT_URL_LIFETIME_SECONDS = 3600;

const BUCKET = "devicemgmt-emulator";

export interface ReceivedPart {
  eTag: string;
  sizeBytes: number;
  file: string;
}

export interface PendingUpload {
  kind: UploadKind;
  orgId: string;
  /** The id initiate answered (`fileId`, …). */
  id: string;
  key: string;
  uploadId: string;
  /** What the kind's initiate took (filename, path, …), for its complete. */
  details: Record<string, unknown>;
  parts: Map<number, ReceivedPart>;
}

/**
 * What a view asks of storage: the signed GET URL of a completed upload's bytes; null when it has none here;
 * undefined (no field) when the `fileDownloadUrls` switch is off.
 */
export interface DownloadLinks {
  downloadUrl(objectKey: string | undefined): string | null | undefined;
}

export interface UploadOptions {
  host: string;
  faults: FaultInjector;
  /** The emulator clock (`advanceClock` moves it), which URL expiry follows. */
  clock: { nowMs(): number };
  urlLifetimeSeconds: number;
  s3PartSizes: boolean;
  /** Files and videos answer a `downloadUrl` (their OpenAPI schemas have none). */
  fileDownloadUrls: boolean;
}

/** S3's error document, which is what a storage host answers (not the API's JSON). */
function storageError(res: ServerResponse, status: number, code: string, message: string): void {
  res.writeHead(status, { "content-type": "application/xml" });
  res.end(
    `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`,
  );
}

const amzDate = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
const fromAmzDate = (text: string) =>
  Date.parse(text.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, "$1-$2-$3T$4:$5:$6Z"));

/** The object key a URL path names; a malformed escape names no object (and then no signature matches). */
function decodedKey(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

export class Uploads implements DownloadLinks {
  private readonly pending = new Map<string, PendingUpload>();
  /** Completed uploads' bytes by object key: one file each, for download. */
  private readonly objects = new Map<string, string>();
  private readonly secret = randomBytes(32);
  private folderMade: string | undefined;
  private readonly log: StorageRequestRecord[] = [];
  private server: Server | undefined;
  private base = "";

  constructor(private readonly options: UploadOptions) {}

  /** Starts the storage endpoint on a free port of the emulator's host; returns its base URL. */
  async start(): Promise<string> {
    const server = createServer((req, res) => this.handle(req, res));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, this.options.host, () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    const host = this.options.host.includes(":") ? `[${this.options.host}]` : this.options.host;
    this.base = `http://${host}:${port}`;
    return this.base;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    if (this.folderMade !== undefined) rmSync(this.folderMade, { recursive: true, force: true });
  }

  /** Whether the build completed now is to fail its processing (fault `failAppBuilds`, ./appBuilds.ts). */
  failAppBuild(): boolean {
    return this.options.faults.failAppBuild();
  }

  /** Whether the image or environment completed now is to fail its processing (fault `failContentProcessing`). */
  failContentProcessing(): boolean {
    return this.options.faults.failContentProcessing();
  }

  /** Whether the bundle finalized now is to fail its processing (fault `failBundleProcessing`). */
  failBundleProcessing(): boolean {
    return this.options.faults.failBundleProcessing();
  }

  /** Every request the storage endpoint received, oldest first (what tests assert about its traffic). */
  requests(): StorageRequestRecord[] {
    return this.log.map((r) => ({ ...r }));
  }

  initiate(
    kind: UploadKind,
    orgId: string,
    keyName: string,
    details: Record<string, unknown>,
  ): PendingUpload {
    const id = randomUUID();
    const upload: PendingUpload = {
      kind,
      orgId,
      id,
      key: `xrdm-${orgId}/${kind}/${randomUUID()}/${id}/${keyName}`,
      uploadId: randomBytes(48).toString("base64url"),
      details,
      parts: new Map(),
    };
    this.pending.set(this.pendingKey(kind, orgId, id), upload);
    return upload;
  }

  /** The pending upload `id` of this organization and kind; undefined once completed (or never initiated). */
  find(kind: UploadKind, orgId: string, id: string): PendingUpload | undefined {
    return this.pending.get(this.pendingKey(kind, orgId, id));
  }

  /** The uploads of this organization still pending (initiated, not completed), e.g. a bundle's unfinished files. */
  pendingOf(orgId: string): PendingUpload[] {
    return [...this.pending.values()].filter((u) => u.orgId === orgId);
  }

  /** A URL for one part, valid for the configured lifetime (or already expired, fault `expireUploadUrls`). */
  presign(upload: PendingUpload, partNumber: number): string {
    const now = this.options.clock.nowMs();
    const lifetime = this.options.urlLifetimeSeconds;
    const date = amzDate(this.options.faults.expireUploadUrl() ? now - (lifetime + 1) * 1000 : now);
    const query = new URLSearchParams({
      partNumber: String(partNumber),
      uploadId: upload.uploadId,
      "X-Amz-Date": date,
      "X-Amz-Expires": String(lifetime),
    });
    query.set("X-Amz-Signature", this.sign("PUT", upload.key, upload.uploadId, partNumber, date, lifetime));
    return `${this.objectUrl(upload.key)}?${query}`;
  }

  /**
   * A signed GET of a completed upload's bytes, valid for the URL lifetime on the emulator clock; null when the
   * object has no bytes here (seeded, or loaded from `--state`); undefined when the switch is off.
   */
  downloadUrl(objectKey: string | undefined): string | null | undefined {
    if (!this.options.fileDownloadUrls) return undefined;
    return this.signedDownloadUrl(objectKey);
  }

  /**
   * The signed GET an app build answers (its OpenAPI schema has a nullable `downloadUrl`, so no switch): null
   * when the build has no bytes here (seeded, or loaded from `--state`).
   */
  signedDownloadUrl(objectKey: string | undefined): string | null {
    if (objectKey === undefined || !this.objects.has(objectKey)) return null;
    const date = amzDate(this.options.clock.nowMs());
    const lifetime = this.options.urlLifetimeSeconds;
    const query = new URLSearchParams({ "X-Amz-Date": date, "X-Amz-Expires": String(lifetime) });
    query.set("X-Amz-Signature", this.sign("GET", objectKey, "", 0, date, lifetime));
    return `${this.objectUrl(objectKey)}?${query}`;
  }

  private objectUrl(key: string): string {
    return `${this.base}/${BUCKET}/${key.split("/").map(encodeURIComponent).join("/")}`;
  }

  /**
   * Reads the parts back in the order given into one stored object (its key the upload's) and forgets the
   * upload: the checksum (the kind's algorithm) and size of the bytes received, and the object's key. The caller
   * has checked that every part is there.
   */
  finish(
    upload: PendingUpload,
    partNumbers: readonly number[],
  ): { checksum: Checksum; sizeBytes: number; objectKey: string } {
    const algorithm = ALGORITHM[upload.kind];
    const hash = createHash(algorithm.node);
    const buffer = Buffer.allocUnsafe(1024 * 1024);
    let sizeBytes = 0;
    // The bytes are kept only where something can download them (builds, images and environments, whose schemas
    // answer a URL; files and
    // videos under the switch `fileDownloadUrls`): otherwise a large upload would cost its size twice on disk.
    const objectFile =
      this.options.fileDownloadUrls || !["files", "videos"].includes(upload.kind)
        ? path.join(this.objectFolder(), createHash("sha256").update(upload.key).digest("hex"))
        : undefined;
    const out = objectFile === undefined ? undefined : openSync(objectFile, "w");
    try {
      for (const n of partNumbers) {
        const fd = openSync((upload.parts.get(n) as ReceivedPart).file, "r");
        try {
          for (let read; (read = readSync(fd, buffer, 0, buffer.length, null)) > 0;) {
            hash.update(buffer.subarray(0, read));
            if (out !== undefined) writeSync(out, buffer, 0, read);
            sizeBytes += read;
          }
        } finally {
          closeSync(fd);
        }
      }
    } finally {
      if (out !== undefined) closeSync(out);
    }
    if (objectFile !== undefined) this.objects.set(upload.key, objectFile);
    this.forget(upload);
    return {
      checksum: { algorithm: algorithm.name, value: hash.digest("hex") },
      sizeBytes,
      objectKey: upload.key,
    };
  }

  private forget(upload: PendingUpload): void {
    this.pending.delete(this.pendingKey(upload.kind, upload.orgId, upload.id));
    rmSync(this.uploadFolder(upload), { recursive: true, force: true });
  }

  private pendingKey(kind: UploadKind, orgId: string, id: string): string {
    return `${kind}/${orgId}/${id}`;
  }

  private objectFolder(): string {
    const folder = path.join(this.storageFolder(), "objects");
    mkdirSync(folder, { recursive: true });
    return folder;
  }

  private storageFolder(): string {
    this.folderMade ??= mkdtempSync(path.join(tmpdir(), "devicemgmt-storage-"));
    return this.folderMade;
  }

  private uploadFolder(upload: PendingUpload): string {
    return path.join(
      this.storageFolder(),
      createHash("sha256").update(upload.uploadId).digest("hex").slice(0, 32),
    );
  }

  private sign(
    method: "PUT" | "GET",
    key: string,
    uploadId: string,
    partNumber: number,
    date: string,
    lifetime: number,
  ): string {
    return createHmac("sha256", this.secret)
      .update([method, key, uploadId, partNumber, date, lifetime].join("\n"))
      .digest("hex");
  }

  /** Whether the signature and expiry of a signed URL hold; the refusal to answer when not. */
  private refusalOf(url: URL, method: "PUT" | "GET", key: string): [number, string, string] | undefined {
    const partNumber = method === "PUT" ? Number(url.searchParams.get("partNumber")) : 0;
    const uploadId = method === "PUT" ? (url.searchParams.get("uploadId") ?? "") : "";
    const date = url.searchParams.get("X-Amz-Date") ?? "";
    const lifetime = Number(url.searchParams.get("X-Amz-Expires"));
    const presented = Buffer.from(url.searchParams.get("X-Amz-Signature") ?? "", "utf8");
    const expected = Buffer.from(this.sign(method, key, uploadId, partNumber, date, lifetime), "utf8");
    if (presented.length !== expected.length || !timingSafeEqual(presented, expected))
      return [
        403,
        "SignatureDoesNotMatch",
        "The request signature we calculated does not match the signature you provided.",
      ];
    if (this.options.clock.nowMs() > fromAmzDate(date) + lifetime * 1000)
      return [403, "AccessDenied", "Request has expired"];
    return undefined;
  }

  /** A GET of a stored object: streamed from its file, never read whole. */
  private serve(res: ServerResponse, file: string, record: StorageRequestRecord): void {
    const size = statSync(file).size;
    record.status = 200;
    res.writeHead(200, { "content-type": "application/octet-stream", "content-length": String(size) });
    createReadStream(file).pipe(res);
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? "/", "http://storage");
    const record: StorageRequestRecord = {
      method: req.method ?? "",
      key: decodedKey(url.pathname.replace(`/${BUCKET}/`, "")),
      partNumber: Number(url.searchParams.get("partNumber")) || null,
      authorization: req.headers.authorization !== undefined,
      status: 0,
    };
    this.log.push(record);
    const refuse = (status: number, code: string, message: string) => {
      record.status = status;
      // The body is not wanted; read it to its end so the client sees the answer, not a reset.
      req.resume();
      storageError(res, status, code, message);
    };
    // A GET reads a stored object; the URL of an upload's part (with its upload id) only takes PUTs.
    const method =
      req.method === "PUT" || (req.method === "GET" && !url.searchParams.has("uploadId"))
        ? req.method
        : undefined;
    if (method === undefined || !url.pathname.startsWith(`/${BUCKET}/`))
      return refuse(405, "MethodNotAllowed", "The specified method is not allowed against this resource.");
    if (record.authorization)
      return refuse(
        400,
        "InvalidArgument",
        "Only one auth mechanism allowed; a pre-signed URL takes no Authorization header.",
      );
    const refusal = this.refusalOf(url, method, record.key);
    if (refusal) return refuse(...refusal);
    if (method === "GET") {
      const object = this.objects.get(record.key);
      if (!object) return refuse(404, "NoSuchKey", "The specified key does not exist.");
      req.resume();
      return this.serve(res, object, record);
    }
    const partNumber = Number(url.searchParams.get("partNumber"));
    const uploadId = url.searchParams.get("uploadId") ?? "";
    const upload = [...this.pending.values()].find((u) => u.uploadId === uploadId && u.key === record.key);
    if (!upload)
      return refuse(
        404,
        "NoSuchUpload",
        "The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.",
      );
    const length = Number(req.headers["content-length"] ?? NaN);
    if (this.options.s3PartSizes && length > MAX_PART_BYTES)
      return refuse(400, "EntityTooLarge", "Your proposed upload exceeds the maximum allowed size.");
    if (this.options.faults.failUploadPart())
      return refuse(500, "InternalError", "We encountered an internal error. Please try again.");
    this.receive(req, res, upload, partNumber, record);
  }

  /** Streams the part to disk, hashing it for the ETag; a part sent again replaces the earlier one. */
  private receive(
    req: IncomingMessage,
    res: ServerResponse,
    upload: PendingUpload,
    partNumber: number,
    record: StorageRequestRecord,
  ): void {
    const folder = this.uploadFolder(upload);
    mkdirSync(folder, { recursive: true });
    const file = path.join(folder, `${partNumber}.${randomUUID()}`);
    const md5 = createHash("md5");
    let sizeBytes = 0;
    const out = createWriteStream(file);
    req.on("data", (chunk: Buffer) => {
      md5.update(chunk);
      sizeBytes += chunk.length;
    });
    req.pipe(out);
    const failed = () => {
      out.destroy();
      rmSync(file, { force: true });
    };
    req.on("aborted", failed);
    out.on("error", () => {
      failed();
      if (!res.headersSent) storageError(res, 500, "InternalError", "The part could not be stored.");
    });
    out.on("finish", () => {
      // Completed (or forgotten) while this part was arriving: nothing to attach it to.
      if (this.find(upload.kind, upload.orgId, upload.id) !== upload) {
        rmSync(file, { force: true });
        record.status = 404;
        return storageError(res, 404, "NoSuchUpload", "The specified upload does not exist.");
      }
      const eTag = `"${md5.digest("hex")}"`;
      const earlier = upload.parts.get(partNumber);
      if (earlier) rmSync(earlier.file, { force: true });
      upload.parts.set(partNumber, { eTag, sizeBytes, file });
      record.status = 200;
      res.writeHead(200, { etag: eTag, "content-length": "0" });
      res.end();
    });
  }
}
