/**
 * The protocol's own floor: a dynamic provider that does nothing, declared in the shape of the bench organization
 * (./benchOrg.ts) — the same names, the same dependencies (a site's parent, a user's site, an attachment's site)
 * and inputs of about the same size, under types of their own. Driven through the same engine stand-in and the
 * same plugin binary, its plugin CPU is what the gRPC protocol, the SDK's dynamic-provider plugin and the
 * serialized provider cost by themselves, whatever the provider does.
 *
 * Create returns its inputs as outputs, read returns what it is given, delete does nothing. Diff reports a change
 * when an input differs from the stored value (a comparison, no request), and an attachment's changed side as a
 * replacement, so that the update phase makes the same provider calls as the real provider does.
 */
import * as pulumi from "@pulumi/pulumi";
import { treeShape, type OrgSize } from "./benchOrg";

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
  create: async (inputs) => ({ id: require("node:crypto").randomUUID(), outs: inputs }),
  read: async (id, props) => ({ id, props }),
  update: async (_id, _olds, news) => ({ outs: news }),
  delete: async () => {},
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

const changed = (i: number, count: number, revision: number) => revision > 0 && i < Math.round(count / 10);

/** The bench organization's resources and their changes at `revision` 1, as do-nothing resources. */
export function declareNoopOrg(size: OrgSize, revision = 0): Record<string, unknown> {
  const { regions: regionCount, sites: siteCount } = treeShape(size.groups);
  const root = new Noop("Group", "bench-root", { name: "Bench Company" });
  const regions = Array.from(
    { length: regionCount },
    (_, r) => new Noop("Group", `region-${r}`, { name: `Region ${r}`, parentId: root.id }),
  );
  const sites = Array.from(
    { length: siteCount },
    (_, s) =>
      new Noop("Group", `site-${s}`, {
        name: changed(s, siteCount, revision) ? `Site ${s} (renamed)` : `Site ${s}`,
        parentId: regions[s % regionCount].id,
        configured: true,
      }),
  );

  let movable = 0;
  for (let a = 0; a < size.attachments; a++) {
    const site = Math.floor(a / CHANNELS.length) % siteCount;
    const app = a % CHANNELS.length;
    const other = CHANNELS[app].other;
    const moved = other !== undefined && changed(movable++, size.attachments, revision);
    new Noop("GroupReleaseChannel", `attach-${site}-${app}`, {
      groupId: sites[site].id,
      releaseChannelId: moved ? other : CHANNELS[app].usual,
    });
  }

  for (let u = 0; u < size.users; u++) {
    new Noop("User", `user-${u}`, {
      firstName: `Bench${u}`,
      lastName: changed(u, size.users, revision) ? `User ${u} (renamed)` : `User ${u}`,
      email: `bench.user${u}@bench.example`,
      defaultRoleId: MEMBER_ROLE,
      groupRoles: [{ roleId: VIEWER_ROLE, groupId: sites[u % siteCount].id }],
    });
  }
  return { root: root.id };
}
