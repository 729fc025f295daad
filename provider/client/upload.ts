/**
 * Uploading content in parts, as the OpenAPI's protocol goes (the same for files, videos, images, 3D
 * environments and app builds; `UploadProtocol` is what differs): initiate; pre-sign at most 4 parts per call
 * (API calls: they spend the organization's rate budget); PUT each part to its URL through the storage chain
 * (./storage: no token, no budget, each part retried on its own, a new URL asked for when one expired); complete
 * with every part's ETag; then compare the checksum the API answers with the one computed here.
 *
 * Sized as the vendor's CLI does: parts of at least 5 MiB and at most 1000 parts. The file is read once, in
 * order, a part at a time, and hashed as it is read (so the checksum is of exactly the bytes sent); at most
 * `concurrency` parts are in flight, so memory holds at most that many parts, never the file. A file that is
 * shorter or longer than when the upload began, or whose hash is not the one the caller expected (taken at
 * preview), is refused before the complete: nothing is made. A complete whose answer was lost is sent again:
 * the upload id is single-use, so either it completes now or the API no longer knows it (404), and then the
 * protocol finds what the first one made, so a lost answer never makes a second object.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { DeviceMgmtProblem } from "../errors";
import type { RequestFn } from "./chain";
import type { AppBundleOperations } from "./contentOperations";
import { AmbiguousWriteError, NotFoundError, PresignedUrlExpiredError } from "./errors";
import { putPart } from "./storage";
import {
  DEFAULT_PROCESSING_TIMEOUT_MS,
  PROCESSING_TIMEOUT_ADVICE,
  PROCESSING_TIMEOUT_SETTING,
  ProcessingTimeoutError,
} from "./processing";
import type { Custom3DEnvironmentOperations, ImageOperations } from "./experienceOperations";
import type {
  ConflictStrategy,
  FileOperations,
  InitiateFileUploadBody,
  InitiateVideoUploadBody,
  VideoOperations,
} from "./operations";
import type { ReleaseOperations } from "./contentOperations";
import type {
  AppBuild,
  Checksum,
  Custom3DEnvironment,
  DeviceFile,
  Image,
  PresignedPart,
  UploadedPart,
  Video,
} from "./types";

const MiB = 1024 * 1024;
export const MIN_PART_BYTES = 5 * MiB;
export const MAX_PARTS = 1000;
/** Part numbers per pre-sign call (the OpenAPI's maximum). */
export const PRESIGN_BATCH = 4;
const DEFAULT_CONCURRENCY = 4;
const DEFAULT_PRESIGN_AHEAD = 1;
/** New URLs asked for one part before its expiry is taken as the storage host's problem, not the URL's. */
const MAX_URL_RENEWALS = 3;

/** The checksum algorithms the API answers, as it names them and as node:crypto does. */
export type ChecksumAlgorithm = "SHA-512" | "SHA-256";
const NODE_HASH: Record<ChecksumAlgorithm, string> = { "SHA-512": "sha512", "SHA-256": "sha256" };

/** What one kind's upload operations are; the rest of the protocol is the same for every kind. */
export interface UploadProtocol<T> {
  /** The checksum the API answers, or (`answersChecksum: false`) the one kept of the bytes sent only. */
  algorithm: ChecksumAlgorithm;
  /** False for kinds the API answers no checksum for (images, 3D environments): nothing to compare after complete. */
  answersChecksum?: false;
  initiate(): Promise<{ id: string; key: string; uploadId: string }>;
  presign(
    id: string,
    body: { key: string; uploadId: string; partNumbers: number[] },
  ): Promise<PresignedPart[]>;
  complete(id: string, body: { key: string; uploadId: string; parts: UploadedPart[] }): Promise<T>;
  checksumOf(made: T): Checksum | undefined;
  idOf(made: T): string;
  /** After a complete whose answer was lost and whose upload is gone: what it made, found by its checksum. */
  findCompleted(id: string, checksum: string): Promise<T | undefined>;
}

export interface UploadProgress {
  sentBytes: number;
  totalBytes: number;
  partsSent: number;
  parts: number;
}

