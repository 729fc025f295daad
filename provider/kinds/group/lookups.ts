/** `getGroup`: a group by id, or by name under its parent. */
import type { Group as ApiGroup } from "../../client";
import { checker } from "../../client/arguments";
import { liveStateOf } from "../../framework/properties";
import { byId, exactlyOne, lookupClient, toOutput, type LookupOptions } from "../../lookupSupport";
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
 * @example
 * const emea = dm.getGroupOutput({ name: "EMEA" });
 * const berlin = dm.getGroupOutput({ name: "Berlin Lab", parentId: emea.id });
 */
export async function getGroup(args: GetGroupArgs, options?: LookupOptions): Promise<GroupResult> {
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
}
/** {@link getGroup} with Inputs (e.g. `parentId: folder.id`), as an Output. */
export const getGroupOutput = toOutput(getGroup);
