/**
 * The two parts of undici the client uses: the keep-alive `Agent` and `request`. undici's index loads every
 * feature it has (fetch, WebSocket, caches, mocks, proxies: about 110 modules, 50 ms of CPU and 6 MiB of heap),
 * and the dynamic-provider plugin loads this package afresh in every CLI command, so the client loads these two
 * modules of the pinned undici version directly (25 modules). Their types are undici's own. `sendOnce` is the
 * request function at the heart of the request chain (./chain).
 */
import { createWriteStream } from "node:fs";
import { pipeline } from "node:stream/promises";
import type { Agent as UndiciAgent, Dispatcher } from "undici";
import type { RequestFn, ResponseHeaders } from "./chain";

// Modules of undici that its index re-exports.
export const Agent: typeof UndiciAgent = require("undici/lib/dispatcher/agent");
const requestOn: (
  this: Dispatcher,
  options: Dispatcher.RequestOptions,
) => Promise<Dispatcher.ResponseData> = require("undici/lib/api/api-request");

export type Agent = UndiciAgent;

/** undici's `request(url, options)`, sent through `dispatcher` (an Agent, or a MockAgent in tests). */
export function request(
  url: URL,
  options: Omit<Dispatcher.RequestOptions, "origin" | "path"> & { dispatcher: Dispatcher },
): Promise<Dispatcher.ResponseData> {
  const { dispatcher, ...rest } = options;
  return requestOn.call(dispatcher, { ...rest, origin: url.origin, path: `${url.pathname}${url.search}` });
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

/**
 * The innermost request function: sends once through `dispatcher` and reports what happened as a value, a
 * network failure included, so the wrappers around it can decide what to make of it.
 */
export function sendOnce(settings: { dispatcher: Dispatcher; timeoutMs: number }): RequestFn {
  return async (req) => {
    const sentAt = Date.now();
    let answered: { status: number; headers: ResponseHeaders } | undefined;
    try {
      const response = await request(req.url, {
        method: req.method,
        headers: req.headers,
        body: req.body,
        dispatcher: settings.dispatcher,
        headersTimeout: settings.timeoutMs,
        bodyTimeout: settings.timeoutMs,
      });
      answered = { status: response.statusCode, headers: response.headers };
      if (req.saveTo !== undefined && response.statusCode >= 200 && response.statusCode < 300) {
        await pipeline(response.body, createWriteStream(req.saveTo));
        return { kind: "answer", ...answered, text: "", sentAt };
      }
      const text = await response.body.text();
      return { kind: "answer", ...answered, text, sentAt };
    } catch (error) {
      const code = errorCode(error);
      const sent = code === undefined || !NOT_SENT_CODES.has(code);
      return { kind: "network", sent, error, code, answered, sentAt };
    }
  };
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
