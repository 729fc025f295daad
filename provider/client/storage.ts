/**
 * The storage request chain: how one part of an upload is PUT to the pre-signed URL the API handed out. It is a
 * chain of its own (./chain), not the API's with flags: the URL is the only credential, so no bearer token is
 * added and any credential header is stripped before the send (withoutCredentials); the storage host is not the
 * API, so the organization's throttle and its request counters are not in it (pre-sign calls, which are API
 * operations, go through the API's chain and spend its budget); and a part is retried on its own
 * (withRetry with the storage policy: a PUT, so a 5xx, a 429 or a lost connection is sent again) and its
 * failures read as a storage host's (withStorageErrors: S3's XML error document).
 *
 *   withStorageErrors → withRetry → withAttemptLog → withoutCredentials → sendOnce
 */
import type { Dispatcher } from "undici";
import { withAttemptLog, type LogSink } from "./attemptLog";
import { headerValue, isSuccess, type RequestFn } from "./chain";
import { userAgent } from "./connection";
import { NetworkError, PresignedUrlExpiredError, StorageError } from "./errors";
import { sendOnce } from "./http";
import { type BackoffSettings, type RetryPolicy, withRetry } from "./retry";

/** Headers a storage request never carries: the pre-signed URL is its only credential. */
const CREDENTIAL_HEADERS = ["authorization", "cookie", "proxy-authorization"];

/**
 * Removes every credential header from requests sent through `next`, whatever added it: the API token must
 * never reach a storage host (another party's host, with its own logs), and S3 refuses a request that carries
 * two authentication mechanisms.
 */
export function withoutCredentials(next: RequestFn): RequestFn {
  return (req) => {
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([name]) => !CREDENTIAL_HEADERS.includes(name.toLowerCase())),
    );
    return next({ ...req, headers });
  };
}

/** `<Code>` and `<Message>` of S3's XML error document, when the answer is one. */
export function storageErrorFields(text: string): { code?: string; message?: string } {
  const field = (name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(text)?.[1]?.trim();
  return { code: field("Code"), message: field("Message") };
}

/** Whether a 403 says the pre-signed URL is past its expiry (S3: AccessDenied, "Request has expired"). */
function expired(status: number, message: string | undefined): boolean {
  return status === 403 && message !== undefined && /expired/i.test(message);
}

/** Passes a success on; a failure becomes a StorageError (PresignedUrlExpiredError for an expired URL). */
export function withStorageErrors(next: RequestFn): RequestFn {
  return async (req) => {
    const response = await next(req);
    if (isSuccess(response)) return response;
    const attempts = response.retry?.attempts ?? 1;
    const partNumber = Number(req.url.searchParams.get("partNumber")) || undefined;
    const base = { method: req.method, path: req.shownPath, attempts };
    if (response.kind === "network") {
      throw new NetworkError({ ...base, cause: response.error }, response.sent);
    }
    const { code, message } = storageErrorFields(response.text);
    const details = { ...base, status: response.status, serverMessage: message ?? code };
    if (expired(response.status, message)) throw new PresignedUrlExpiredError(details, code, partNumber);
    throw new StorageError(details, code, partNumber);
  };
}

/**
 * Retrying one part: more patient than the API's (a part is megabytes, a storage host's 503 "SlowDown" asks
 * for time) and bounded by its own deadline, since no rate budget paces it.
 */
export const STORAGE_BACKOFF: BackoffSettings = {
  baseDelayMs: 500,
  maxDelayMs: 20_000,
  maxAttempts: 6,
  maxRetryAfterMs: 120_000,
};

export interface StorageChainSettings {
  dispatcher: Dispatcher;
  /** Per-attempt timeout for the answer's headers and for each gap while sending or reading. */
  timeoutMs: number;
  log: LogSink;
  retry: RetryPolicy;
}

export function storageChain(settings: StorageChainSettings): RequestFn {
  const sent = withoutCredentials(
    sendOnce({ dispatcher: settings.dispatcher, timeoutMs: settings.timeoutMs }),
  );
  return withStorageErrors(withRetry(withAttemptLog(sent, settings.log), settings.retry));
}

/** PUTs one part's bytes to its pre-signed URL through `chain`; answers the part's ETag. */
export async function putPart(chain: RequestFn, presignedUrl: string, bytes: Uint8Array): Promise<string> {
  const url = new URL(presignedUrl);
  // The query is the signature: logs and errors show the object's path only.
  const shownPath = `${url.pathname} (part ${url.searchParams.get("partNumber") ?? "?"})`;
  const response = await chain({
    method: "PUT",
    url,
    shownPath,
    headers: { "user-agent": userAgent(), "content-type": "application/octet-stream" },
    body: bytes,
  });
  const eTag = response.kind === "answer" ? headerValue(response.headers, "etag") : undefined;
  if (eTag === undefined || eTag === "") {
    throw new StorageError(
      {
        method: "PUT",
        path: shownPath,
        status: response.kind === "answer" ? response.status : undefined,
        serverMessage: "the storage host answered without an ETag header",
      },
      undefined,
      Number(url.searchParams.get("partNumber")) || undefined,
    );
  }
  return eTag;
}
