/**
 * The Group kind's part of preview's catalogue checks: a group that holds channels, files, videos or devices
 * must exist and be configured, a group's parent must be unconfigured, unless a `Group` of this run configures
 * it (which notes it at diff: `noteDeclaredConfigured`).
 */
import type { DeviceMgmtClient, Group as ApiGroup } from "../../client";
import {
  readGroup,
  type Props,
  clientOf,
  known,
  lookRemembered,
  RunDeclarations,
  type Failure,
} from "../../framework";

/**
 * Groups a `Group` of this run declares configured, by client: its diff (which has the id) runs before the
 * check of a resource that takes its `id` output, and its update before that resource's create, so a group
 * configured in the same change is not refused for being unconfigured at preview.
 */
const declaredConfigured = new RunDeclarations("dropped");

/** Called by `Group`'s diff. */
export function noteDeclaredConfigured(groupId: string, inputs: Props): void {
  if (inputs.configured === true) declaredConfigured.note(inputs, groupId);
}

/** Whether a `Group` of this run configures the group (see `noteDeclaredConfigured`). */
export const becomesConfigured = (client: DeviceMgmtClient, groupId: string) =>
  declaredConfigured.has(client, groupId);

/**
 * The group `id` (of `property`, named `path` in the message) as the organization has it: the reason it cannot
 * be used (`problem` of the group found: undefined when it can), or undefined when it can or cannot be asked.
 */
async function groupFailure(
  client: DeviceMgmtClient,
  path: string,
  id: string,
  problem: (group: ApiGroup) => string | undefined,
): Promise<string | undefined> {
  // From the run's coalesced list pass: a first preview of many attachments reads the list, not each one.
  const group = await lookRemembered(client, `group/${id}`, () => readGroup(client, id));
  if (group === undefined) return `${path}: group ${id} does not exist in the organization (see getGroup).`;
  return group === null ? undefined : problem(group);
}

/** Why a group that must be configured (`rule` says why) is not, if it is not. */
const unlessConfigured = (client: DeviceMgmtClient, path: string, rule: string) => (group: ApiGroup) =>
  group.isConfigured || becomesConfigured(client, group.id)
    ? undefined
    : `${path}: group ${group.id} ("${group.name}") is not configured, and ${rule}. Set configured: true on ` +
      `the Group (configuring is irreversible).`;

/**
 * A group that holds channels, files, videos or devices must exist and be configured (`rule`: "release channels
 * attach only to configured groups").
 */
export async function configuredGroupFailures(
  property: string,
  inputs: Props,
  olds: Props,
  rule: string,
): Promise<Failure[]> {
  const id = inputs[property];
  if (!known(id) || id === olds[property]) return [];
  const client = clientOf(inputs);
  if (client === undefined) return [];
  const reason = await groupFailure(client, property, id, unlessConfigured(client, property, rule));
  return reason === undefined ? [] : [{ property, reason }];
}

/**
 * A group's parent must exist and be unconfigured: configured groups are leaves. A parent that a `Group` of
 * this run configures (its diff ran first: `noteDeclaredConfigured`) counts as configured.
 */
export async function parentGroupFailures(inputs: Props, olds: Props): Promise<Failure[]> {
  const id = inputs.parentId;
  if (!known(id) || id === olds.parentId) return [];
  const client = clientOf(inputs);
  if (client === undefined) return [];
  const reason = await groupFailure(client, "parentId", id, (parent) =>
    parent.isConfigured || becomesConfigured(client, id)
      ? `parentId: group ${id} ("${parent.name}") is ${parent.isConfigured ? "" : "declared "}configured, and ` +
        `configured groups are leaves (they hold devices and content, not groups): a group's parent must be an ` +
        `unconfigured group. Choose an unconfigured parent (or none: a root-level group).`
      : undefined,
  );
  return reason === undefined ? [] : [{ property: "parentId", reason }];
}

/**
 * Each group of a list (a rollout gate's `groupIds`) that is new since `before` must exist and be configured:
 * only configured groups hold devices, so any other counts none.
 */
export async function groupListFailures(
  path: string,
  ids: unknown,
  before: unknown,
  inputs: Props,
  rule: string,
): Promise<Failure[]> {
  if (!Array.isArray(ids)) return [];
  const client = clientOf(inputs);
  if (client === undefined) return [];
  const recorded = new Set(Array.isArray(before) ? before : []);
  const reasons = await Promise.all(
    ids.map(async (id: unknown, i) =>
      known(id) && !recorded.has(id)
        ? groupFailure(client, `${path}[${i}]`, id, unlessConfigured(client, `${path}[${i}]`, rule))
        : undefined,
    ),
  );
  const found = reasons.filter((r): r is string => r !== undefined);
  return found.length === 0 ? [] : [{ property: path.split(".")[0], reason: found.join(" ") }];
}
