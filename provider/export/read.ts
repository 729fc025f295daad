/**
 * Reads an organization through the typed client into an `OrgModel`. Only what the requested kinds need is
 * read; everything a program could not reproduce faithfully is left out with a sentence saying why, rather
 * than exported wrong (a lookup that would match several objects, a pending invitation, …).
 */
import { z } from "zod";
import type { DeviceMgmtClient, PageIterator, ReleaseChannel, Role, User } from "../client";
import {
  channelKey,
  groupTree,
  groupsNotFindableByName,
  type ChannelRef,
  type ExportKind,
  type ModelDeviceChannel,
  type ModelGroup,
  type ModelGroupChannel,
  type ModelUser,
  type OrgModel,
  type RoleRef,
} from "./model";
import { compareBy } from "./order";
import { liveStateOf, mapConcurrently } from "../framework";
import { groupProperties } from "../kinds/group/properties";
import { userProperties } from "../kinds/user/properties";
import { contentKey, type ModelContent } from "./content";
import { readContent } from "./contentRead";
import { readDevicesAndTags } from "./deviceRead";
import { readExperiences } from "./experienceRead";

export interface ReadOptions {
  kinds: ExportKind[];
  /** One line per step of a long read ("read 1200/3000 users"). */
  progress?: (line: string) => void;
  /** Concurrent per-group and per-device reads (the client's throttle still paces them). Default 8. */
  concurrency?: number;
}

/** The API caps a user's group roles per request, and the User resource takes at most this many. */
const MAX_GROUP_ROLES = 100;
const PROGRESS_EVERY = 100;

