/**
 * What resource code sends (`RequestSpec`) and what it gets back: a parsed value or one of the errors of
 * ./errors, never URLs or raw bodies. A `Transport` turns a spec into a request for its base URL, sends it
 * through a request chain (./chain: throttle, retry, error mapping, attempt log around one send) and parses the
 * answer. The client composes the chains; the traffic counters the benchmark reads are one wrapper of them.
 */
import type { z } from "zod";
import type { Dispatcher } from "undici";
import { withAttemptLog, type LogSink } from "./attemptLog";
import type { ChainRequest, HttpMethod, RequestFn } from "./chain";
import { userAgent } from "./connection";
import { withErrorMapping } from "./errorMapping";
import { ResponseShapeError } from "./errors";
import { sendOnce } from "./http";
import { redact } from "./redact";
import { type RetryPolicy, withRetry } from "./retry";
import { type Throttle, withThrottle } from "./throttle";

export type { HttpMethod } from "./chain";

export type QueryValue = string | number | boolean | readonly string[] | undefined;

export interface RequestSpec<T> {
  method: HttpMethod;
  /** Path below the transport's base URL, e.g. "/groups". */
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** Schema of the success body; omit for operations that answer 204 without a body. */
  schema?: z.ZodType<T>;
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

/** One client's counters, added as well to its organization key's process-wide ones. */
export class TrafficCounters {
  private readonly own: ClientStats = emptyStats();

  private readonly shared: ClientStats;

  constructor(organizationKey: string) {
    let shared = organizationCounters.get(organizationKey);
    if (!shared) {
      shared = emptyStats();
      organizationCounters.set(organizationKey, shared);
    }
    this.shared = shared;
  }

  stats(): ClientStats {
    return { ...this.own };
  }

  count(counter: keyof ClientStats, amount: number): void {
    this.own[counter] += amount;
    this.shared[counter] += amount;
  }
}

/** Counts each attempt sent through `next` (inside the throttle, so its wait is known). */
export function withCounters(next: RequestFn, counters: Pick<TrafficCounters, "count">): RequestFn {
  return async (req) => {
    counters.count("throttledMs", req.throttledMs ?? 0);
    counters.count("requests", 1);
    if ((req.attempt ?? 1) > 1) counters.count("retries", 1);
    const response = await next(req);
    if (response.kind === "answer" && response.status === 429) counters.count("rateLimited", 1);
    return response;
  };
}

/** Authenticates every request sent through `next` with the API token. */
export function withBearerToken(next: RequestFn, token: string): RequestFn {
  return (req) => next({ ...req, headers: { ...req.headers, authorization: `Bearer ${token}` } });
}

export interface ChainSettings {
  dispatcher: Dispatcher;
  /** Per-attempt timeout for the response headers and for each gap while reading the body. */
  timeoutMs: number;
  counters: Pick<TrafficCounters, "count">;
  log: LogSink;
  retry: RetryPolicy;
}

/**
 * The client's request chains, sharing one send, counters and log: the API's (the token, the organization's
 * throttle) and, for the one operation without authentication, one with neither.
 */
export function attemptChains(settings: ChainSettings) {
  const sent = withCounters(
    withAttemptLog(
      sendOnce({ dispatcher: settings.dispatcher, timeoutMs: settings.timeoutMs }),
      settings.log,
    ),
    settings.counters,
  );
  const errors = {
    secrets: settings.log.secrets,
    timeoutMs: settings.timeoutMs,
    maxRetryAfterMs: settings.retry.backoff.maxRetryAfterMs,
  };
  return {
    authenticated: (token: string, limiter: () => Throttle | Promise<Throttle>): RequestFn =>
      withBearerToken(
        withErrorMapping(withRetry(withThrottle(sent, limiter), settings.retry), errors),
        token,
      ),
    unthrottled: (): RequestFn => withErrorMapping(withRetry(sent, settings.retry), errors),
  };
}

export class Transport {
  constructor(
    private readonly baseUrl: string,
    private readonly chain: RequestFn,
    private readonly secrets: readonly string[],
  ) {}

  async send<T>(spec: RequestSpec<T>): Promise<T> {
    const url = buildUrl(this.baseUrl, spec);
    const request: ChainRequest = {
      method: spec.method,
      url,
      shownPath: redact(url.pathname + url.search, this.secrets),
      headers: { accept: "application/json", "user-agent": userAgent() },
      repeatable: spec.repeatable,
    };
    if (spec.body !== undefined) {
      request.body = JSON.stringify(spec.body);
      request.headers["content-type"] = "application/json";
    }
    // The chain hands back only successes (withErrorMapping throws the rest).
    const response = await this.chain(request);
    const status = response.kind === "answer" ? response.status : 0;
    const text = response.kind === "answer" ? response.text : "";
    const details = {
      method: spec.method,
      path: request.shownPath,
      status,
      attempts: response.retry?.attempts ?? 1,
      afterAmbiguousAttempt: response.retry?.afterAmbiguousAttempt ?? false,
      secrets: this.secrets,
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
