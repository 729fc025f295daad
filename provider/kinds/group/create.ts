/**
 * How a Group is created without ever duplicating one: the "no same-named sibling" rule, its explicit
 * exception for organizations that really keep several groups of one name under one parent (`sameNameOrdinal`),
 * and the lost-answer check. Pure rules are exported for tests.
 */
import type { DeviceMgmtClient, Group as ApiGroup } from "../../client";
import { notCreatedHere, untilApplied } from "../../framework";

export interface Sibling {
  id: string;
  name: string;
  parentId: string | null;
  createdAt?: string;
}

export const siblingOf = (g: ApiGroup): Sibling => ({
  id: g.id,
  name: g.name,
  parentId: g.parent?.id ?? null,
  createdAt: g.createdAt,
});

/**
 * The groups of each organization as this process knows them: listed once (the first create), then kept up to
 * date with the groups this process creates, renames, moves and deletes. It answers "does a group of this name
 * already exist under this parent?" without a list per create; what others create during the run is not seen,
 * which only matters for objects that are not this stack's.
 */
const knownGroups = new Map<string, Promise<Sibling[]>>();
/** Ids of the groups this process created: `sameNameOrdinal` counts only the ones that were there before. */
const createdHere = new Set<string>();
/** Creates of one name under one parent run one at a time, so "did my lost request make it?" has one answer. */
const creating = new Map<string, Promise<unknown>>();

/** Keeps the known groups true to this process's own renames, moves and deletions. */
export async function noteGroupChange(client: DeviceMgmtClient, id: string, now: ApiGroup | undefined) {
  const known = knownGroups.get((await client.assertV3Token()).organization_id);
  if (!known) return;
  const groups = await known.catch(() => undefined);
  if (!groups) return;
  const index = groups.findIndex((g) => g.id === id);
  if (index >= 0) groups.splice(index, 1);
  if (now) groups.push(siblingOf(now));
}

async function oneAtATime<T>(key: string, task: () => Promise<T>): Promise<T> {
  const before = creating.get(key) ?? Promise.resolve();
  const run = before.then(task, task);
  const settled = run.catch(() => undefined);
  creating.set(key, settled);
  try {
    return await run;
  } finally {
    if (creating.get(key) === settled) creating.delete(key);
  }
}

/**
 * Pure: the same-named siblings that forbid this create, or none. Without an ordinal any same-named sibling
 * does (the object a rename without aliases, a re-export or an interrupted run would otherwise duplicate).
 * With `sameNameOrdinal: n` the program declares n or more such groups and this is the n-th: the create is
 * refused once n of them were already there before this run (the ones this run made are its own siblings).
 */
export function blockingSiblings(
  sameNamed: Sibling[],
  ordinal: number | undefined,
  createdInThisRun: (id: string) => boolean,
): Sibling[] {
  if (ordinal === undefined) return sameNamed;
  const before = sameNamed.filter((g) => !createdInThisRun(g.id));
  return before.length >= ordinal ? before : [];
}

function groupExists(name: string, parentId: string | null, existing: Sibling[], ordinal?: number): Error {
  const where = parentId ? `under group ${parentId}` : "at the root";
  const ids = existing.map((g) => g.id).join(", ");
  const found =
    ordinal === undefined
      ? `A group named "${name}" already exists ${where} (id ${ids}), and this Group did not create it.`
      : `${existing.length} groups named "${name}" already exist ${where} (ids ${ids}), and this Group, ` +
        `declared as the copy number ${ordinal} (sameNameOrdinal: ${ordinal}), did not create any of them.`;
  return notCreatedHere(
    found,
    "a group",
    existing[existing.length - 1].id,
    " Groups of one name under one parent are refused so that no run can duplicate one; give a second group " +
      "another name, or, if the organization really keeps several, number them with sameNameOrdinal: 1, 2, ….",
  );
}

/**
 * Creates the group unless the same-named siblings forbid it (blockingSiblings), surviving an ambiguous failure:
 * after a lost answer, a group of that name under that parent that was not there before is the one the request
 * made (no other could appear from this process: creates of one name run one at a time), so a retry never
 * duplicates it. `own` picks, of the same-named siblings that were there before this run, the one a killed run
 * of this very resource made (claims.ts): that group is taken over instead of refused.
 */
export async function createOnce(
  client: DeviceMgmtClient,
  name: string,
  parentId: string | null,
  ordinal: number | undefined,
  own: (found: Sibling[]) => Sibling | undefined = () => undefined,
): Promise<ApiGroup> {
  const organizationId = (await client.assertV3Token()).organization_id;
  let known = knownGroups.get(organizationId);
  if (!known) {
    known = client.groups.all().then((groups) => groups.map(siblingOf));
    knownGroups.set(organizationId, known);
    known.catch(() => knownGroups.delete(organizationId));
  }
  const groups = await known;
  const sameName = (g: Sibling) => g.name === name && g.parentId === parentId;
  return oneAtATime(JSON.stringify([organizationId, parentId, name]), async () => {
    const sameNamed = groups.filter(sameName);
    const mine = own(sameNamed.filter((g) => !createdHere.has(g.id)));
    if (mine) return client.groups.get(mine.id);
    const blocking = blockingSiblings(sameNamed, ordinal, (id) => createdHere.has(id));
    if (blocking.length) throw groupExists(name, parentId, blocking, ordinal);
    const before = new Set(sameNamed.map((g) => g.id));
    const created = await untilApplied(
      () => client.groups.create({ name, parentId }),
      async () => {
        const now = (await client.groups.all()).filter((g) => sameName(siblingOf(g)) && !before.has(g.id));
        return now.length === 1 ? now[0] : undefined;
      },
    );
    createdHere.add(created.id);
    groups.push(siblingOf(created));
    return created;
  });
}
