/**
 * The protocol's own floor: a dynamic provider that does nothing, declared in the shape of the bench organization
 * (./benchOrg.ts) — the same names, the same dependencies (a site's parent, a user's site, an attachment's site)
 * and inputs of about the same size, under types of their own. Driven through the same Pulumi CLI and the
 * same plugin binary, its plugin CPU is what the gRPC protocol, the SDK's dynamic-provider plugin and the
 * serialized provider cost by themselves, whatever the provider does.
 *
 * Create returns its inputs as outputs, read returns what it is given, delete does nothing. Diff reports a change
 * when an input differs from the stored value (a comparison, no request), and an attachment's changed side as a
 * replacement, so that the update phase makes the same provider calls as the real provider does.
 *
 * With `BENCH_NOOP_LATENCY_MS` set in the plugin's environment (`npm run bench -- --noop-latency-ms 40`), create
 * and delete answer only after that long, as the real provider's do after the API's round trip: what remains of
 * the real plugin's CPU above it is then the provider's own work, not the cost of calls held while they wait.
 * With `BENCH_NOOP_HTTP_ORIGIN` set (`npm run bench -- --noop-http`), create and delete instead send one request
 * there (./bareServer.ts) through the same undici modules and agent as the client, and read its answer: what
 * remains above it is what the provider does besides sending its requests.
 */
import * as pulumi from "@pulumi/pulumi";
import { declareOrgShape, type OrgSize } from "./benchOrg";

// One object for every resource, as the real provider has one per kind: the SDK serializes a provider once per
// object, and the plugin deserializes each serialized text once. Its methods capture nothing but `require`.
const noopProvider: pulumi.dynamic.ResourceProvider = {
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

class Noop extends pulumi.dynamic.Resource {
  constructor(type: string, name: string, props: pulumi.Inputs) {
    super(noopProvider, name, props, undefined, "noop", type);
  }
}

// Ids of the shape the API uses (UUIDs) where the real program looks up roles and release channels.
const MEMBER_ROLE = "5f0c9c1e-3a52-4d1b-9d7e-2b6f1c0a4e01";
const VIEWER_ROLE = "5f0c9c1e-3a52-4d1b-9d7e-2b6f1c0a4e02";
const CHANNELS = [0, 1, 2].map((app) => ({
  usual: `7a1d2c3b-4e5f-4a6b-8c7d-9e0f1a2b3c${app}0`,
  other: app === 1 ? undefined : `7a1d2c3b-4e5f-4a6b-8c7d-9e0f1a2b3c${app}1`,
}));

/** The bench organization's resources and their changes at `revision` 1, as do-nothing resources. */
export function declareNoopOrg(size: OrgSize, revision = 0): Record<string, unknown> {
  return declareOrgShape(size, revision, {
    group: (name, args) => new Noop("Group", name, args),
    attachment: (name, args) => new Noop("GroupReleaseChannel", name, args),
    user: (name, args) => new Noop("User", name, args),
    kiosk: (name, args) => new Noop("HeadsetExperience", name, { ...args, mode: "arborxr-kiosk" }),
    appIds: [0, 1, 2].map((app) => `3c2b1a0f-9e8d-4c7b-8a69-5f4e3d2c1b${app}0`),
    memberRoleId: MEMBER_ROLE,
    viewerRoleId: VIEWER_ROLE,
    channels: CHANNELS,
  });
}