export interface UploadOptions {
  /** The local file to upload. */
  source: string;
  /** The checksum (hex, the kind's algorithm) the caller took earlier: a file that no longer has it is refused. */
  expectedChecksum?: string;
  /** Parts in flight at once (default 4). */
  concurrency?: number;
  /** Part size in bytes; raised to what the vendor sizing needs (at least 5 MiB, at most 1000 parts). */
  partSizeBytes?: number;
  /** Pre-sign calls asked for ahead of the parts being sent (default 1): a part need not wait for its URL. */
  presignAhead?: number;
  onProgress?: (progress: UploadProgress) => void;
}

export interface UploadResult<T> {
  /** What the API answered to the complete (or, after a lost answer, what the complete made). */
  made: T;
  /** The checksum of the bytes sent, hex, the kind's algorithm; the API answered the same. */
  checksum: string;
  sizeBytes: number;
  parts: number;
  /** Pre-sign calls made (renewals of expired URLs included). */
  presignCalls: number;
}

/** The bytes uploaded are not what the file holds now (or what the caller hashed earlier): refused, nothing made. */
export class SourceChangedError extends DeviceMgmtProblem {
  constructor(
    readonly source: string,
    readonly expected: string,
    readonly actual: string,
  ) {
    super(
      `${source} changed while it was being uploaded (expected ${expected}, found ${actual}); nothing was made. ` +
        "Run the operation again once the file is no longer being written.",
      { property: "source", fix: "upload again once the file is no longer being written" },
    );
  }
}

/** The API answered another checksum than that of the bytes sent: the content it holds is not the file. */
export class UploadChecksumError extends DeviceMgmtProblem {
  constructor(
    readonly source: string,
    readonly id: string,
    readonly algorithm: ChecksumAlgorithm,
    readonly sent: string,
    readonly answered: Checksum | undefined,
  ) {
    const got = answered === undefined ? "no checksum" : `${answered.algorithm} ${answered.value}`;
    super(
      `The ${algorithm} of ${source} as uploaded is ${sent}, but the API answered ${got} for ${id}: the ` +
        "content it holds is not this file. Upload it again (and delete the object if it is not wanted).",
      { property: "source", fix: "upload again" },
    );
  }
}

/** A complete's answer was lost and what it made cannot be found: whether the object exists is unknown. */
export class UploadOutcomeUnknownError extends DeviceMgmtProblem {
  constructor(
    readonly source: string,
    readonly id: string,
    readonly checksum: string,
  ) {
    super(
      `The answer to completing the upload of ${source} (${id}) was lost, and no object with its checksum ` +
        `${checksum} was found. Look for it in the organization before uploading again.`,
      { property: "source", fix: "look for the object before uploading again" },
    );
  }
}

/** The pre-sign answer lacked a part that was asked for. */
export class PresignMissingPartError extends DeviceMgmtProblem {
  constructor(readonly partNumber: number) {
    super(`The pre-sign answer has no URL for part ${partNumber}.`, { fix: "retry the upload" });
  }
}

/**
 * The checksum (hex) of a local file as the API computes it for a kind, streamed: a 4 GiB file costs a
 * buffer's worth of memory. What a caller takes at preview and passes as `expectedChecksum`.
 */
