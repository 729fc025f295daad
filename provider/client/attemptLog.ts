/**
 * The request log on stderr, switched by DEVICEMGMT_LOG:
 * - `debug`: a line per attempt (method, path, status, ms, retry, time waited for the rate limiter);
 * - `retries`: only the attempts of requests that were retried (the failed attempt that is retried, and each
 *   retry), which costs nothing per request that succeeds at once (the bench counts retries from it).
 */
import { redact } from "./redact";

/**
 * What the log shows of an attempt (transport.ts's `Attempt` fits it): said here rather than imported, since the
 * transport imports this log, and importing its type back made the two an import cycle.
 */
type AttemptOutcome = { kind: "answer"; status: number } | { kind: "network"; code?: string };

export interface AttemptLogEntry {
  method: string;
  shownPath: string;
  result: AttemptOutcome;
  ms: number;
  /** Retries before this attempt (0 for the first). */
  retry: number;
  /** Whether this failed attempt is retried. */
  retrying: boolean;
  throttledMs: number;
}

export function logAttempt(
  entry: AttemptLogEntry,
  sink: { logger: (line: string) => void; secrets: readonly string[] },
): void {
  // Read at call time so the variable can be switched on in a running process (e.g. by a test).
  const level = process.env.DEVICEMGMT_LOG;
  if (level !== "debug" && !(level === "retries" && (entry.retry > 0 || entry.retrying))) return;
  const { method, shownPath, result, ms, retry, throttledMs } = entry;
  const outcome = result.kind === "answer" ? String(result.status) : (result.code ?? "network-error");
  const waited = throttledMs > 0 ? ` throttled=${throttledMs}ms` : "";
  const line = `devicemgmt: ${method} ${shownPath} ${outcome} ${ms}ms retry=${retry}${waited}`;
  sink.logger(redact(line, sink.secrets));
}
