/**
 * The request pipeline every call goes through: throttle → send → classify → retry, with the counters the
 * benchmark reads and one debug line per attempt. Resource code never sees URLs or raw bodies: it gets
 * parsed values or one of the errors from ./errors.
 */
import type { Dispatcher } from "undici";
import { request } from "./http";
import type { z } from "zod";
import type { Endpoints } from "./connection";
import { userAgent } from "./connection";
import {
  AmbiguousWriteError,
  type DeviceMgmtError,
  errorFromResponse,
  NetworkError,
  ResponseShapeError,
} from "./errors";
import { logAttempt } from "./attemptLog";
import { redact } from "./redact";
import {
  type AttemptOutcome,
  type BackoffSettings,
  decideRetry,
  DEFAULT_MAX_RETRY_AFTER_MS,
  parseRetryAfter,
} from "./retry";
import type { RateLimiter, RateLimitObservation, SendTicket } from "./throttle";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export type QueryValue = string | number | boolean | readonly string[] | undefined;

export interface RequestSpec<T> {
  method: HttpMethod;
  /** Path below the v3 base URL (or below the API root when `apiRoot` is set), e.g. "/groups". */
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** Schema of the success body; omit for operations that answer 204 without a body. */
  schema?: z.ZodType<T>;
  /** False only for `GET /`, the one operation without authentication. */
  authenticated?: boolean;
  /** Address the version-less API root (token-info lives there). */
  apiRoot?: boolean;
  /**
   * A POST that sets a state (the same state however often it is sent: an experience's configure, an unshare):
   * retried like a PUT after a 5xx or a lost answer, instead of failing as an ambiguous write.
   */
  repeatable?: boolean;
}

export interface ClientStats {
  /** HTTP attempts sent (retries included). */
  requests: number;
  /** Attempts that were retries of an earlier failed attempt. */
  retries: number;
  /** 429 answers received. */
  rateLimited: number;
  /** Total time requests waited in the throttle before being sent. */
  throttledMs: number;
}

/** Counters summed over every client of one organization key in this process. */
const organizationCounters = new Map<string, ClientStats>();

/**
 * Traffic counters of every organization this process talked to, keyed by organization key (base URL and
 * a hash of the token — never the token): the sum over all clients, however many were created.
 */
export function organizationStats(): Record<string, ClientStats> {
  return Object.fromEntries([...organizationCounters].map(([key, stats]) => [key, { ...stats }]));
}

function emptyStats(): ClientStats {
  return { requests: 0, retries: 0, rateLimited: 0, throttledMs: 0 };
}

export interface TransportSettings {
  endpoints: Endpoints;
  /** Organization key (see throttle.organizationKey) under which the process-wide counters are kept. */
  organizationKey: string;
  token: string;
  secrets: readonly string[];
  timeoutMs: number;
  deadlineMs: number;
  backoff: BackoffSettings;
  /**
   * The throttle a request goes through: the organization's (shared by every token of it), found once the
   * client knows the token's organization. May be async because learning it takes a token-info call.
   */
  limiter: (spec: RequestSpec<unknown>) => RateLimiter | Promise<RateLimiter>;
  dispatcher: Dispatcher;
  logger: (line: string) => void;
  sleep: (ms: number) => Promise<void>;
  rng: () => number;
}

/** Connection failures that happen before any byte of the request could reach the server. */
const NOT_SENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT",
]);
const TIMEOUT_CODES = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

export type Attempt =
  | { kind: "answer"; status: number; headers: Record<string, string | string[] | undefined>; text: string }
  | { kind: "network"; sent: boolean; error: unknown; code?: string };

export class Transport {
  private readonly counters: ClientStats = emptyStats();

  private readonly organizationCounters: ClientStats;

  constructor(private readonly settings: TransportSettings) {
    let shared = organizationCounters.get(settings.organizationKey);
    if (!shared) {
      shared = emptyStats();
      organizationCounters.set(settings.organizationKey, shared);
    }
    this.organizationCounters = shared;
  }

  stats(): ClientStats {
    return { ...this.counters };
  }

