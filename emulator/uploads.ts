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
 */
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { closeSync, createWriteStream, mkdirSync, mkdtempSync, openSync, readSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { FaultInjector } from "./faults";
import type { Checksum } from "./model";
import type { StorageRequestRecord } from "./types";

/** What is uploaded: the path segment of its operations (`/files`, later `/videos`, …). */
export type UploadKind = "files" | "videos";

/** The checksum each kind answers (files and videos SHA-512, app builds SHA-256). */
const ALGORITHM: Record<UploadKind, { name: Checksum["algorithm"]; node: string }> = {
  files: { name: "SHA-512", node: "sha512" },
  videos: { name: "SHA-512", node: "sha512" },
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

export interface UploadOptions {
  host: string;
  faults: FaultInjector;
  /** The emulator clock (`advanceClock` moves it), which URL expiry follows. */
  clock: { nowMs(): number };
  urlLifetimeSeconds: number;
  s3PartSizes: boolean;
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

export class Uploads {
  private readonly pending = new Map<string, PendingUpload>();
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
    query.set("X-Amz-Signature", this.sign(upload.key, upload.uploadId, partNumber, date, lifetime));
    return `${this.base}/${BUCKET}/${upload.key.split("/").map(encodeURIComponent).join("/")}?${query}`;
  }

  /**
   * Reads the parts back in the order given and forgets the upload: the checksum (the kind's algorithm) and
   * size of the bytes received. The caller has checked that every part is there.
   */
  finish(upload: PendingUpload, partNumbers: readonly number[]): { checksum: Checksum; sizeBytes: number } {
    const algorithm = ALGORITHM[upload.kind];
    const hash = createHash(algorithm.node);
    const buffer = Buffer.allocUnsafe(1024 * 1024);
    let sizeBytes = 0;
    for (const n of partNumbers) {
      const fd = openSync((upload.parts.get(n) as ReceivedPart).file, "r");
      try {
        for (let read; (read = readSync(fd, buffer, 0, buffer.length, null)) > 0;) {
          hash.update(buffer.subarray(0, read));
          sizeBytes += read;
        }
      } finally {
        closeSync(fd);
      }
    }
    this.forget(upload);
    return { checksum: { algorithm: algorithm.name, value: hash.digest("hex") }, sizeBytes };
  }

  private forget(upload: PendingUpload): void {
    this.pending.delete(this.pendingKey(upload.kind, upload.orgId, upload.id));
    rmSync(this.uploadFolder(upload), { recursive: true, force: true });
  }

  private pendingKey(kind: UploadKind, orgId: string, id: string): string {
    return `${kind}/${orgId}/${id}`;
  }

  private uploadFolder(upload: PendingUpload): string {
    this.folderMade ??= mkdtempSync(path.join(tmpdir(), "devicemgmt-storage-"));
    return path.join(
      this.folderMade,
      createHash("sha256").update(upload.uploadId).digest("hex").slice(0, 32),
    );
  }

  private sign(key: string, uploadId: string, partNumber: number, date: string, lifetime: number): string {
    return createHmac("sha256", this.secret)
      .update(["PUT", key, uploadId, partNumber, date, lifetime].join("\n"))
      .digest("hex");
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
    if (req.method !== "PUT" || !url.pathname.startsWith(`/${BUCKET}/`))
      return refuse(405, "MethodNotAllowed", "The specified method is not allowed against this resource.");
    if (record.authorization)
      return refuse(
        400,
        "InvalidArgument",
        "Only one auth mechanism allowed; a pre-signed URL takes no Authorization header.",
      );
    const partNumber = Number(url.searchParams.get("partNumber"));
    const uploadId = url.searchParams.get("uploadId") ?? "";
    const date = url.searchParams.get("X-Amz-Date") ?? "";
    const lifetime = Number(url.searchParams.get("X-Amz-Expires"));
    const presented = Buffer.from(url.searchParams.get("X-Amz-Signature") ?? "", "utf8");
    const expected = Buffer.from(this.sign(record.key, uploadId, partNumber, date, lifetime), "utf8");
    if (presented.length !== expected.length || !timingSafeEqual(presented, expected))
      return refuse(
        403,
        "SignatureDoesNotMatch",
        "The request signature we calculated does not match the signature you provided.",
      );
    if (this.options.clock.nowMs() > fromAmzDate(date) + lifetime * 1000)
      return refuse(403, "AccessDenied", "Request has expired");
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
