/**
 * The do-nothing provider object of ./noopProvider.ts, in a module of its own that loads nothing at the top: the
 * plugin requires this file by its path (the resources' one-line `__provider`), so it must not pull in the
 * package or the SDK. Its methods use `require` only inside, as the serialized object did.
 */
import type * as pulumi from "@pulumi/pulumi";

// One object for every resource, as the real provider has one per kind: the plugin loads each distinct
// `__provider` text once.
export const noopProvider: pulumi.dynamic.ResourceProvider = {
  check: async (_olds, news) => ({ inputs: news }),
  diff: async (_id, olds, news) => {
    const changed = Object.keys(news).filter(
      (key) => JSON.stringify(olds[key]) !== JSON.stringify(news[key]),
    );
    // An attachment is its pair, so a changed side replaces it, old one first, as the real provider's does.
    const replaces = changed.filter((key) => key === "groupId" || key === "releaseChannelId");
    return { changes: changed.length > 0, replaces, deleteBeforeReplace: replaces.length > 0 };
  },
  create: async (inputs) => {
    const origin = process.env.BENCH_NOOP_HTTP_ORIGIN;
    if (origin) {
      const http = globalThis as { benchAgent?: unknown };
      http.benchAgent ??= new (require("undici/lib/dispatcher/agent"))();
      const body = JSON.stringify(inputs);
      const headers = { accept: "application/json", "content-type": "application/json" };
      const request = { origin, path: "/users", method: "POST", headers, body };
      const response = await require("undici/lib/api/api-request").call(http.benchAgent, request);
      return { id: JSON.parse(await response.body.text()).id, outs: inputs };
    }
    const latencyMs = Number(process.env.BENCH_NOOP_LATENCY_MS ?? 0);
    if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
    return { id: require("node:crypto").randomUUID(), outs: inputs };
  },
  read: async (id, props) => ({ id, props }),
  update: async (_id, _olds, news) => ({ outs: news }),
  delete: async () => {
    const origin = process.env.BENCH_NOOP_HTTP_ORIGIN;
    if (origin) {
      const http = globalThis as { benchAgent?: unknown };
      http.benchAgent ??= new (require("undici/lib/dispatcher/agent"))();
      const request = { origin, path: "/users/1", method: "DELETE", headers: { accept: "application/json" } };
      const response = await require("undici/lib/api/api-request").call(http.benchAgent, request);
      await response.body.text();
      return;
    }
    const latencyMs = Number(process.env.BENCH_NOOP_LATENCY_MS ?? 0);
    if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
  },
};