  async send<T>(spec: RequestSpec<T>): Promise<T> {
    const { settings } = this;
    const url = buildUrl(spec.apiRoot ? settings.endpoints.apiRoot : settings.endpoints.baseUrl, spec);
    const shownPath = redact(url.pathname + url.search, settings.secrets);
    const authenticated = spec.authenticated ?? true;
    const headers: Record<string, string> = { accept: "application/json", "user-agent": userAgent() };
    if (authenticated) headers.authorization = `Bearer ${settings.token}`;
    let payload: string | undefined;
    if (spec.body !== undefined) {
      payload = JSON.stringify(spec.body);
      headers["content-type"] = "application/json";
    }

    let deadline: number | undefined;
    let earlierAttemptMayHaveApplied = false;
    const limiter = authenticated ? await settings.limiter(spec) : undefined;
    for (let attempt = 1; ; attempt++) {
      let ticket: SendTicket | undefined;
      let throttledMs = 0;
      if (limiter) {
        const permit = await limiter.acquire();
        ticket = permit.ticket;
        this.count("throttledMs", permit.waitedMs);
        throttledMs = permit.waitedMs;
      }
      // The deadline bounds retrying, so it starts at the first send, not while queued behind the throttle.
      deadline ??= Date.now() + settings.deadlineMs;
      this.count("requests", 1);
      if (attempt > 1) this.count("retries", 1);
      const started = Date.now();
      const result = await this.attemptOnce(url, spec.method, headers, payload, limiter, ticket);
      const attemptLog = { method: spec.method, shownPath, result, ms: Date.now() - started, throttledMs };

      if (result.kind === "answer" && result.status >= 200 && result.status < 300) {
        logAttempt({ ...attemptLog, retry: attempt - 1, retrying: false }, settings);
        return this.parseSuccess(
          spec,
          shownPath,
          result.status,
          result.text,
          attempt,
          earlierAttemptMayHaveApplied,
        );
      }
      if (result.kind === "answer" && result.status === 429) this.count("rateLimited", 1);

      const outcome: AttemptOutcome =
        result.kind === "answer"
          ? { kind: "status", status: result.status }
          : { kind: "network", sent: result.sent };
      const retryAfterHeader =
        result.kind === "answer" ? headerValue(result.headers, "retry-after") : undefined;
      const decision = decideRetry({
        method: spec.method,
        repeatable: spec.repeatable,
        attempt,
        outcome,
        retryAfterHeader,
        now: Date.now(),
        deadline,
        rng: settings.rng,
        backoff: settings.backoff,
      });
      logAttempt({ ...attemptLog, retry: attempt - 1, retrying: decision.retry }, settings);
      const note =
        !decision.retry && decision.reason === "retry-after-too-long"
          ? tooLongNote(settings.backoff.maxRetryAfterMs)
          : undefined;
      const error = this.errorFor(
        spec.method,
        shownPath,
        result,
        attempt,
        earlierAttemptMayHaveApplied,
        note,
      );
      if (!decision.retry) {
        if (decision.ambiguousWrite) {
          throw new AmbiguousWriteError({
            method: spec.method,
            path: shownPath,
            status: error.status,
            attempts: attempt,
            cause: error,
            secrets: settings.secrets,
          });
        }
        throw error;
      }
      if (result.kind === "network" ? result.sent : result.status >= 500) earlierAttemptMayHaveApplied = true;
      await settings.sleep(decision.delayMs);
    }
  }

  private async attemptOnce(
    url: URL,
    method: HttpMethod,
    headers: Record<string, string>,
    payload: string | undefined,
    limiter: RateLimiter | undefined,
    ticket: SendTicket | undefined,
  ): Promise<Attempt> {
    const { settings } = this;
    let reported = false;
    try {
      const response = await request(url, {
        method,
        headers,
        body: payload,
        dispatcher: settings.dispatcher,
        headersTimeout: settings.timeoutMs,
        bodyTimeout: settings.timeoutMs,
      });
      if (limiter && ticket) {
        limiter.answered(ticket, observe(response.statusCode, response.headers));
        reported = true;
      }
      const text = await response.body.text();
      return { kind: "answer", status: response.statusCode, headers: response.headers, text };
    } catch (error) {
      if (limiter && ticket && !reported) limiter.unanswered(ticket);
      const code = errorCode(error);
      return { kind: "network", sent: code === undefined || !NOT_SENT_CODES.has(code), error, code };
    }
  }

