/**
 * The client's error hierarchy. Every failure a caller can see is one of these classes, built in one place
 * (`errorFromResponse` for HTTP answers, the constructors below for transport failures), so messages have
 * one format: method, path, status, the server's message and field errors — and never the API token.
 */
import { z } from "zod";
import { redact } from "./redact";

export const TOKEN_HELP =
  "Use a v3 API token: create one in the management portal under Settings > Access Tokens " +
  "(v2 organization tokens are not accepted by the v3 API).";

export interface ErrorDetails {
  method: string;
  /** Request path including the query string, without scheme and host. */
  path: string;
  status?: number;
  serverMessage?: string;
  fieldErrors?: Record<string, string[]>;
  /** Number of attempts made for this call, when known. */
  attempts?: number;
  /**
   * True when an earlier attempt of this call may have been applied by the server before this error was
   * received (for example a DELETE whose first attempt timed out and whose retry answered 404).
   */
  afterAmbiguousAttempt?: boolean;
  cause?: unknown;
  /** Strings scrubbed from every text field of the error (the token); never stored on the error. */
  secrets?: readonly string[];
}

export class DeviceMgmtError extends Error {
  readonly method: string;
  readonly path: string;
  readonly status?: number;
  readonly serverMessage?: string;
  readonly fieldErrors?: Record<string, string[]>;
  readonly attempts?: number;
  readonly afterAmbiguousAttempt: boolean;

  constructor(rawDetails: ErrorDetails, explanation?: string) {
    const details = scrubbed(rawDetails);
    const secrets = rawDetails.secrets ?? [];
    super(
      redact(composeMessage(details, explanation), secrets),
      details.cause === undefined ? undefined : { cause: details.cause },
    );
    this.name = new.target.name;
    this.method = details.method;
    this.path = details.path;
    this.status = details.status;
    this.serverMessage = details.serverMessage;
    this.fieldErrors = details.fieldErrors;
    this.attempts = details.attempts;
    this.afterAmbiguousAttempt = details.afterAmbiguousAttempt ?? false;
  }
}

export class BadRequestError extends DeviceMgmtError {}

export class UnauthorizedError extends DeviceMgmtError {
  constructor(details: ErrorDetails) {
    super(details, `The API token was rejected (missing, invalid, expired or revoked). ${TOKEN_HELP}`);
  }
}

export class ForbiddenError extends DeviceMgmtError {
  constructor(details: ErrorDetails) {
    super(details, "The token's user lacks a permission this operation needs in this organization.");
  }
}

export class NotFoundError extends DeviceMgmtError {}

export class ValidationError extends DeviceMgmtError {}

export class RateLimitedError extends DeviceMgmtError {
  /** Server's Retry-After, in milliseconds, when it sent one. */
  readonly retryAfterMs?: number;
  /** When the server allows the request again (from Retry-After), when that is a representable date. */
  readonly retryAt?: Date;
  constructor(details: ErrorDetails, retryAfterMs?: number, note?: string) {
    const retryAt = retryAfterMs === undefined ? undefined : dateAfter(retryAfterMs);
    let explanation = "Rate limit exceeded.";
    if (retryAfterMs !== undefined) {
      explanation = `Rate limit exceeded; the server asked to retry after ${Math.ceil(retryAfterMs / 1000)} s`;
      explanation += retryAt === undefined ? "." : ` (at ${retryAt.toISOString()}).`;
    }
    super(details, note === undefined ? explanation : `${explanation} ${note}`);
    this.retryAfterMs = retryAfterMs;
    this.retryAt = retryAt;
  }
}

/** `now + ms` as a Date, or undefined when it lies beyond the range a Date can hold. */
function dateAfter(ms: number): Date | undefined {
  const at = Date.now() + ms;
  return Number.isFinite(at) && at <= 8.64e15 ? new Date(at) : undefined;
}

export class ServerError extends DeviceMgmtError {}

/** The request failed without an HTTP answer: connection refused or reset, DNS failure, timeout. */
export class NetworkError extends DeviceMgmtError {
  /** False when the request certainly never reached the server (e.g. connection refused). */
  readonly requestSent: boolean;
  constructor(details: ErrorDetails, requestSent: boolean, explanation?: string) {
    super(details, explanation ?? describeCause(details.cause));
    this.requestSent = requestSent;
  }
}

/**
 * A non-idempotent write (POST) failed in a way that leaves open whether the server applied it: a timeout
 * or reset after the request was sent, or a 5xx answer. It is not retried, because a retry could create a
 * duplicate; callers look for the object (by its natural key) before creating it again.
 */
export class AmbiguousWriteError extends NetworkError {
  constructor(details: ErrorDetails) {
    super(
      details,
      true,
      "The write may or may not have been applied; it was not retried to avoid a duplicate. " +
        "Look the object up before creating it again." +
        (details.cause instanceof Error ? ` Cause: ${details.cause.message}` : ""),
    );
  }
}