export async function checksumOfFile(source: string, algorithm: ChecksumAlgorithm): Promise<string> {
  const hash = createHash(NODE_HASH[algorithm]);
  for await (const chunk of createReadStream(source, { highWaterMark: MiB })) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** The vendor CLI's sizing: at least 5 MiB (or the size asked), whole MiB, few enough for 1000 parts. */
export function partSizeFor(totalBytes: number, asked = MIN_PART_BYTES): number {
  const needed = Math.max(asked, MIN_PART_BYTES, Math.ceil(totalBytes / MAX_PARTS));
  return Math.ceil(needed / MiB) * MiB;
}

/** Fills `buffer` from `position`, or less of it at the end of the file; answers the part read. */
async function readPart(file: import("node:fs/promises").FileHandle, position: number, buffer: Buffer) {
  let filled = 0;
  while (filled < buffer.length) {
    const { bytesRead } = await file.read(buffer, filled, buffer.length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}

/**
 * Pre-signed URLs by part, asked for 4 at a time (the part wanted and the next ones along that have none), and
 * asked for again when one expired: then the other unsent parts of the same answer are taken to be expired too
 * (they were signed at the same instant), so one call renews them all.
 */
class PresignedUrls {
  private readonly urls = new Map<number, Promise<string>>();
  /** The pre-sign answer each part's URL came from. */
  private readonly answers = new Map<number, Promise<PresignedPart[]>>();
  private readonly sent = new Set<number>();
  calls = 0;

  constructor(
    private readonly parts: number,
    private readonly ask: (partNumbers: number[]) => Promise<PresignedPart[]>,
    private readonly ahead: number,
  ) {}

  /** The part's URL; and the next `ahead` batches of URLs asked for now, so they are there when wanted. */
  get(partNumber: number): Promise<string> {
    const url = this.urlOf(partNumber);
    const last = Math.min(this.parts, partNumber + this.ahead * PRESIGN_BATCH);
    for (let n = partNumber + 1; n <= last; n++)
      if (!this.urls.has(n) && !this.sent.has(n)) void this.urlOf(n);
    return url;
  }

  private urlOf(partNumber: number): Promise<string> {
    const known = this.urls.get(partNumber);
    if (known) return known;
    const batch: number[] = [];
    for (let n = partNumber; n <= this.parts && batch.length < PRESIGN_BATCH; n++)
      if (!this.urls.has(n) && !this.sent.has(n)) batch.push(n);
    this.calls++;
    const answer = this.ask(batch);
    for (const n of batch) {
      const url = answer.then((signed) => {
        const found = signed.find((p) => p.partNumber === n);
        if (!found) throw new PresignMissingPartError(n);
        return found.url;
      });
      // A failed pre-sign is not remembered: the part asks again (and fails the upload if that fails too).
      url.catch(() => this.urls.get(n) === url && this.urls.delete(n));
      this.urls.set(n, url);
      this.answers.set(n, answer);
    }
    return this.urls.get(partNumber) as Promise<string>;
  }

  /** The part is stored: its URL is not needed again. */
  done(partNumber: number): void {
    this.sent.add(partNumber);
  }

  /**
   * `url` of this part expired: forget it, and the URLs of the same answer's unsent parts, unless a newer one
   * was asked for meanwhile.
   */
  async renew(partNumber: number, url: string): Promise<void> {
    const current = this.urls.get(partNumber);
    if (current === undefined) return;
    const latest = await current.catch(() => undefined);
    if (latest !== url || this.urls.get(partNumber) !== current) return;
    const answer = this.answers.get(partNumber);
    for (const [n, from] of this.answers)
      if (from === answer && !this.sent.has(n)) {
        this.urls.delete(n);
        this.answers.delete(n);
      }
  }
}

export async function uploadInParts<T>(
  protocol: UploadProtocol<T>,
  storage: RequestFn,
  options: UploadOptions,
): Promise<UploadResult<T>> {
  const { source } = options;
  const file = await open(source, "r");
  try {
    const totalBytes = (await file.stat()).size;
    const partSize = partSizeFor(totalBytes, options.partSizeBytes);
    const parts = Math.max(1, Math.ceil(totalBytes / partSize));
    const concurrency = Math.max(1, Math.floor(options.concurrency ?? DEFAULT_CONCURRENCY));
    const hash = createHash(NODE_HASH[protocol.algorithm]);

    const started = await protocol.initiate();
    const ids = { key: started.key, uploadId: started.uploadId };
    const urls = new PresignedUrls(
      parts,
      (partNumbers) => protocol.presign(started.id, { ...ids, partNumbers }),
      Math.max(0, Math.floor(options.presignAhead ?? DEFAULT_PRESIGN_AHEAD)),
    );
    const eTags = new Map<number, string>();
    const progress: UploadProgress = { sentBytes: 0, totalBytes, partsSent: 0, parts };

    const send = async (partNumber: number, bytes: Buffer) => {
      for (let renewals = 0; ; renewals++) {
        const url = await urls.get(partNumber);
        try {
          eTags.set(partNumber, await putPart(storage, url, bytes));
          urls.done(partNumber);
          break;
        } catch (error) {
          if (!(error instanceof PresignedUrlExpiredError) || renewals >= MAX_URL_RENEWALS) throw error;
          await urls.renew(partNumber, url);
        }
      }
      progress.sentBytes += bytes.length;
      progress.partsSent++;
      options.onProgress?.({ ...progress });
    };

    const inFlight = new Set<Promise<void>>();
    // One buffer per part in flight, reused: memory is `concurrency` parts whatever the file's size.
    const buffers: Buffer[] = [];
    let failure: { error: unknown } | undefined;
    let position = 0;
    for (let partNumber = 1; partNumber <= parts && failure === undefined; partNumber++) {
      while (inFlight.size >= concurrency) await Promise.race(inFlight);
      if (failure !== undefined) break;
      const buffer = buffers.pop() ?? Buffer.allocUnsafe(partSize);
      const length = Math.min(partSize, totalBytes - position);
      const bytes = await readPart(file, position, buffer.subarray(0, length));
      position += bytes.length;
      hash.update(bytes);
      const task: Promise<void> = send(partNumber, bytes)
        .catch((error: unknown) => void (failure ??= { error }))
        .finally(() => {
          inFlight.delete(task);
          buffers.push(buffer);
        });
      inFlight.add(task);
    }
    await Promise.all(inFlight);
    if (failure !== undefined) throw failure.error;

    const checksum = hash.digest("hex");
    const grown = (await readPart(file, position, Buffer.alloc(1))).length > 0;
    if (position !== totalBytes || grown)
      throw new SourceChangedError(source, `${totalBytes} bytes`, grown ? "more bytes" : `${position} bytes`);
    if (options.expectedChecksum !== undefined && options.expectedChecksum.toLowerCase() !== checksum)
      throw new SourceChangedError(source, options.expectedChecksum.toLowerCase(), checksum);

    const completion = {
      ...ids,
      parts: [...eTags].sort(([a], [b]) => a - b).map(([partNumber, eTag]) => ({ partNumber, eTag })),
    };
    const made = await completeOnce(protocol, started.id, completion, source, checksum);
    const answered = protocol.checksumOf(made);
    if (protocol.answersChecksum === false)
      return { made, checksum, sizeBytes: totalBytes, parts, presignCalls: urls.calls };
    if (answered?.algorithm !== protocol.algorithm || answered.value.toLowerCase() !== checksum)
      throw new UploadChecksumError(source, protocol.idOf(made), protocol.algorithm, checksum, answered);
    return { made, checksum, sizeBytes: totalBytes, parts, presignCalls: urls.calls };
  } finally {
    await file.close();
  }
}

/** How often a complete whose outcome stayed open (lost answer, 5xx) is sent, the first time included. */
export const COMPLETE_ATTEMPTS = 5;

/**
 * Completes, and after a lost answer (or a 5xx) completes again, up to COMPLETE_ATTEMPTS times: the upload id is
 * single-use, so a later attempt either makes the object (no earlier one was applied) or is refused with 404 (one
 * was), and then the object is found by its checksum.
 */
async function completeOnce<T>(
  protocol: UploadProtocol<T>,
  id: string,
  body: { key: string; uploadId: string; parts: UploadedPart[] },
  source: string,
  checksum: string,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await protocol.complete(id, body);
    } catch (error) {
      if (attempt > 1 && error instanceof NotFoundError) break;
      if (!(error instanceof AmbiguousWriteError) || attempt >= COMPLETE_ATTEMPTS) throw error;
    }
  }
  const found = await protocol.findCompleted(id, checksum);
  if (found === undefined) throw new UploadOutcomeUnknownError(source, id, checksum);
  return found;
}

/** What `DeviceMgmtClient.uploadFile` takes: the file, where it goes on devices, and what a same-named one becomes. */
export interface FileUploadOptions extends UploadOptions, InitiateFileUploadBody {
  conflictStrategy?: ConflictStrategy;
}

/** Files: SHA-512; after a lost complete, the file of that name, path and checksum (newest first). */
export function fileUploadProtocol(
  files: FileOperations,
  options: FileUploadOptions,
): UploadProtocol<DeviceFile> {
  const { filename, path, appBundleId, conflictStrategy } = options;
  return {
    algorithm: "SHA-512",
    initiate: async () => {
      const started = await files.initiateUpload({ filename, path, ...(appBundleId ? { appBundleId } : {}) });
      return { id: started.fileId, key: started.key, uploadId: started.uploadId };
    },
    presign: (id, body) => files.presignUpload(id, body),
    complete: (id, body) =>
      files.completeUpload(id, { ...body, ...(conflictStrategy ? { conflictStrategy } : {}) }),
    checksumOf: (file) => file.checksum,
    idOf: (file) => file.id,
    findCompleted: async (id, checksum) => {
      const same = (file: DeviceFile) => file.checksum.value.toLowerCase() === checksum;
      const byId = await files.get(id).catch((error: unknown) => {
        if (error instanceof NotFoundError) return undefined;
        throw error;
      });
      if (byId !== undefined && same(byId)) return byId;
      // Under a reading where `replace` keeps the replaced file's id, the upload's own id never became a file.
      const candidates = (await files.all()).filter(
        (f) => f.filename === filename && f.location === path && same(f),
      );
      return candidates.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))[0];
    },
  };
}

