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
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { declareOrgShape, type OrgSize } from "./benchOrg";

const NOOP_PROVIDER_TEXT = `exports.handler = () => require(${JSON.stringify(path.join(__dirname, "noopHandler"))}).noopProvider;\n`;

/**
 * A do-nothing resource registered as `pulumi.dynamic.Resource` would register it, but with a one-line
 * `__provider` that requires ./noopHandler (the compiled file, by its absolute path) in the plugin, as the real
 * provider's kinds record a one-line `require` of the package's runtime (provider/dynamic.ts): the two states are
 * then of comparable size, so the CLI's checkpoint cost of both is comparable. Before, the SDK serialized the
 * provider object by value, 3.7 KB in each resource's inputs and again in its outputs.
 */
class Noop extends pulumi.CustomResource {
  constructor(type: string, name: string, props: pulumi.Inputs) {
    super(`pulumi-nodejs:dynamic/noop:${type}`, name, { ...props, __provider: NOOP_PROVIDER_TEXT });
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
