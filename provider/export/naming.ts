/**
 * Names in the generated program: Pulumi resource names (which also key the adoption ids in stack config) and
 * TypeScript variables. Both are derived from the objects' own names, made unique deterministically, so an
 * unchanged organization exports to the same program every time:
 * - a group is the slug of its name; on a collision, its parent's slug then its name; then its whole path;
 *   numbered (`-2`, `-3`) only when even the paths are equal (same-named siblings), in tree order;
 * - a user is the slug of the e-mail's local part; on a collision, of the whole e-mail;
 * - an attachment is its owner's name followed by the app and channel.
 * A candidate two objects share goes to neither of them, so no name depends on which object was seen first.
 */
import {
  channelKey,
  groupTree,
  roleKey,
  type ChannelRef,
  type ModelUser,
  type OrgModel,
  type RoleRef,
  type TreeGroup,
} from "./model";
import { compareBy } from "./order";
import { contentKey, planContent, type PlannedContent } from "./content";
import { planDevices, type DevicePlan } from "./devicePlan";
import { planExperiences, type ExperiencePlan } from "./experiencePlan";
import {
  assignIdentifiers,
  assignUnique,
  identifierFrom,
  RESERVED_IDENTIFIERS,
  slugify,
  withSuffix,
} from "./names";

export { assignUnique, identifierFrom, slugify, type NameRequest } from "./names";

/** Organization-wide roles read first, as they do in the product. */
const ROLE_TYPE_ORDER: Record<RoleRef["type"], string> = { organization: "0", group: "1" };

// ---- The plan: what the program declares, in order, with its names ------------------------------------------

export interface PlannedRole {
  ref: RoleRef;
  variable: string;
}

export interface PlannedChannel {
  ref: ChannelRef;
  variable: string;
}

export interface PlannedGroup {
  group: TreeGroup;
  /** Declared groups: the resource name. Looked-up groups have none. */
  resourceName?: string;
  /** Set when something refers to the group (a child, a user, an attachment). */
  variable?: string;
  parentVariable?: string;
  /** Declared groups with same-named siblings: their number among them in tree order (1, 2, …). */
  sameNameOrdinal?: number;
}

export interface PlannedUser {
  user: ModelUser;
  resourceName: string;
  defaultRoleVariable: string;
  groupRoles: { roleVariable: string; groupVariable: string }[];
}

export interface PlannedGroupChannel {
  resourceName: string;
  groupVariable: string;
  channelVariable: string;
  /** The group in the source organization, and the channel by name (what a target organization is matched by). */
  groupId: string;
  channel: ChannelRef;
}

export interface PlannedDevice {
  deviceName: string;
  variable: string;
  channels: { resourceName: string; channelVariable: string; channel: ChannelRef }[];
}

export interface ProgramPlan {
  organization: OrgModel["organization"];
  exportedBy: string | null;
  declaresGroups: boolean;
  roles: PlannedRole[];
  channels: PlannedChannel[];
  /** Declared groups (all of them) or looked-up groups (those referred to, with their ancestors), tree order. */
  groups: PlannedGroup[];
  users: PlannedUser[];
  groupChannels: PlannedGroupChannel[];
  devices: PlannedDevice[];
  /** Custom themes, experiences and the content lookups they need. */
  content: ExperiencePlan;
  /** Tags, devices adopted by serial number, and channel versions. */
  placement: DevicePlan;
  /** Uploaded content declared with its bytes downloaded beside the program (content.ts). */
  uploaded: PlannedContent[];
  /**
   * Resource name → id in the source organization, for stack config, in program order: groups and users by
   * uuid, release-channel attachments as `<ownerId>/<releaseChannelId>` (when the channel's id was read).
   */
  adopt: [string, string][];
  leftOut: string[];
}

/**
 * Pure: for groups that share their name with a sibling, their number among those siblings in tree order. The
 * Group resource refuses to create a same-named sibling unless it is numbered (`sameNameOrdinal`).
 */