/** What `DeviceMgmtClient.uploadBundleFile` takes: a file uploaded into a pending bundle of `appId`. */
export interface BundleFileUploadOptions extends FileUploadOptions {
  appId: string;
  appBundleId: string;
}

/**
 * A bundle's data file: a file upload with `appBundleId`; after a lost complete, what it made is among the app's
 * bundle files (`GET /apps/{appId}/files?sha512[]=`), which need not be among the organization's files.
 */
export function bundleFileUploadProtocol(
  files: FileOperations,
  appBundles: AppBundleOperations,
  options: BundleFileUploadOptions,
): UploadProtocol<DeviceFile> {
  return {
    ...fileUploadProtocol(files, options),
    findCompleted: async (id, checksum) => {
      const found = await appBundles.appFilesBySha512(options.appId, [checksum]);
      const same = (f: DeviceFile) => f.filename === options.filename && f.location === options.path;
      return found.find((f) => f.id === id) ?? found.find(same);
    },
  };
}

/** What `DeviceMgmtClient.uploadVideo` takes: the file and how the video renders. */
export interface VideoUploadOptions extends UploadOptions, InitiateVideoUploadBody {}

/** Videos: SHA-512; after a lost complete, the video of that id (or filename) with the checksum. */
export function videoUploadProtocol(
  videos: VideoOperations,
  options: VideoUploadOptions,
): UploadProtocol<Video> {
  const { filename, videoType, videoMapping, videoDisplay, videoPacking, audioEncoding } = options;
  const rendering = Object.fromEntries(
    Object.entries({ videoMapping, videoDisplay, videoPacking }).filter(([, value]) => value !== undefined),
  );
  return {
    algorithm: "SHA-512",
    initiate: async () => {
      const started = await videos.initiateUpload({ filename, videoType, audioEncoding, ...rendering });
      return { id: started.videoId, key: started.key, uploadId: started.uploadId };
    },
    presign: (id, body) => videos.presignUpload(id, body),
    complete: (id, body) => videos.completeUpload(id, body),
    checksumOf: (video) => video.checksum,
    idOf: (video) => video.id,
    findCompleted: async (id, checksum) => {
      const same = (video: Video) => video.checksum.value.toLowerCase() === checksum;
      const byId = await videos.get(id).catch((error: unknown) => {
        if (error instanceof NotFoundError) return undefined;
        throw error;
      });
      if (byId !== undefined && same(byId)) return byId;
      const candidates = (await videos.all()).filter((v) => v.filename === filename && same(v));
      return candidates.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))[0];
    },
  };
}

