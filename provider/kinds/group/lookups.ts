/** `getGroup`: a group by id, or by name under its parent; `getGroupTree`: the tree to walk. */
import type { Group as ApiGroup, GroupHierarchyNode } from "../../client";
import { checker } from "../../client/arguments";
import { liveStateOf } from "../../framework";
import {
  byId,
  exactlyOne,
  lookup,
  lookupClient,
  toOutput,
  toOutputWithOptionalArgs,
  type LookupOptions,
} from "../../lookupSupport";
import { groupProperties } from "./properties";

/** A group (a folder of groups when not configured, a leaf holding devices and content when configured). */
export interface GroupResult {
  id: string;
  name: string;
  /** The parent folder's id; null for a root-level group. */
  parentId: string | null;
  /** True for a leaf group that can hold devices, release channels, files and videos. */
  configured: boolean;
  deviceCount: number;
}

/** {@link getGroup} by id. */
export interface GetGroupByIdArgs {
  /** The group's UUID. */
  id: string;
  name?: never;
  parentId?: never;
}

/** {@link getGroup} by name under a parent. */
export interface GetGroupByNameArgs {
  id?: never;
  /** The group's exact name (1 to 255 characters, case-sensitive). */
  name: string;
  /** The UUID of the folder the group is in; null or absent for a root-level group. */
  parentId?: string | null;
}

/** Arguments of {@link getGroup}: `{ id }`, or `{ name, parentId? }`. */
export type GetGroupArgs = GetGroupByIdArgs | GetGroupByNameArgs;

const GROUP_USAGE =
  'getGroup({ id: "<group uuid>" }), getGroup({ name: "EMEA" }) for a root-level group, or ' +
  'getGroup({ name: "Berlin Lab", parentId: "<parent uuid>" })';

const groupResult = (g: ApiGroup): GroupResult => ({
  id: g.id,
  ...liveStateOf(groupProperties, g),
  deviceCount: g.deviceCount ?? 0,
});

/**
 * Finds a group by id, or by name among the children of one parent (the root when parentId is absent).
 *
 * @function
 * @example
 * const emea = dm.getGroupOutput({ name: "EMEA" });
 * const berlin = dm.getGroupOutput({ name: "Berlin Lab", parentId: emea.id });
 */
export const getGroup = lookup(async function getGroup(
  args: GetGroupArgs,
  options?: LookupOptions,
): Promise<GroupResult> {
  const check = checker("getGroup", args, GROUP_USAGE);
  check.only("id", "name", "parentId");
  if (check.has("id")) {
    if (check.has("name") || check.has("parentId"))
      check.fail('give either "id", or "name" with an optional "parentId" — not both.');
    const id = check.uuid("id", "group");
    const client = lookupClient(options);
    const g = await byId("group", id, () => client.groups.get(id));
    return groupResult(g);
  }
  if (!check.has("name")) check.fail('it needs "id" or "name".');
  const name = check.name("name", "group's name");
  // The API returns ids in lower case; one copied in capitals must still find its children.
  const givenParent = args.parentId;
  const parentId =
    givenParent === undefined || givenParent === null
      ? null
      : check.uuid("parentId", "parent group").toLowerCase();
  const groups = await lookupClient(options).groups.all();
  const siblings = groups.filter((g) => (g.parent?.id ?? null) === parentId);
  const g = exactlyOne(
    `group named "${name}" ${parentId ? `under group ${parentId}` : "at the root"}`,
    siblings.filter((s) => s.name === name),
    (m) => `${m.id} (created ${m.createdAt})`,
    siblings.map((s) => s.name),
  );
  return groupResult(g);
});
/** {@link getGroup} with Inputs (e.g. `parentId: folder.id`), as an Output. */
export const getGroupOutput = toOutput(getGroup);

// ---- The group tree -------------------------------------------------------------------------------------------

/** One group of {@link getGroupTree}, with the groups under it. */
export interface GroupTreeNode {
  id: string;
  name: string;
  /** The folder it is in; null for a root-level group (and for the top of a tree the token sees only part of). */
  parentId: string | null;
  /** True for a leaf group that can hold devices, release channels, files and videos. */
  configured: boolean;
  deviceCount: number;
  /** The groups in it, in the API's order; empty for a leaf. */
  children: GroupTreeNode[];
}

/** Arguments of {@link getGroupTree}; none: the whole tree. */
export interface GetGroupTreeArgs {
  /** Only this group and what is under it (its UUID). */
  rootGroupId?: string;
}

/** The tree {@link getGroupTree} read. */
export interface GroupTreeResult {
  /** The root-level groups (or the one `rootGroupId` names), each with its subtree. */
  roots: GroupTreeNode[];
  /** Every group of `roots`, parents before their children (depth first), for a program that filters. */
  all: GroupTreeNode[];
}

const TREE_USAGE = 'getGroupTree() for the whole tree, or getGroupTree({ rootGroupId: "<group uuid>" })';

function treeNode(node: GroupHierarchyNode, parentId: string | null): GroupTreeNode {
  return {
    id: node.id,
    name: node.name,
    parentId,
    configured: node.isConfigured,
    deviceCount: node.deviceCount ?? 0,
    children: (node.children ?? []).map((child) => treeNode(child, node.id)),
  };
}

function* depthFirst(nodes: GroupTreeNode[]): Generator<GroupTreeNode> {
  for (const node of nodes) {
    yield node;
    yield* depthFirst(node.children);
  }
}

/**
 * The group tree in one request (`GET /group-hierarchy`), for a program that walks it: e.g. a release channel on
 * every configured site under a region, whoever created the sites. The roots are the answer's top-level nodes
 * (for a token with only group roles the documents do not say which; their parentId is null either way).
 *
 * @function
 * @example
 * const emea = dm.getGroupOutput({ name: "EMEA" });
 * const tree = dm.getGroupTreeOutput({ rootGroupId: emea.id });
 * export const emeaSites = tree.all.apply((groups) => groups.filter((g) => g.configured).map((g) => g.name));
 */
export const getGroupTree = lookup(async function getGroupTree(
  args: GetGroupTreeArgs = {},
  options?: LookupOptions,
): Promise<GroupTreeResult> {
  const check = checker("getGroupTree", args, TREE_USAGE);
  check.only("rootGroupId");
  const rootGroupId = check.has("rootGroupId") ? check.uuid("rootGroupId", "group").toLowerCase() : undefined;
  const all = (await lookupClient(options).groups.hierarchy()).map((node) => treeNode(node, null));
  if (rootGroupId === undefined) return { roots: all, all: [...depthFirst(all)] };
  const every = [...depthFirst(all)];
  const root = exactlyOne(
    `group with id ${rootGroupId} in the group tree`,
    every.filter((g) => g.id.toLowerCase() === rootGroupId),
    (g) => g.id,
    every.map((g) => g.name),
  );
  return { roots: [root], all: [...depthFirst([root])] };
});
/** {@link getGroupTree} with Inputs (e.g. `rootGroupId: region.id`), as an Output. */
export const getGroupTreeOutput = toOutputWithOptionalArgs(getGroupTree);