export function sameNameOrdinals(tree: TreeGroup[]): Map<string, number> {
  const key = (g: TreeGroup) => JSON.stringify([g.parentId, g.name]);
  const seen = new Map<string, string[]>();
  for (const g of tree) seen.set(key(g), [...(seen.get(key(g)) ?? []), g.id]);
  const ordinals = new Map<string, number>();
  for (const ids of seen.values()) if (ids.length > 1) ids.forEach((id, i) => ordinals.set(id, i + 1));
  return ordinals;
}

/** Orders everything the model holds and names it. Pure: the same model always gives the same plan. */
export function planProgram(model: OrgModel): ProgramPlan {
  const declaresGroups = model.kinds.includes("groups");
  const tree = groupTree(model.groups);
  const declaredGroupIds = model.declaredGroups && new Set(model.declaredGroups);
  const declaresGroup = (id: string) => declaresGroups && (!declaredGroupIds || declaredGroupIds.has(id));
  const treeById = new Map(tree.map((g) => [g.id, g]));
  const treeIndex = new Map(tree.map((g, i) => [g.id, i]));
  const resourceNames = new Set<string>();

  // Groups are named even when only looked up: attachment names start with their group's name.
  const groupNames = assignUnique(
    tree.map((g) => {
      const own = slugify(g.name) || "group";
      const parent = g.parentId ? slugify(treeById.get(g.parentId)!.name) : "";
      const withParent = parent ? `${parent}-${own}` : own;
      return {
        candidates: [own, withParent, g.path.map((name) => slugify(name) || "group").join("-")],
        numberBase: withParent,
      };
    }),
    declaresGroups ? resourceNames : new Set<string>(),
  );
  const groupName = new Map(tree.map((g, i) => [g.id, groupNames[i]]));

  const byTreeThenRole = (a: ModelUser["groupRoles"][number], b: ModelUser["groupRoles"][number]) =>
    treeIndex.get(a.groupId)! - treeIndex.get(b.groupId)! ||
    compareBy<RoleRef>(
      (r) => ROLE_TYPE_ORDER[r.type],
      (r) => r.name,
    )(a.role, b.role);
  const users = model.users
    .map((u) => ({ ...u, groupRoles: [...u.groupRoles].sort(byTreeThenRole) }))
    .sort(
      compareBy(
        (u) => u.email.toLowerCase(),
        (u) => u.id,
      ),
    );
  const userNames = assignUnique(
    users.map((u) => {
      const at = u.email.lastIndexOf("@");
      const local =
        slugify(at > 0 ? u.email.slice(0, at) : u.email) || slugify(`${u.firstName} ${u.lastName}`);
      const whole = slugify(u.email) || "user";
      return { candidates: [local, whole] };
    }),
    resourceNames,
  );

  const channelSlug = (c: ChannelRef) =>
    `${slugify(c.appName) || "app"}-${slugify(c.channelName) || "channel"}`;
  const groupChannels = [...model.groupChannels].sort(
    (a, b) =>
      treeIndex.get(a.groupId)! - treeIndex.get(b.groupId)! ||
      compareBy<ChannelRef>(
        (c) => c.appName,
        (c) => c.channelName,
      )(a.channel, b.channel),
  );
  const groupChannelNames = assignUnique(
    groupChannels.map((a) => ({ candidates: [`${groupName.get(a.groupId)}-${channelSlug(a.channel)}`] })),
    resourceNames,
  );
  const deviceChannels = [...model.deviceChannels].sort(
    compareBy(
      (a) => a.deviceName,
      (a) => a.deviceId,
      (a) => a.channel.appName,
      (a) => a.channel.channelName,
    ),
  );
  const deviceChannelNames = assignUnique(
    deviceChannels.map((a) => ({
      candidates: [`${slugify(a.deviceName) || "device"}-${channelSlug(a.channel)}`],
    })),
    resourceNames,
  );

  // What needs a variable: everything referred to by something declared.
  const referencedGroups = new Set<string>([
    ...users.flatMap((u) => u.groupRoles.map((r) => r.groupId)),
    ...groupChannels.map((a) => a.groupId),
    ...(model.experiences ?? []).flatMap((x) => ("groupId" in x.owner ? [x.owner.groupId] : [])),
    ...(model.placedDevices ?? []).flatMap((d) => (d.groupId ? [d.groupId] : [])),
  ]);
  for (const g of tree) if (declaresGroup(g.id) && g.parentId) referencedGroups.add(g.parentId);
  // A looked-up group is found by name under its parent, so its ancestors are looked up too.
  for (const id of [...referencedGroups]) {
    if (declaresGroup(id)) continue;
    for (let p = treeById.get(id)!.parentId; p; p = treeById.get(p)!.parentId) referencedGroups.add(p);
  }
  const plannedTree = tree.filter((g) => declaresGroup(g.id) || referencedGroups.has(g.id));

  const roles = uniqueSorted(
    users.flatMap((u) => [u.defaultRole, ...u.groupRoles.map((r) => r.role)]),
    roleKey,
    compareBy(
      (r) => ROLE_TYPE_ORDER[r.type],
      (r) => r.name,
    ),
  );
  const channels = uniqueSorted(
    [
      ...[...groupChannels, ...deviceChannels].map((a) => a.channel),
      ...(model.channelVersions ?? []).map((v) => ({ appName: v.appName, channelName: v.channelName })),
    ],
    channelKey,
    compareBy(
      (c) => c.appName,
      (c) => c.channelName,
    ),
  );
  const devices = uniqueSorted(
    [
      ...deviceChannels.map((a) => ({ id: a.deviceId, name: a.deviceName })),
      ...(model.experiences ?? []).flatMap((x) =>
        "deviceId" in x.owner ? [{ id: x.owner.deviceId, name: x.owner.deviceName }] : [],
      ),
      ...(model.deviceContent ?? []).map((c) => ({ id: c.deviceId, name: c.deviceName })),
    ],
    (d) => d.id,
    compareBy(
      (d) => d.name,
      (d) => d.id,
    ),
  );
  const variableGroups = plannedTree.filter((g) => referencedGroups.has(g.id));

  const variables = new Set(RESERVED_IDENTIFIERS);
  const roleVariables = assignIdentifiers(
    roles.map((r) => {
      const base = withSuffix(identifierFrom(slugify(r.name), "role"), "Role");
      return {
        candidates: [base, base.replace(/Role$/, "") + (r.type === "group" ? "GroupRole" : "OrgRole")],
      };
    }),
    variables,
  );
  const channelVariables = assignIdentifiers(
    channels.map((c) => {
      const base = identifierFrom(channelSlug(c), "channel");
      return { candidates: [base, withSuffix(base, "Channel")] };
    }),
    variables,
  );
  const groupVariables = assignIdentifiers(
    variableGroups.map((g) => {
      const base = identifierFrom(groupName.get(g.id)!, "group");
      return { candidates: [base, withSuffix(base, "Group")] };
    }),
    variables,
  );
  const deviceVariables = assignIdentifiers(
    devices.map((d) => ({ candidates: [withSuffix(identifierFrom(slugify(d.name), "device"), "Device")] })),
    variables,
  );

  const roleVariable = new Map(roles.map((r, i) => [roleKey(r), roleVariables[i]]));
  const channelVariable = new Map(channels.map((c, i) => [channelKey(c), channelVariables[i]]));
  const groupVariable = new Map(variableGroups.map((g, i) => [g.id, groupVariables[i]]));
  const deviceVariable = new Map(devices.map((d, i) => [d.id, deviceVariables[i]]));

  // Declared content first: experiences, tag sets and device attachments refer to it by variable.
  const uploaded = planContent(model.uploaded ?? [], resourceNames, variables);
  const contentVariable = new Map(
    uploaded.map((c) => [contentKey(c.content.type, c.content.id), c.variable]),
  );
  const content = planExperiences(model, {
    groupName,
    groupPath: new Map(tree.map((g) => [g.id, g.path.join(" > ")])),
    groupVariable,
    deviceVariable,
    treeIndex,
    contentVariable,
    resourceNames,
    variables,
  });

  const placement = planDevices(model, {
    groupVariable,
    channelVariable,
    deviceVariable,
    contentVariable,
    resourceNames,
    variables,
  });

  const ordinals = sameNameOrdinals(tree);
  const plannedGroups: PlannedGroup[] = plannedTree.map((group) => ({
    group,
    ...(declaresGroup(group.id) ? { resourceName: groupName.get(group.id)! } : {}),
    ...(declaresGroup(group.id) && ordinals.has(group.id)
      ? { sameNameOrdinal: ordinals.get(group.id)! }
      : {}),
    ...(groupVariable.has(group.id) ? { variable: groupVariable.get(group.id)! } : {}),
    ...(group.parentId ? { parentVariable: groupVariable.get(group.parentId)! } : {}),
  }));
  const plannedUsers: PlannedUser[] = users.map((user, i) => ({
    user,
    resourceName: userNames[i],
    defaultRoleVariable: roleVariable.get(roleKey(user.defaultRole))!,
    groupRoles: user.groupRoles.map((r) => ({
      roleVariable: roleVariable.get(roleKey(r.role))!,
      groupVariable: groupVariable.get(r.groupId)!,
    })),
  }));

  return {
    organization: model.organization,
    exportedBy: model.exportedBy,
    declaresGroups,
    roles: roles.map((ref) => ({ ref, variable: roleVariable.get(roleKey(ref))! })),
    channels: channels.map((ref) => ({ ref, variable: channelVariable.get(channelKey(ref))! })),
    groups: plannedGroups,
    users: plannedUsers,
    groupChannels: groupChannels.map((a, i) => ({
      resourceName: groupChannelNames[i],
      groupVariable: groupVariable.get(a.groupId)!,
      channelVariable: channelVariable.get(channelKey(a.channel))!,
      groupId: a.groupId,
      channel: a.channel,
    })),
    devices: devices.map((d) => ({
      deviceName: d.name,
      variable: deviceVariable.get(d.id)!,
      channels: deviceChannels.flatMap((a, i) =>
        a.deviceId === d.id
          ? [
              {
                resourceName: deviceChannelNames[i],
                channelVariable: channelVariable.get(channelKey(a.channel))!,
                channel: a.channel,
              },
            ]
          : [],
      ),
    })),
    content,
    placement,
    uploaded,
    adopt: [
      ...uploaded.map((c) => [c.resourceName, c.content.id] as [string, string]),
      ...plannedGroups.flatMap((g) =>
        g.resourceName ? [[g.resourceName, g.group.id] as [string, string]] : [],
      ),
      ...plannedUsers.map((u) => [u.resourceName, u.user.id] as [string, string]),
      ...groupChannels.flatMap((a, i) =>
        a.releaseChannelId
          ? [[groupChannelNames[i], `${a.groupId}/${a.releaseChannelId}`] as [string, string]]
          : [],
      ),
      // Device attachments in the program's order: by device, then as sorted.
      ...devices.flatMap((d) =>
        deviceChannels.flatMap((a, i) =>
          a.deviceId === d.id && a.releaseChannelId
            ? [[deviceChannelNames[i], `${a.deviceId}/${a.releaseChannelId}`] as [string, string]]
            : [],
        ),
      ),
      ...content.themes.map((t) => [t.resourceName, t.theme.id] as [string, string]),
      ...placement.tags.map((t) => [t.resourceName, t.tag.id] as [string, string]),
      ...placement.deviceContent.map(
        (c) => [c.resourceName, `${c.content.deviceId}/${c.content.contentId}`] as [string, string],
      ),
    ],
    leftOut: [...new Set(model.leftOut)].sort(compareBy((s) => s)),
  };
}

/** The groups the program declares (a split export's program looks up the others it refers to). */
export const declaredGroupCount = (plan: ProgramPlan) => plan.groups.filter((g) => g.resourceName).length;

function uniqueSorted<T>(items: T[], key: (item: T) => string, order: (a: T, b: T) => number): T[] {
  const unique = new Map<string, T>();
  for (const item of items) if (!unique.has(key(item))) unique.set(key(item), item);
  return [...unique.values()].sort(order);
}
