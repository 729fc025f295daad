/**
 * The Tag kind's part of preview's catalogue checks: tag names other kinds attach (a device's, a tag set's) must
 * be in the organization's catalogue or declared by a `Tag` of this run (which notes its name at check).
 */
import type { DeviceMgmtClient, Tag as ApiTag } from "../../client";
import { type Props, clientOf, didYouMean, known, RunDeclarations, type Failure } from "../../framework";

/**
 * Tag names declared by the `Tag` resources checked in this process (one engine run), by the client of their
 * organization (those whose connection is not known yet count for any). A `Tag` of the program is
 * created before a resource that takes its `name` output (the engine orders them by that dependency), and its
 * check runs before that resource's check, so a name it declares is not a typo even while the catalogue lacks
 * it. A literal name with no such dependency is checked against the catalogue only: attached at `up` before the
 * Tag exists, it would create the tag outside the Tag resource (or be refused), so the message says to pass the
 * Tag's `name` output.
 */
const declaredTags = new RunDeclarations("anyOrganization");

/** Called by `Tag`'s check: the name it declares exists by the time a dependent resource is created. */
export function noteDeclaredTag(inputs: Props): void {
  if (known(inputs.name)) declaredTags.note(inputs, inputs.name.toLowerCase());
}

/**
 * The catalogue, read once per client and process and read again when a name is missing from it (it may have
 * been created since: a Tag of this run, the portal), so a stale copy never turns a real name into a failure.
 */
const catalogues = new WeakMap<DeviceMgmtClient, Promise<ApiTag[]>>();

async function catalogueLacks(
  client: DeviceMgmtClient,
  names: string[],
): Promise<{ name: string; hint: string }[] | undefined> {
  const missing = (tags: ApiTag[]) => {
    const have = new Set(tags.map((t) => t.name.toLowerCase()));
    return names.filter((n) => !have.has(n.toLowerCase()));
  };
  try {
    const cached = catalogues.get(client);
    if (cached !== undefined && missing(await cached).length === 0) return [];
    const fresh = client.tags.all();
    catalogues.set(client, fresh);
    fresh.catch(() => catalogues.delete(client));
    const tags = await fresh;
    return missing(tags).map((name) => ({
      name,
      hint: didYouMean(
        name,
        tags.map((t) => t.name),
      ),
    }));
  } catch {
    return undefined;
  }
}

/**
 * `property` (a list of tag names) against the catalogue: each known name that is new since `olds`, not
 * declared by a Tag of this run and not in the catalogue is a failure, one for the property, naming each.
 */
export async function unknownTagFailures(property: string, inputs: Props, olds: Props): Promise<Failure[]> {
  const names = inputs[property];
  if (!Array.isArray(names)) return [];
  const client = clientOf(inputs);
  if (client === undefined) return [];
  const recorded: unknown = olds[property];
  const before = new Set((Array.isArray(recorded) ? recorded : []).filter(known).map((n) => n.toLowerCase()));
  const fresh = names
    .filter(known)
    .filter((n) => !before.has(n.toLowerCase()) && !declaredTags.has(client, n.toLowerCase()));
  if (fresh.length === 0) return [];
  const lacking = await catalogueLacks(client, [...new Set(fresh)]);
  if (!lacking?.length) return [];
  const reasons = lacking.map(
    ({ name, hint }) =>
      `${property}[${names.indexOf(name)}]: no tag named "${name}" is in the organization's catalogue and no ` +
      `Tag of this program declares it${hint}`,
  );
  return [
    {
      property,
      reason:
        `${reasons.join("; ")}. Correct the name, or declare the tag (new Tag(..., { name })) and pass its name ` +
        `output (tags: [tag.name]) so that it is created before it is attached.`,
    },
  ];
}
