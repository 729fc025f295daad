/**
 * The in-memory picture of an organization that the export reads (read.ts) and renders (render.ts). It holds
 * only what a program declares or looks up, by name where the program refers to things by name, so rendering
 * is a pure function of it.
 */

import { UnexportableTreeError } from "./errors";
import type {
  ModelChannelVersion,
  ModelDeviceContent,
  ModelPlacedDevice,
  ModelTag,
  ModelTagSet,
} from "./deviceRead";
import type { ModelContent } from "./content";
import type { ModelExperience, ModelTheme } from "./experienceRead";
import { compareBy } from "./order";

/** What a program can declare; `groups` also decides whether groups are declared or only looked up. */
export type ExportKind =
  "groups" | "users" | "attachments" | "themes" | "experiences" | "tags" | "devices" | "versions" | "content";
export const EXPORT_KINDS: readonly ExportKind[] = [
  "groups",
  "users",
  "attachments",
  "themes",
  "experiences",
  "tags",
  "devices",
  "versions",
  "content",
];

export type RoleType = "organization" | "group";

/** A role as the program finds it: `getRoleOutput({ name, type })`. */
export interface RoleRef {
  name: string;
  type: RoleType;
}

/** A release channel as the program finds it: `getReleaseChannelOutput({ appName, channelName })`. */
export interface ChannelRef {
  appName: string;
  channelName: string;
}

export interface ModelGroup {
  id: string;
  name: string;
  parentId: string | null;
  configured: boolean;
}

export interface ModelUser {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  defaultRole: RoleRef;
  groupRoles: { role: RoleRef; groupId: string }[];
}

export interface ModelGroupChannel {
  groupId: string;
  channel: ChannelRef;
  /** The channel's id in this organization, when read: the attachment's id is `<groupId>/<releaseChannelId>`. */
  releaseChannelId?: string;
}

/** A release channel on an ungrouped device; the program finds the device by name (`getDeviceOutput`). */
export interface ModelDeviceChannel {
  deviceId: string;
  deviceName: string;
  channel: ChannelRef;
  /** The channel's id in this organization, when read: the attachment's id is `<deviceId>/<releaseChannelId>`. */
  releaseChannelId?: string;
}

export interface OrgModel {
  organization: { id: string; name: string; slug: string };
  /** E-mail of the token's own user, never declared (every organization has its token's user); null if unread. */
  exportedBy: string | null;
  /** What the program declares. Without "groups", the groups it refers to are looked up by name instead. */
  kinds: ExportKind[];
  /** Every group of the organization (the tree is needed even when groups are only looked up). */
  groups: ModelGroup[];
  /**
   * With "groups": the ids of the groups this program declares, when not all (a split export's program,
   * split.ts); the others it refers to are looked up by name. Absent: every group.
   */
  declaredGroups?: string[];
  users: ModelUser[];
  groupChannels: ModelGroupChannel[];
  deviceChannels: ModelDeviceChannel[];
  /** The organization's custom themes (kind "themes"); absent: none. */
  themes?: ModelTheme[];
  /** Experiences of configured groups and ungrouped devices (kind "experiences"); absent: none. */
  experiences?: ModelExperience[];
  /** The tag catalogue (kind "tags"); absent: none. */
  tags?: ModelTag[];
  /** The tags of apps, files and videos (kind "tags"); absent: none. */
  tagSets?: ModelTagSet[];
  /** Files and videos on ungrouped devices (kind "devices"); absent: none. */
  deviceContent?: ModelDeviceContent[];
  /** Every device's placement, adopted by serial number (kind "devices"); absent: none. */
  placedDevices?: ModelPlacedDevice[];
  /** The version each release channel delivers (kind "versions"); absent: none. */
  channelVersions?: ModelChannelVersion[];
  /** Uploaded content that can be downloaded, declared with its bytes beside the program (kind "content"). */
  uploaded?: ModelContent[];
  /** One sentence per thing the program leaves out, and why; shown in the generated README. */
  leftOut: string[];
}

export interface TreeGroup extends ModelGroup {
  /** Names from the root down to this group. */
  path: string[];
}

/**
 * The groups depth-first, parents before children, siblings by name then id: a stable order that reads like
 * the tree. Throws if a parent is missing or the parents form a loop (the export would otherwise be wrong).
 */
export function groupTree(groups: ModelGroup[]): TreeGroup[] {
  const byId = new Map(groups.map((g) => [g.id, g]));
  const children = new Map<string | null, ModelGroup[]>();
  for (const group of groups) {
    if (group.parentId !== null && !byId.has(group.parentId)) {
      throw new UnexportableTreeError(
        `Group ${group.id} ("${group.name}") has parent ${group.parentId}, which the token cannot see. ` +
          `Export with a token whose user sees the whole group tree (e.g. an Admin).`,
        [group.id],
        "export with a token whose user sees the whole group tree",
      );
    }
    const siblings = children.get(group.parentId) ?? [];
    siblings.push(group);
    children.set(group.parentId, siblings);
  }
  const ordered: TreeGroup[] = [];
  const visit = (parentId: string | null, path: string[]) => {
    const siblings = [...(children.get(parentId) ?? [])].sort(
      compareBy(
        (g) => g.name,
        (g) => g.id,
      ),
    );
    for (const group of siblings) {
      const groupPath = [...path, group.name];
      ordered.push({ ...group, path: groupPath });
      visit(group.id, groupPath);
    }
  };
  visit(null, []);
  if (ordered.length !== groups.length) {
    const reached = new Set(ordered.map((g) => g.id));
    const stranded = groups.filter((g) => !reached.has(g.id)).map((g) => g.id);
    throw new UnexportableTreeError(
      `The parents of groups ${stranded.join(", ")} form a loop; the tree cannot be exported.`,
      stranded,
      "give one of these groups another parent",
    );
  }
  return ordered;
}

export const roleKey = (role: RoleRef) => `${role.type}\u0000${role.name}`;
export const channelKey = (channel: ChannelRef) => `${channel.appName}\u0000${channel.channelName}`;

/**
 * Groups a lookup by name under their parent cannot single out: those with a same-named sibling, and
 * everything below them (a looked-up group is found through its ancestors).
 */
export function groupsNotFindableByName(tree: TreeGroup[]): Set<string> {
  const siblingsNamed = new Map<string, number>();
  const key = (g: ModelGroup) => `${g.parentId ?? ""}\u0000${g.name}`;
  for (const g of tree) siblingsNamed.set(key(g), (siblingsNamed.get(key(g)) ?? 0) + 1);
  const unfindable = new Set<string>();
  // Tree order visits parents first, so a parent's verdict is known when its children are judged.
  for (const g of tree) {
    if (siblingsNamed.get(key(g))! > 1 || (g.parentId && unfindable.has(g.parentId))) unfindable.add(g.id);
  }
  return unfindable;
}