/** What `DeviceMgmtClient.uploadAppVersion` takes: the .apk, its app, and the build's name and notes. */
export interface AppVersionUploadOptions extends UploadOptions {
  appId: string;
  /** The name the upload is initiated with (the .apk's own name). */
  filename: string;
  versionName?: string | null;
  releaseNotes?: string | null;
  /** How long to wait for the build's processing to end (default: the client's `processingTimeoutMs`). */
  processingTimeoutMs?: number;
  /** Each status the build is seen in while it is processed. */
  onStatus?: (status: string) => void;
}

/** The statuses in which a build is still on its way to `available` (the OpenAPI's enum, less the two ends). */
const PROCESSING = new Set([
  "pending",
  "uploaded",
  "downloading-content",
  "parsing-content",
  "verifying-package-name",
  "verifying-version-code",
  "verifying-insights-sdk",
  "verifying-signature",
  "parsing-content-icon",
  "finalizing-build-processing",
]);

/** Whether a build is still being processed (neither available nor failed). */
export function buildInProgress(build: AppBuild): boolean {
  return PROCESSING.has(build.status ?? "available");
}

/** The build's processing ended in `error`: the run fails with what the API says. */
export class AppBuildFailedError extends DeviceMgmtProblem {
  constructor(
    readonly appId: string,
    readonly versionId: string,
    readonly reason: string | null,
  ) {
    super(
      `The build ${versionId} of app ${appId} ended its processing in error: ${reason ?? "the API gives no reason (see the app in the portal)"}. ` +
        "The build cannot be promoted; fix the .apk and upload it again (the failed build stays in the app: the API cannot delete builds).",
      { kind: "AppVersion", property: "source", fix: "fix the .apk and upload it again" },
    );
  }
}

