/**
 * The request log on stderr, switched by DEVICEMGMT_LOG:
 * - `debug`: a line per attempt (method, path, status, ms, retry, time waited for the rate limiter);
 * - `retries`: only the attempts of requests that were retried (the failed one that is retried, and each
 *   retry), which costs nothing per request that succeeds at once (the bench counts retries from it).
 */
import { type Attempt, isSuccess, type RequestFn } from "./chain";
import { redact } from "./redact";

export interface AttemptLogEntry {
  method: string;
  shownPath: string;
  result: Attempt;
  ms: number;
  /** Retries before this attempt (0 for the first). */
  retry: number;
  /** Whether this failed attempt is retried. */
  retrying: boolean;
  throttledMs: number;
}

export interface LogSink {
  logger: (line: string) => void;
  secrets: readonly string[];
}

export function logAttempt(entry: AttemptLogEntry, sink: LogSink): void {
  // Read at call time so the variable can be switched on in a running process (e.g. by a test).
  const level = process.env.DEVICEMGMT_LOG;
  if (level !== "debug" && !(level === "retries" && (entry.retry > 0 || entry.retrying))) return;
  const { method, shownPath, result, ms, retry, throttledMs } = entry;
  const outcome = result.kind === "answer" ? String(result.status) : (result.code ?? "network-error");
  const waited = throttledMs > 0 ? ` throttled=${throttledMs}ms` : "";
  const line = `devicemgmt: ${method} ${shownPath} ${outcome} ${ms}ms retry=${retry}${waited}`;
  sink.logger(redact(line, sink.secrets));
}

/**
 * Logs each attempt sent through `next`. Whether a failed first attempt is retried is decided further out
 * (withRetry), so under `retries` its line is held and written when the call's next attempt starts: a call
 * that is not retried writes nothing.
 */
export function withAttemptLog(next: RequestFn, sink: LogSink): RequestFn {
  const heldFirstAttempt = new WeakMap<object, AttemptLogEntry>();
  return async (req) => {
    const retry = (req.attempt ?? 1) - 1;
    const held = req.call === undefined ? undefined : heldFirstAttempt.get(req.call);
    if (held !== undefined) {
      heldFirstAttempt.delete(req.call as object);
      logAttempt({ ...held, retrying: true }, sink);
    }
    const started = Date.now();
    const result = await next(req);
    const entry: AttemptLogEntry = {
      method: req.method,
      shownPath: req.shownPath,
      result,
      ms: Date.now() - started,
      retry,
      retrying: false,
      throttledMs: req.throttledMs ?? 0,
    };
    const { call } = req;
    const mayBeRetried = retry === 0 && call !== undefined && !isSuccess(result);
    if (mayBeRetried && process.env.DEVICEMGMT_LOG === "retries") heldFirstAttempt.set(call, entry);
    else logAttempt(entry, sink);
    return result;
  };
}
