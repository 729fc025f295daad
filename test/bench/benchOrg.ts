/**
 * A generated organization of a chosen size, as a Pulumi program: a group tree (root folder, region folders,
 * configured sites), users with a default role and a role on one site, and release channels on sites (one per
 * app, as a site would run each app once). `revision: 1` changes a tenth of each kind, as a routine pull
 * request would: sites renamed, users' last names changed, attachments moved to another channel.
 */
import type * as pulumi from "@pulumi/pulumi";
import * as dm from "../../provider";

export interface OrgSize {
  users: number;
  groups: number;
  attachments: number;
  /** A headset experience on every site (issue 19): a kiosk into one app; revision 1 moves a tenth to another. */
  experiences?: boolean;
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

type Id = pulumi.Input<string>;

/** How one provider declares each kind: the real one (below), or the do-nothing floor (./noopProvider.ts). */
export interface OrgKinds {
  group(name: string, args: { name: string; parentId?: Id; configured?: boolean }): { id: Id };
  attachment(name: string, args: { groupId: Id; releaseChannelId: Id }): void;
  user(
    name: string,
    args: {
      firstName: string;
      lastName: string;
      email: string;
      defaultRoleId: Id;
      groupRoles: Array<{ roleId: Id; groupId: Id }>;
    },
  ): void;
  memberRoleId: Id;
  viewerRoleId: Id;
  /** Per app (in APPS order): the channel a site runs, and the one a moved attachment goes to, if any. */
  channels: Array<{ usual: Id; other?: Id }>;
  /** A site's headset experience: a kiosk into `appId`, menu off (shared-mode settings as groups need). */
  kiosk(name: string, args: { groupId: Id; appId: Id }): void;
  /** Per app (in APPS order): its id, for the kiosks. */
  appIds: Id[];
}

/**
 * The organization's shape, one definition for both providers, so that the real/floor comparison always
 * compares the same resources, dependencies and changes.
 */
export function declareOrgShape(size: OrgSize, revision: number, kinds: OrgKinds): Record<string, unknown> {
  const { regions: regionCount, sites: siteCount } = treeShape(size.groups);
  const root = kinds.group("bench-root", { name: "Bench Company" });
  const regions = Array.from({ length: regionCount }, (_, r) =>
    kinds.group(`region-${r}`, { name: `Region ${r}`, parentId: root.id }),
  );
  const sites = Array.from({ length: siteCount }, (_, s) =>
    kinds.group(`site-${s}`, {
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
    const other = kinds.channels[app].other;
    const moved = other !== undefined && changed(movable++, size.attachments, revision);
    kinds.attachment(`attach-${site}-${app}`, {
      groupId: sites[site].id,
      releaseChannelId: moved ? other : kinds.channels[app].usual,
    });
  }

  if (size.experiences) {
    for (let s = 0; s < siteCount; s++) {
      const app = (s + (changed(s, siteCount, revision) ? 1 : 0)) % kinds.appIds.length;
      kinds.kiosk(`experience-${s}`, { groupId: sites[s].id, appId: kinds.appIds[app] });
    }
  }

  for (let u = 0; u < size.users; u++) {
    kinds.user(`user-${u}`, {
      firstName: `Bench${u}`,
      lastName: changed(u, size.users, revision) ? `User ${u} (renamed)` : `User ${u}`,
      email: `bench.user${u}@bench.example`,
      defaultRoleId: kinds.memberRoleId,
      groupRoles: [{ roleId: kinds.viewerRoleId, groupId: sites[u % siteCount].id }],
    });
  }
  return { root: root.id };
}

/** The shared-mode settings of every bench kiosk (a group's experience must send them). */
export const KIOSK_SHARED_MODE = {
  enableOfflineMode: false,
  requireManagedMetaLogin: false,
  enableControllerFree: true,
  adjustDeviceFit: false,
  defaultToStationaryBoundary: true,
};

/**
 * The bench organization through the real provider, roles and channels looked up by name. `devicemgmt` is the
 * package's module: another build of it (./programProfile.ts compares two) declares the same organization.
 */
export function declareBenchOrg(
  size: OrgSize,
  revision = 0,
  devicemgmt: typeof dm = dm,
): Record<string, unknown> {
  return declareOrgShape(size, revision, {
    group: (name, args) => new devicemgmt.Group(name, args),
    attachment: (name, args) => new devicemgmt.GroupReleaseChannel(name, args),
    user: (name, args) => new devicemgmt.User(name, args),
    kiosk: (name, { groupId, appId }) =>
      new devicemgmt.HeadsetExperience(name, {
        groupId,
        mode: "arborxr-kiosk",
        kioskContent: { type: "app", id: appId },
        isMenuEnabled: false,
        sharedModeSettings: KIOSK_SHARED_MODE,
      }),
    appIds: APPS.map(({ app }) => devicemgmt.getAppOutput({ name: app }).id),
    memberRoleId: devicemgmt.getRoleOutput({ name: "Member", type: "organization" }).id,
    viewerRoleId: devicemgmt.getRoleOutput({ name: "Group Viewer", type: "group" }).id,
    channels: APPS.map(({ app, channel, alternative }) => ({
      usual: devicemgmt.getReleaseChannelOutput({ appName: app, channelName: channel }).id,
      other: alternative
        ? devicemgmt.getReleaseChannelOutput({ appName: app, channelName: alternative }).id
        : undefined,
    })),
  });
}