/** The build was still being processed when the wait ended (the next run finds it by its hash and waits). */
export class AppBuildTimeoutError extends ProcessingTimeoutError {
  constructor(
    readonly appId: string,
    readonly versionId: string,
    readonly status: string,
    readonly waitedMs: number,
  ) {
    super(
      `The build ${versionId} of app ${appId} was still "${status}" after ${Math.round(waitedMs / 1000)} s. ` +
        PROCESSING_TIMEOUT_ADVICE,
      {
        kind: "AppVersion",
        property: PROCESSING_TIMEOUT_SETTING,
        fix: `run pulumi up again later, or raise ${PROCESSING_TIMEOUT_SETTING}`,
      },
    );
  }
}

/** The build is no longer listed while it was being waited for. */
export class AppBuildGoneError extends DeviceMgmtProblem {
  constructor(
    readonly appId: string,
    readonly versionId: string,
  ) {
    super(`The build ${versionId} of app ${appId} is no longer listed while it was being processed.`, {
      kind: "AppVersion",
      fix: "look for the build in the portal, then run the operation again",
    });
  }
}

/** A build of the app by id, looked for among the builds of its checksum (there is no single-version GET). */
async function listedBuild(releases: ReleaseOperations, appId: string, id: string, sha256: string) {
  for await (const build of releases.versions(appId, [sha256])) if (build.id === id) return build;
  return undefined;
}

/**
 * Waits until a build is `available` (answered) or `error` (AppBuildFailedError with the API's reason), reading
 * it by listing the app's builds of its checksum, polling at 0.1 s, doubling to 2 s.
 */
export async function awaitBuild(
  releases: ReleaseOperations,
  appId: string,
  build: AppBuild,
  options: { processingTimeoutMs?: number; onStatus?: (status: string) => void } = {},
): Promise<AppBuild> {
  const sha256 = build.checksum?.value.toLowerCase() ?? "";
  const timeout = options.processingTimeoutMs ?? DEFAULT_PROCESSING_TIMEOUT_MS;
  const started = Date.now();
  let current: AppBuild = build;
  let seen = "";
  for (let pause = 100; ; pause = Math.min(2 * pause, 2000)) {
    const status = current.status ?? "available";
    if (status !== seen) options.onStatus?.((seen = status));
    if (status === "error") throw new AppBuildFailedError(appId, current.id, current.statusReason ?? null);
    if (!buildInProgress(current)) return current;
    const waited = Date.now() - started;
    if (waited >= timeout) throw new AppBuildTimeoutError(appId, current.id, status, waited);
    // Not past the bound: a short wait gives up when it says, not a pause later.
    await new Promise((resolve) => setTimeout(resolve, Math.min(pause, timeout - waited)));
    const listed = await listedBuild(releases, appId, current.id, sha256);
    if (listed === undefined) throw new AppBuildGoneError(appId, current.id);
    current = listed;
  }
}

