/**
 * The two parts of undici the client uses: the keep-alive `Agent` and `request`. undici's index loads every
 * feature it has (fetch, WebSocket, caches, mocks, proxies: about 110 modules, 50 ms of CPU and 6 MiB of heap),
 * and the dynamic-provider plugin loads this package afresh in every CLI command, so the client loads these two
 * modules of the pinned undici version directly (25 modules). Their types are undici's own.
 */
import type { Agent as UndiciAgent, Dispatcher } from "undici";

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
