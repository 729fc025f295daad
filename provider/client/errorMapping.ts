/**
 * The outermost concern of the request chain (./chain): a call that did not end in a 2xx becomes one of the
 * errors of ./errors, with the attempts withRetry made and whether an earlier one may have been applied.
 */
import { type Attempt, headerValue, isSuccess, type RequestFn, type RetrySummary } from "./chain";
import { AmbiguousWriteError, type DeviceMgmtError, errorFromResponse, NetworkError } from "./errors";
import { DEFAULT_MAX_RETRY_AFTER_MS, parseRetryAfter } from "./retry";

export interface ErrorMappingSettings {
  /** Scrubbed from every error (the token). */
  secrets: readonly string[];
  /** The response timeout, named in the message of a timed-out attempt. */
  timeoutMs: number;
  /** The retry setting a too-long Retry-After is explained with. */
  maxRetryAfterMs?: number;
}

const TIMEOUT_CODES = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

/** Passes a success on and throws the error a failure means. */
export function withErrorMapping(next: RequestFn, settings: ErrorMappingSettings): RequestFn {
  return async (req) => {
    const response = await next(req);
    if (isSuccess(response)) return response;
    const summary: RetrySummary = response.retry ?? { attempts: 1, afterAmbiguousAttempt: false };
    const error = errorFor(req.method, req.shownPath, response, summary, settings);
    if (summary.stop?.ambiguousWrite) {
      throw new AmbiguousWriteError({
        method: req.method,
        path: req.shownPath,
        status: error.status,
        attempts: summary.attempts,
        cause: error,
        secrets: settings.secrets,
      });
    }
    throw error;
  };
}

function errorFor(
  method: string,
  path: string,
  result: Attempt,
  summary: RetrySummary,
  settings: ErrorMappingSettings,
): DeviceMgmtError {
  const { secrets } = settings;
  const { attempts, afterAmbiguousAttempt } = summary;
  if (result.kind === "network") {
    const timedOut = result.code !== undefined && TIMEOUT_CODES.has(result.code);
    return new NetworkError(
      { method, path, attempts, afterAmbiguousAttempt, cause: result.error, secrets },
      result.sent,
      timedOut ? `No response within ${settings.timeoutMs} ms (${result.code}).` : undefined,
    );
  }
  return errorFromResponse({
    method,
    path,
    status: result.status,
    body: parseErrorBody(result.text),
    retryAfterMs: parseRetryAfter(headerValue(result.headers, "retry-after"), Date.now()),
    attempts,
    afterAmbiguousAttempt,
    secrets,
    note: summary.stop?.reason === "retry-after-too-long" ? tooLongNote(settings.maxRetryAfterMs) : undefined,
  });
}

/** Why a Retry-After was not waited for, and the setting that decides it. */
function tooLongNote(maxRetryAfterMs: number | undefined): string {
  const max = Math.round((maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS) / 1000);
  return (
    `Not retried: that is longer than the longest wait this client accepts (${max} s, option ` +
    "retry.maxRetryAfterMs); run the operation again after that time."
  );
}

function parseErrorBody(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