export async function readOrganization(client: DeviceMgmtClient, options: ReadOptions): Promise<OrgModel> {
  const progress = options.progress ?? (() => {});
  const concurrency = options.concurrency ?? 8;
  const leftOut: string[] = [];
  const [organization, caller] = await Promise.all([client.currentOrganization(), client.currentUser()]);

  const groups: ModelGroup[] = (await readAll(client.groups.list(), "groups", progress)).map((g) => ({
    id: g.id,
    ...liveStateOf(groupProperties, g),
  }));
  const tree = groupTree(groups);
  const pathOf = new Map(tree.map((g) => [g.id, g.path.join(" > ")]));

  let users: ModelUser[] = [];
  if (options.kinds.includes("users")) {
    const roles = await client.roles.all();
    const apiUsers = await readAll(client.users.list(), "users", progress);
    users = apiUsers.flatMap((user) => {
      if (user.id === caller.id) return [];
      const result = exportableUser(user, roles, pathOf);
      leftOut.push(...result.notes);
      return result.user ? [result.user] : [];
    });
  }

  let groupChannels: ModelGroupChannel[] = [];
  const deviceChannels: ModelDeviceChannel[] = [];
  if (options.kinds.includes("attachments")) {
    const channels = await channelResolver(client);
    const configured = tree.filter((g) => g.configured);
    const perGroup = await mapConcurrently(
      configured,
      concurrency,
      async (group) => {
        const attached = await client.groups.releaseChannels(group.id).all();
        return attached.map((rc) => ({ group, rc }));
      },
      (done) =>
        everyHundred(done, configured.length) &&
        progress(`read release channels of ${done}/${configured.length} groups`),
    );
    for (const { group, rc } of perGroup.flat()) {
      const channel = await channels.resolve(rc);
      if (channel.ref)
        groupChannels.push({ groupId: group.id, channel: channel.ref, releaseChannelId: rc.id });
      else
        leftOut.push(
          `Release channel "${rc.name}" of app "${rc.app.name}" on group "${pathOf.get(group.id)}": ${channel.reason}`,
        );
    }

    const devices = await readAll(client.devices.list(), "devices", progress);
    const sameName = countBy(devices, (d) => d.name);
    const ungrouped = devices.filter((d) => !d.group);
    const perDevice = await mapConcurrently(
      ungrouped,
      concurrency,
      async (device) => {
        const attached = await client.devices.releaseChannels(device.id).all();
        return attached.map((rc) => ({ device, rc }));
      },
      (done) =>
        everyHundred(done, ungrouped.length) &&
        progress(`read release channels of ${done}/${ungrouped.length} ungrouped devices`),
    );
    for (const { device, rc } of perDevice.flat()) {
      const where = `Release channel "${rc.name}" of app "${rc.app.name}" on device "${device.name}" (${device.serialNumber})`;
      if (sameName.get(device.name)! > 1) {
        leftOut.push(
          `${where}: ${sameName.get(device.name)} devices are named "${device.name}", so it cannot be looked up by name.`,
        );
        continue;
      }
      const channel = await channels.resolve(rc);
      if (channel.ref)
        deviceChannels.push({
          deviceId: device.id,
          deviceName: device.name,
          channel: channel.ref,
          releaseChannelId: rc.id,
        });
      else leftOut.push(`${where}: ${channel.reason}`);
    }
    groupChannels.sort(
      compareBy(
        (a) => a.groupId,
        (a) => channelKey(a.channel),
      ),
    );
    deviceChannels.sort(
      compareBy(
        (a) => a.deviceId,
        (a) => channelKey(a.channel),
      ),
    );
  }

  // Before what refers to it: experiences, tag sets and device attachments use a declared object's id.
  let uploaded: ModelContent[] = [];
  if (options.kinds.includes("content")) {
    const read = await readContent(client, ["file", "video", "appVersion", "custom3DEnvironment"]);
    uploaded = read.content;
    leftOut.push(...read.leftOut);
  }

  const declared = new Set(uploaded.map((c) => contentKey(c.type, c.id)));

  let themes: OrgModel["themes"] = [];
  let experiences: OrgModel["experiences"] = [];
  if (options.kinds.includes("themes") || options.kinds.includes("experiences")) {
    const devices = options.kinds.includes("experiences")
      ? await readAll(client.devices.list(), "devices", progress)
      : [];
    const sameName = countBy(devices, (d) => d.name);
    const read = await readExperiences(client, {
      configuredGroups: tree.filter((g) => g.configured).map((g) => ({ id: g.id, path: pathOf.get(g.id)! })),
      ungroupedDevices: devices
        .filter((d) => !d.group)
        .map((d) => ({
          id: d.id,
          name: d.name,
          serialNumber: d.serialNumber,
          sameName: sameName.get(d.name)!,
        })),
      withThemes: options.kinds.includes("themes"),
      withExperiences: options.kinds.includes("experiences"),
      declared,
      mapConcurrently: (items, fn) =>
        mapConcurrently(
          items,
          concurrency,
          fn,
          (done) =>
            everyHundred(done, items.length) &&
            progress(`read experiences of ${done}/${items.length} owners`),
        ),
    });
    themes = read.themes;
    experiences = read.experiences;
    leftOut.push(...read.leftOut);
  }

  const placement = await readDevicesAndTags(client, {
    withTags: options.kinds.includes("tags"),
    withDevices: options.kinds.includes("devices"),
    withVersions: options.kinds.includes("versions"),
    declared,
  });
  leftOut.push(...placement.leftOut);
  let placedDevices = placement.devices;

  if (!options.kinds.includes("groups")) {
    // Without declared groups the program finds groups by name under their parent: that must be unambiguous.
    const unfindable = groupsNotFindableByName(tree);
    const because = (groupId: string) =>
      `group "${pathOf.get(groupId)}" has a same-named sibling on its path, so it cannot be looked up by name ` +
      `(export the groups too).`;
    users = users.filter((user) => {
      const blocked = user.groupRoles.find((r) => unfindable.has(r.groupId));
      if (blocked) leftOut.push(`User ${user.email}: ${because(blocked.groupId)}`);
      return !blocked;
    });
    experiences = experiences.filter((x) => {
      const blocked = "groupId" in x.owner && unfindable.has(x.owner.groupId);
      if (blocked && "groupId" in x.owner)
        leftOut.push(`The ${x.kind} experience of ${because(x.owner.groupId)}`);
      return !blocked;
    });
    placedDevices = placedDevices.filter((d) => {
      const blocked = d.groupId !== null && unfindable.has(d.groupId);
      if (blocked && d.groupId)
        leftOut.push(`Device "${d.name}" (${d.serialNumber}) in ${because(d.groupId)}`);
      return !blocked;
    });
    groupChannels = groupChannels.filter((a) => {
      if (unfindable.has(a.groupId)) {
        leftOut.push(
          `Release channel "${a.channel.channelName}" of app "${a.channel.appName}" on ${because(a.groupId)}`,
        );
      }
      return !unfindable.has(a.groupId);
    });
  }

  return {
    organization: { id: organization.id, name: organization.name, slug: organization.slug },
    exportedBy: options.kinds.includes("users") ? caller.email : null,
    kinds: [...options.kinds],
    groups,
    users,
    groupChannels,
    deviceChannels,
    themes,
    experiences,
    tags: placement.tags,
    tagSets: placement.tagSets,
    deviceContent: placement.deviceContent,
    placedDevices,
    channelVersions: placement.channelVersions,
    uploaded,
    leftOut,
  };
}

