/**
 * Downloading content from the signed `downloadUrl` the API answers, to a local file: through the storage chain
 * (./storage: no token, outside the rate budget, retried on its own; a GET, so a lost connection is sent again),
 * the body streamed to disk (never the whole file in memory), then verified against the checksum the API
 * answers for the object. The bytes go to `<destination>.part` first and are renamed only once verified, so a
 * failed or refused download never leaves a file that looks complete. An expired URL is asked for again
 * (`renewUrl`, which reads the object anew) a few times before it is taken as the storage host's problem.
 */
import { rename, rm, stat } from "node:fs/promises";
import { DeviceMgmtProblem } from "../errors";
import type { RequestFn } from "./chain";
import { userAgent } from "./connection";
import { PresignedUrlExpiredError } from "./errors";
import { checksumOfFile, type ChecksumAlgorithm } from "./upload";
import type { Checksum } from "./types";

/** New URLs asked for before an expiry is taken as the storage host's problem. */
const MAX_URL_RENEWALS = 3;
const ALGORITHMS: readonly ChecksumAlgorithm[] = ["SHA-512", "SHA-256"];

export interface DownloadOptions {
  /** The signed URL the API answered (`downloadUrl`). */
  url: string;
  /** The local file to write (its folder must exist); replaced only once the bytes are verified. */
  destination: string;
  /** What the content is, for messages (e.g. `file "manual.pdf" (id)`). */
  label: string;
  /** The checksum the API answers for the content: the bytes must have it. Absent: the kind answers none. */
  expected?: Checksum;
  /** A new URL once the given one expired (the object read again); null or undefined: none to be had. */
  renewUrl?: () => Promise<string | null | undefined>;
}

export interface DownloadResult {
  sizeBytes: number;
  /** The checksum of the bytes written (hex, the expected checksum's algorithm); absent without one. */
  checksum?: string;
}

/** The bytes downloaded are not the content the API describes: refused, nothing written. */
export class DownloadChecksumError extends DeviceMgmtProblem {
  constructor(
    readonly label: string,
    readonly expected: Checksum,
    readonly actual: string | undefined,
  ) {
    super(
      actual === undefined
        ? `${label}: the API answers a ${expected.algorithm} checksum, which this client cannot compute; the ` +
            "download was refused. Download it by hand and verify it."
        : `${label}: the bytes downloaded have the ${expected.algorithm} ${actual}, but the API answers ` +
            `${expected.value}; the download was refused and nothing was written. Export again; if it ` +
            "persists, the stored content is not what the API describes.",
      { property: "downloadUrl", fix: "export again, or download the content by hand and verify it" },
    );
  }
}

/** The download URL expired and no new one could be had. */
export class DownloadUrlExpiredError extends DeviceMgmtProblem {
  constructor(readonly label: string) {
    super(`${label}: its download URL expired and the API answered no new one. Export again.`, {
      property: "downloadUrl",
      fix: "export again",
    });
  }
}

/** GETs `url` through `chain` into `file` (each attempt writes it anew). */
async function getInto(chain: RequestFn, url: string, file: string): Promise<void> {
  const parsed = new URL(url);
  await chain({
    method: "GET",
    url: parsed,
    // The query is the signature: logs and errors show the object's path only.
    shownPath: parsed.pathname,
    headers: { "user-agent": userAgent() },
    saveTo: file,
  });
}

/** Downloads `options.url` to `options.destination` through the storage chain, verified as the module says. */
export async function downloadToFile(chain: RequestFn, options: DownloadOptions): Promise<DownloadResult> {
  const partial = `${options.destination}.part`;
  try {
    let url = options.url;
    for (let renewals = 0; ; renewals++) {
      try {
        await getInto(chain, url, partial);
        break;
      } catch (error) {
        if (!(error instanceof PresignedUrlExpiredError) || !options.renewUrl || renewals >= MAX_URL_RENEWALS)
          throw error instanceof PresignedUrlExpiredError
            ? new DownloadUrlExpiredError(options.label)
            : error;
        const renewed = await options.renewUrl();
        if (!renewed) throw new DownloadUrlExpiredError(options.label);
        url = renewed;
      }
    }
    const { size } = await stat(partial);
    let checksum: string | undefined;
    if (options.expected !== undefined) {
      const algorithm = ALGORITHMS.find((a) => a === options.expected?.algorithm.toUpperCase());
      checksum = algorithm === undefined ? undefined : await checksumOfFile(partial, algorithm);
      if (checksum === undefined || checksum !== options.expected.value.toLowerCase())
        throw new DownloadChecksumError(options.label, options.expected, checksum);
    }
    await rename(partial, options.destination);
    return { sizeBytes: size, ...(checksum !== undefined ? { checksum } : {}) };
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}
