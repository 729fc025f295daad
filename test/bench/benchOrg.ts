/**
 * A generated organization of a chosen size, as a Pulumi program: a group tree (root folder, region folders,
 * configured sites), users with a default role and a role on one site, and release channels on sites (one per
 * app, as a site would run each app once). `revision: 1` changes a tenth of each kind, as a routine pull
 * request would: sites renamed, users' last names changed, attachments moved to another channel.
 */
import * as dm from "../../provider";

export interface OrgSize {
  users: number;
  groups: number;
  attachments: number;
}

/** Regions are a tenth of the groups; every other group but the root is a configured site. */
export function treeShape(groups: number): { regions: number; sites: number } {
  const regions = Math.max(1, Math.round(groups / 10) - 1);
  return { regions, sites: Math.max(1, groups - 1 - regions) };
}

const APPS: Array<{ app: string; channel: string; alternative?: string }> = [
  { app: "Training Simulator", channel: "Production", alternative: "Beta" },
  { app: "Safety Briefing", channel: "Stable" },
  { app: "Warehouse Picker", channel: "Production", alternative: "Pilot" },
];

/** Whether item `i` of `count` is in the tenth that revision 1 changes. */
const changed = (i: number, count: number, revision: number) => revision > 0 && i < Math.round(count / 10);

export function declareBenchOrg(size: OrgSize, revision = 0): Record<string, unknown> {
  const member = dm.getRoleOutput({ name: "Member", type: "organization" });
  const viewer = dm.getRoleOutput({ name: "Group Viewer", type: "group" });
  const channels = APPS.map(({ app, channel, alternative }) => ({
    usual: dm.getReleaseChannelOutput({ appName: app, channelName: channel }),
    other: alternative ? dm.getReleaseChannelOutput({ appName: app, channelName: alternative }) : undefined,
  }));

  const { regions: regionCount, sites: siteCount } = treeShape(size.groups);
  const root = new dm.Group("bench-root", { name: "Bench Company" });
  const regions = Array.from(
    { length: regionCount },
    (_, r) => new dm.Group(`region-${r}`, { name: `Region ${r}`, parentId: root.id }),
  );
  const sites = Array.from(
    { length: siteCount },
    (_, s) =>
      new dm.Group(`site-${s}`, {
        name: changed(s, siteCount, revision) ? `Site ${s} (renamed)` : `Site ${s}`,
        parentId: regions[s % regionCount].id,
        configured: true,
      }),
  );

  let movable = 0;
  for (let a = 0; a < size.attachments; a++) {
    const site = Math.floor(a / APPS.length) % siteCount;
    const app = a % APPS.length;
    // Another channel replaces the attachment; Safety Briefing has one channel, so the tenth moved is of the others.
    const other = channels[app].other;
    const moved = other !== undefined && changed(movable++, size.attachments, revision);
    new dm.GroupReleaseChannel(`attach-${site}-${app}`, {
      groupId: sites[site].id,
      releaseChannelId: moved ? other.id : channels[app].usual.id,
    });
  }

  for (let u = 0; u < size.users; u++) {
    new dm.User(`user-${u}`, {
      firstName: `Bench${u}`,
      lastName: changed(u, size.users, revision) ? `User ${u} (renamed)` : `User ${u}`,
      email: `bench.user${u}@bench.example`,
      defaultRoleId: member.id,
      groupRoles: [{ roleId: viewer.id, groupId: sites[u % siteCount].id }],
    });
  }
  return { root: root.id };
}