/** A user as the program declares it, or why it cannot be, plus notes on what of it is left out. */
export function exportableUser(
  user: User,
  roles: Role[],
  groupPaths: Map<string, string>,
): { user?: ModelUser; notes: string[] } {
  const who = `User ${user.email}`;
  if (!user.firstName.trim() || !user.lastName.trim()) {
    return {
      notes: [`${who}: a pending invitation (no name yet); invite them again in the other organization.`],
    };
  }
  if (!z.email().safeParse(user.email).success) {
    return { notes: [`${who}: the User resource does not accept this e-mail address.`] };
  }
  const sameRole = countBy(roles, (r) => `${r.type}/${r.name}`);
  const ambiguous = (r: RoleRef) => (sameRole.get(`${r.type}/${r.name}`) ?? 0) > 1;
  const notes: string[] = [];
  const orgLevel = user.accessControls.filter((ac) => ac.protectable.type === "organization");
  if (orgLevel.length !== 1) {
    return { notes: [`${who}: has ${orgLevel.length} organization-wide roles where a default role is one.`] };
  }
  const defaultRole: RoleRef = { name: orgLevel[0].role.name, type: orgLevel[0].role.type };
  if (ambiguous(defaultRole)) {
    return {
      notes: [
        `${who}: several ${defaultRole.type} roles are named "${defaultRole.name}", so the default role cannot be looked up by name.`,
      ],
    };
  }
  const groupRoles: ModelUser["groupRoles"] = [];
  for (const ac of user.accessControls) {
    if (ac.protectable.type === "device") {
      notes.push(
        `${who}: role "${ac.role.name}" on device ${ac.protectable.id} (roles on devices have no resource); it is left as it is.`,
      );
    } else if (ac.protectable.type === "group") {
      const role: RoleRef = { name: ac.role.name, type: ac.role.type };
      if (!groupPaths.has(ac.protectable.id)) {
        return {
          notes: [
            `${who}: has role "${role.name}" on group ${ac.protectable.id}, which the token cannot see.`,
          ],
        };
      }
      if (ambiguous(role)) {
        return {
          notes: [
            `${who}: several ${role.type} roles are named "${role.name}", so its group roles cannot be looked up by name.`,
          ],
        };
      }
      groupRoles.push({ role, groupId: ac.protectable.id });
    }
  }
  if (groupRoles.length > MAX_GROUP_ROLES) {
    return {
      notes: [
        `${who}: has ${groupRoles.length} group roles; a User resource holds at most ${MAX_GROUP_ROLES}.`,
      ],
    };
  }
  // Names and e-mail are the properties' values; the roles are the model's own, by name (looked up in the program).
  const { firstName, lastName, email } = liveStateOf(userProperties, user);
  return {
    user: {
      id: user.id,
      firstName,
      lastName,
      email,
      defaultRole,
      groupRoles,
    },
    notes,
  };
}

/**
 * Release channels by app and channel name, checked to be unambiguous the way `getReleaseChannel` finds them:
 * exactly one app of that name, and exactly one channel of that name in it. Apps' channels are read once each.
 */
async function channelResolver(client: DeviceMgmtClient) {
  const apps = await client.apps.all();
  const appsNamed = countBy(apps, (a) => a.name);
  const channelsOfApp = new Map<string, Promise<ReleaseChannel[]>>();
  return {
    async resolve(rc: ReleaseChannel): Promise<{ ref?: ChannelRef; reason?: string }> {
      const ref: ChannelRef = { appName: rc.app.name, channelName: rc.name };
      if ((appsNamed.get(rc.app.name) ?? 0) !== 1) {
        return {
          reason: `${appsNamed.get(rc.app.name) ?? 0} apps are named "${rc.app.name}", so the channel cannot be looked up by name.`,
        };
      }
      let channels = channelsOfApp.get(rc.app.id);
      if (!channels) {
        channels = client.apps.releaseChannels(rc.app.id).all();
        channelsOfApp.set(rc.app.id, channels);
      }
      const named = (await channels).filter((c) => c.name === rc.name).length;
      return named === 1
        ? { ref }
        : { reason: `app "${rc.app.name}" has ${named} channels named "${rc.name}".` };
    },
  };
}

async function readAll<T>(
  list: PageIterator<T>,
  what: string,
  progress: (line: string) => void,
): Promise<T[]> {
  const items: T[] = [];
  for await (const page of list.pages()) {
    items.push(...page.data);
    progress(`read ${items.length}/${Math.max(page.meta.total, items.length)} ${what}`);
  }
  return items;
}

const everyHundred = (done: number, total: number) => done % PROGRESS_EVERY === 0 || done === total;

function countBy<T>(items: T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}