/** App builds: SHA-256; after a lost complete, the app's build of that id (or checksum), newest first. */
export function appVersionUploadProtocol(
  releases: ReleaseOperations,
  options: AppVersionUploadOptions,
): UploadProtocol<AppBuild> {
  const { appId, filename, versionName, releaseNotes } = options;
  const named = Object.fromEntries(
    Object.entries({ versionName, releaseNotes }).filter(([, value]) => value !== undefined),
  );
  return {
    algorithm: "SHA-256",
    initiate: async () => {
      const started = await releases.initiateVersionUpload(appId, filename);
      return { id: started.versionId, key: started.key, uploadId: started.uploadId };
    },
    presign: (id, body) => releases.presignVersionUpload(appId, id, body),
    complete: (id, body) => releases.completeVersionUpload(appId, id, { ...body, ...named }),
    checksumOf: (build) => build.checksum,
    idOf: (build) => build.id,
    findCompleted: async (id, checksum) => {
      const same = await releases.versions(appId, [checksum]).all();
      return same.find((b) => b.id === id) ?? same[0];
    },
  };
}
/** What `DeviceMgmtClient.uploadImage` / `uploadCustom3DEnvironment` take: the file and the name it is sent as. */
export interface NamedUploadOptions extends UploadOptions {
  /** The name the API records (`originalFileName` of an image, `objectName` of an environment). */
  filename: string;
}

/** After a lost complete: what the upload's own id became, if anything (no checksum to find it by). */
async function madeUnderId<T>(read: () => Promise<T>): Promise<T | undefined> {
  return read().catch((error: unknown) => {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  });
}

/** The upload operations images and 3D environments share (their initiate answers the id under its own name). */
interface UncheckedUploads<T, Start> {
  initiateUpload(body: { filename: string }): Promise<Start & { key: string; uploadId: string }>;
  presignUpload(
    id: string,
    body: { key: string; uploadId: string; partNumbers: number[] },
  ): Promise<PresignedPart[]>;
  completeUpload(id: string, body: { key: string; uploadId: string; parts: UploadedPart[] }): Promise<T>;
  get(id: string): Promise<T>;
}

/**
 * A kind the API answers no checksum for: the SHA-512 of the bytes sent is kept by the caller as the identity
 * (compared with the one taken at preview); after a lost complete, the object of the upload's own id.
 */
function uncheckedUploadProtocol<T extends { id: string }, Start>(
  operations: UncheckedUploads<T, Start>,
  idOfStart: (started: Start) => string,
  filename: string,
): UploadProtocol<T> {
  return {
    algorithm: "SHA-512",
    answersChecksum: false,
    initiate: async () => {
      const started = await operations.initiateUpload({ filename });
      return { id: idOfStart(started), key: started.key, uploadId: started.uploadId };
    },
    presign: (id, body) => operations.presignUpload(id, body),
    complete: (id, body) => operations.completeUpload(id, body),
    checksumOf: () => undefined,
    idOf: (made) => made.id,
    findCompleted: (id) => madeUnderId(() => operations.get(id)),
  };
}

/** Images: no checksum answered (see `uncheckedUploadProtocol`). */
export function imageUploadProtocol(
  images: ImageOperations,
  options: NamedUploadOptions,
): UploadProtocol<Image> {
  return uncheckedUploadProtocol(images, (started) => started.imageId, options.filename);
}

/** Custom 3D environments (`.glb`): no checksum answered (see `uncheckedUploadProtocol`). */
export function custom3DEnvironmentUploadProtocol(
  environments: Custom3DEnvironmentOperations,
  options: NamedUploadOptions,
): UploadProtocol<Custom3DEnvironment> {
  return uncheckedUploadProtocol(environments, (started) => started.custom3DEnvironmentId, options.filename);
}