/** A successful answer whose body does not match the v3 schema. */
export class ResponseShapeError extends DeviceMgmtError {
  readonly issues: string[];
  constructor(details: ErrorDetails, issues: string[]) {
    super(details, `The response does not match the v3 API schema: ${issues.join("; ")}`);
    this.issues = issues;
  }
}

/** The token is a v2 token (or otherwise not usable with v3); refused before any change is made. */
export class UnsupportedTokenError extends DeviceMgmtError {
  constructor(details: ErrorDetails, reason: string) {
    super(details, `${reason} v2 tokens are not accepted by the v3 API. ${TOKEN_HELP}`);
  }
}

/**
 * A storage host refused a part PUT (its answer is S3's XML error document, not the API's JSON): `code` is the
 * document's `<Code>`, `partNumber` the part. The path shown is the object's, never the pre-signed query.
 */
export class StorageError extends DeviceMgmtError {
  readonly code?: string;
  readonly partNumber?: number;
  constructor(details: ErrorDetails, code: string | undefined, partNumber: number | undefined) {
    super(details, partNumber === undefined ? undefined : `Part ${partNumber} was not stored.`);
    this.code = code;
    this.partNumber = partNumber;
  }
}

/** A pre-signed URL past its expiry (403 "Request has expired"): the uploader asks the API for a new one. */
export class PresignedUrlExpiredError extends StorageError {}

/** Laravel-style error body: `{ message, errors: { field: [messages] } }`; anything else is tolerated. */
const errorBodySchema = z.object({
  message: z.string().optional(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});

export interface ErrorResponse {
  method: string;
  path: string;
  status: number;
  /** Parsed JSON body, raw text, or undefined when the answer had none. */
  body: unknown;
  retryAfterMs?: number;
  attempts?: number;
  afterAmbiguousAttempt?: boolean;
  /** Strings to scrub from every part of the error (the token). */
  secrets: readonly string[];
  /** Why a retryable answer was not retried (429 and 5xx only), appended to the message. */
  note?: string;
}

/** Builds the error class that matches an HTTP answer's status. */
export function errorFromResponse(response: ErrorResponse): DeviceMgmtError {
  const parsed = errorBodySchema.safeParse(response.body);
  let serverMessage: string | undefined;
  let fieldErrors: Record<string, string[]> | undefined;
  if (parsed.success) {
    serverMessage = parsed.data.message;
    fieldErrors = parsed.data.errors;
  } else if (typeof response.body === "string" && response.body.trim() !== "") {
    serverMessage = response.body.trim().slice(0, 300);
  }
  const details: ErrorDetails = {
    method: response.method,
    path: response.path,
    status: response.status,
    serverMessage,
    fieldErrors,
    attempts: response.attempts,
    afterAmbiguousAttempt: response.afterAmbiguousAttempt,
    secrets: response.secrets,
  };
  const status = response.status;
  if (status === 400) return new BadRequestError(details);
  if (status === 401) return new UnauthorizedError(details);
  if (status === 403) return new ForbiddenError(details);
  if (status === 404) return new NotFoundError(details);
  if (status === 422) return new ValidationError(details);
  if (status === 429) return new RateLimitedError(details, response.retryAfterMs, response.note);
  if (status >= 500) return new ServerError(details, response.note);
  return new DeviceMgmtError(details);
}

function scrubbed(details: ErrorDetails): ErrorDetails {
  const secrets = details.secrets ?? [];
  const clean = (text: string) => redact(text, secrets);
  return {
    ...details,
    path: clean(details.path),
    serverMessage: details.serverMessage === undefined ? undefined : clean(details.serverMessage),
    fieldErrors:
      details.fieldErrors === undefined
        ? undefined
        : Object.fromEntries(
            Object.entries(details.fieldErrors).map(([field, messages]) => [
              clean(field),
              messages.map(clean),
            ]),
          ),
    secrets: undefined,
  };
}

function composeMessage(details: ErrorDetails, explanation?: string): string {
  const parts = [`${details.method} ${details.path}`];
  if (details.status !== undefined) parts.push(`failed with status ${details.status}`);
  else parts.push("failed");
  let message = parts.join(" ");
  if (details.serverMessage) message += `: ${details.serverMessage}`;
  const fields = Object.entries(details.fieldErrors ?? {});
  if (fields.length > 0) {
    message += ` (${fields.map(([field, messages]) => `${field}: ${messages.join(" ")}`).join("; ")})`;
  }
  if (explanation) message += `. ${explanation}`;
  if (details.attempts !== undefined && details.attempts > 1)
    message += ` [after ${details.attempts} attempts]`;
  return message;
}

function describeCause(cause: unknown): string | undefined {
  if (!(cause instanceof Error)) return undefined;
  const code = (cause as { code?: unknown }).code;
  return typeof code === "string" ? `${code}: ${cause.message}` : cause.message;
}