  private parseSuccess<T>(
    spec: RequestSpec<T>,
    shownPath: string,
    status: number,
    text: string,
    attempts: number,
    afterAmbiguousAttempt: boolean,
  ): T {
    const details = {
      method: spec.method,
      path: shownPath,
      status,
      attempts,
      afterAmbiguousAttempt,
      secrets: this.settings.secrets,
    };
    if (spec.schema === undefined) return undefined as T;
    let body: unknown;
    try {
      body = text === "" ? undefined : JSON.parse(text);
    } catch {
      throw new ResponseShapeError(details, ["the body is not JSON"]);
    }
    if (body === undefined) throw new ResponseShapeError(details, ["expected a JSON body, got none"]);
    const parsed = spec.schema.safeParse(body);
    if (!parsed.success) {
      const issues = parsed.error.issues
        .slice(0, 8)
        .map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`);
      throw new ResponseShapeError(details, issues);
    }
    return parsed.data;
  }

  private errorFor(
    method: HttpMethod,
    shownPath: string,
    result: Attempt,
    attempts: number,
    afterAmbiguousAttempt: boolean,
    note?: string,
  ): DeviceMgmtError {
    const { secrets } = this.settings;
    if (result.kind === "network") {
      const timedOut = result.code !== undefined && TIMEOUT_CODES.has(result.code);
      return new NetworkError(
        { method, path: shownPath, attempts, afterAmbiguousAttempt, cause: result.error, secrets },
        result.sent,
        timedOut ? `No response within ${this.settings.timeoutMs} ms (${result.code}).` : undefined,
      );
    }
    return errorFromResponse({
      method,
      path: shownPath,
      status: result.status,
      body: parseErrorBody(result.text),
      retryAfterMs: parseRetryAfter(headerValue(result.headers, "retry-after"), Date.now()),
      attempts,
      afterAmbiguousAttempt,
      secrets,
      note,
    });
  }

  private count(counter: keyof ClientStats, amount: number): void {
    this.counters[counter] += amount;
    this.organizationCounters[counter] += amount;
  }
}

/** Why a Retry-After was not waited for, and the setting that decides it. */
function tooLongNote(maxRetryAfterMs: number | undefined): string {
  const max = Math.round((maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS) / 1000);
  return (
    `Not retried: that is longer than the longest wait this client accepts (${max} s, option ` +
    "retry.maxRetryAfterMs); run the operation again after that time."
  );
}

function buildUrl(base: string, spec: RequestSpec<unknown>): URL {
  const url = new URL(base + (spec.path === "/" ? "/" : spec.path));
  for (const [key, value] of Object.entries(spec.query ?? {})) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) url.searchParams.append(key, item);
    else url.searchParams.append(key, String(value));
  }
  return url;
}

function observe(
  status: number,
  headers: Record<string, string | string[] | undefined>,
): RateLimitObservation {
  const limit = integerHeader(headers, "x-ratelimit-limit");
  const remaining = integerHeader(headers, "x-ratelimit-remaining");
  return {
    status,
    limit,
    remaining,
    retryAfterMs:
      status === 429 ? parseRetryAfter(headerValue(headers, "retry-after"), Date.now()) : undefined,
  };
}

function headerValue(
  headers: Record<string, string | string[] | undefined>,
  name: string,
): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function integerHeader(
  headers: Record<string, string | string[] | undefined>,
  name: string,
): number | undefined {
  const value = headerValue(headers, name);
  if (value === undefined || !/^\s*\d+\s*$/.test(value)) return undefined;
  return Number(value);
}

function parseErrorBody(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function errorCode(error: unknown): string | undefined {
  const candidates: unknown[] = [error];
  if (error instanceof Error) candidates.push(error.cause);
  if (error instanceof AggregateError) candidates.push(...error.errors);
  for (const candidate of candidates) {
    const code = (candidate as { code?: unknown } | null | undefined)?.code;
    if (typeof code === "string") return code;
  }
  return undefined;
}
