/**
 * The transport as a chain: one function that sends a request once (./http `sendOnce`), wrapped by small
 * wrappers that each add one concern, in the manner of octokit's request hooks:
 *
 *   withBearerToken → withErrorMapping → withRetry → withThrottle → withCounters → withAttemptLog → sendOnce
 *
 * A wrapper takes the next `RequestFn` and returns one. Requests flow inwards and may be annotated on the way
 * (`attempt` and `call` by withRetry, `throttledMs` by withThrottle); answers flow outwards as an `Attempt`
 * (never an exception: a network failure is a value too) until withErrorMapping turns a failure into one of
 * the errors of ./errors. A request that needs a different treatment (no token, outside the rate budget) is
 * sent through a different chain, composed by the client, rather than through a flag on the request.
 */
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export type ResponseHeaders = Record<string, string | string[] | undefined>;

export interface ChainRequest {
  method: HttpMethod;
  url: URL;
  /** The URL's path and query with secrets scrubbed: what logs and errors show. */
  shownPath: string;
  headers: Record<string, string>;
  /** JSON text for the API; the bytes of one part for a storage host (./storage). */
  body?: string | Uint8Array;
  /**
   * A download (./download): the body of a 2xx answer is streamed into this file, made anew by each attempt,
   * instead of being read as text (which stays empty).
   */
  saveTo?: string;
  /** A POST that sets a state, retried like a PUT (see RequestSpec.repeatable). */
  repeatable?: boolean;
  /** Set by withRetry: which attempt of the call this is, 1 for the first. */
  attempt?: number;
  /** Set by withRetry: one object per call, the same for all its attempts. */
  call?: object;
  /** Set by withThrottle: how long this attempt waited for the rate limiter, in ms. */
  throttledMs?: number;
}

/** What one attempt produced: an answer (any status) or a network failure. */
export type Attempt =
  | { kind: "answer"; status: number; headers: ResponseHeaders; text: string }
  | {
      kind: "network";
      /** False when the request certainly never reached the server. */
      sent: boolean;
      error: unknown;
      code?: string;
      /** Status and headers, when they arrived before the body failed (the server did answer). */
      answered?: { status: number; headers: ResponseHeaders };
    };

/** How withRetry ended the call, attached to the attempt it hands back. */
export interface RetrySummary {
  attempts: number;
  /** An earlier attempt may have been applied (a 5xx, or a failure after sending). */
  afterAmbiguousAttempt: boolean;
  /** Why a failed attempt was not retried; absent after a success. */
  stop?: {
    reason: "not-retryable" | "deadline" | "max-attempts" | "retry-after-too-long";
    /** The failure was a write that may have been applied: withErrorMapping raises AmbiguousWriteError. */
    ambiguousWrite: boolean;
  };
}

export type ChainResponse = Attempt & {
  /** When the attempt was sent (after any wait in the throttle): the retry deadline starts there. */
  sentAt: number;
  retry?: RetrySummary;
};

export type RequestFn = (request: ChainRequest) => Promise<ChainResponse>;

export function isSuccess(response: Attempt): boolean {
  return response.kind === "answer" && response.status >= 200 && response.status < 300;
}

export function headerValue(headers: ResponseHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
