/**
 * What `check` asks the live organization about names and ids that must already exist there: a tag name (unless
 * a `Tag` of this program declares it), the owner of a tag set, the group or device of an attachment, the file
 * or video attached, an app's release channel. Each failure names the property, the value, and the closest
 * existing name where there is one, so a typo is caught at preview instead of creating a catalogue tag or
 * failing at `up` with a bare 404.
 *
 * Only values that are known and new or changed since the inputs last checked (`olds`) are looked up: an
 * unchanged program costs no request at preview. A read that cannot be made (a connection not known yet, a
 * network error, a refused token) lets the value pass: create and update still report what the API refuses.
 */
import type * as pulumi from "@pulumi/pulumi";
import { NotFoundError, type DeviceMgmtClient, type Group as ApiGroup, type Tag as ApiTag } from "../client";
import { NotPossibleError } from "../errors";
import { readDevice, readGroup } from "./coalescedReads";
import { clientForProps } from "./context";
import { containsUnknown, type Props } from "./framework";

type Failure = pulumi.dynamic.CheckFailure;

/**
 * At create, for a 404 that check could not foresee (the value was not known then, or the object went since):
 * the same look-up as check, so the error names the property and the fix instead of a bare `GET … 404`.
 * Any other error, or a 404 the look-up cannot explain, is returned as it is.
 */
export async function explainedNotFound(
  kind: string,
  error: unknown,
  failures: () => Promise<Failure[]>,
): Promise<unknown> {
  if (!(error instanceof NotFoundError)) return error;
  const [failure] = await failures().catch((): Failure[] => []);
  if (failure === undefined) return error;
  return new NotPossibleError(`${failure.reason} (${error.message})`, {
    kind,
    property: failure.property,
    fix: `correct ${failure.property}`,
  });
}

// ---- Closest name -------------------------------------------------------------------------------------------

/** Levenshtein distance (insert, delete, substitute), without case: tag names compare so. */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const current = [i];
    for (let j = 1; j <= t.length; j++) {
      const substitution = previous[j - 1] + (s[i - 1] === t[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j] + 1, current[j - 1] + 1, substitution));
    }
    previous = current;
  }
  return previous[t.length];
}

/**
 * The candidate nearest to `value`, when near enough to be what was meant (at most a third of the name's
 * length, and at least one edit, apart); undefined otherwise, so a message never suggests an unrelated name.
 * Hand-written rather than a package: twenty lines, and the provider's dependencies are kept few.
 */
export function closestName(value: string, candidates: Iterable<string>): string | undefined {
  const limit = Math.max(1, Math.floor(value.length / 3));
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = editDistance(value, name);
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

const didYouMean = (value: string, candidates: Iterable<string>) => {
  const closest = closestName(value, candidates);
  return closest === undefined ? "" : ` (the closest existing name is "${closest}")`;
};

const known = (value: unknown): value is string => typeof value === "string" && !containsUnknown(value);

/** The client for `props`, or undefined while the connection is not known (preview) or cannot be resolved. */
function clientOf(props: Props): DeviceMgmtClient | undefined {
  if (containsUnknown(props.connection)) return undefined;
  try {
    return clientForProps(props);
  } catch {
    return undefined;
  }
}

/** A read whose 404 is an answer (undefined) and whose other failures are no answer (null). */
export async function look<T>(read: () => Promise<T>): Promise<T | undefined | null> {
  try {
    return await read();
  } catch (error) {
    return error instanceof NotFoundError ? undefined : null;
  }
}

/**
 * Answers of `look` kept for a short while, by client and key: a first preview of 200 GroupFiles of one group
 * and one file reads that group and file once, not 200 times. What this run itself changes meanwhile is in the
 * registries below (a group configured, a device ungrouped), and the API still has the last word at `up`.
 */
const remembered = new WeakMap<DeviceMgmtClient, Map<string, { at: number; answer: Promise<unknown> }>>();
const REMEMBER_MS = 30_000;

function lookRemembered<T>(
  client: DeviceMgmtClient,
  key: string,
  read: () => Promise<T>,
): Promise<T | undefined | null> {
  const answers = remembered.get(client) ?? new Map<string, { at: number; answer: Promise<unknown> }>();
  remembered.set(client, answers);
  const kept = answers.get(key);
  if (kept && Date.now() - kept.at < REMEMBER_MS) return kept.answer as Promise<T | undefined | null>;
  const answer = look(read);
  answers.set(key, { at: Date.now(), answer });
  return answer;
}

// ---- Tags ---------------------------------------------------------------------------------------------------

/**
 * Tag names declared by the `Tag` resources checked in this process (one engine run), by the client of their
 * organization; `anyOrganization` holds those whose connection is not known yet. A `Tag` of the program is
 * created before a resource that takes its `name` output (the engine orders them by that dependency), and its
 * check runs before that resource's check, so a name it declares is not a typo even while the catalogue lacks
 * it. A literal name with no such dependency is checked against the catalogue only: attached at `up` before the
 * Tag exists, it would create the tag outside the Tag resource (or be refused), so the message says to pass the
 * Tag's `name` output.
 */
const declaredTags = new WeakMap<DeviceMgmtClient, Set<string>>();
const anyOrganization = new Set<string>();

/** Called by `Tag`'s check: the name it declares exists by the time a dependent resource is created. */
export function noteDeclaredTag(inputs: Props): void {
  if (!known(inputs.name)) return;
  const client = clientOf(inputs);
  const names = client === undefined ? anyOrganization : (declaredTags.get(client) ?? new Set<string>());
  if (client !== undefined) declaredTags.set(client, names);
  names.add(inputs.name.toLowerCase());
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
  const declared = declaredTags.get(client);
  const fresh = names
    .filter(known)
    .filter(
      (n) =>
        !before.has(n.toLowerCase()) &&
        !declared?.has(n.toLowerCase()) &&
        !anyOrganization.has(n.toLowerCase()),
    );
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

// ---- Owners and attached things ------------------------------------------------------------------------------

/** The kinds a `TagSet` (`ownerType`) can name, and how one is read. */
const OWNER_READS: Record<
  "group" | "app" | "file" | "video",
  (c: DeviceMgmtClient, id: string) => Promise<unknown>
> = {
  group: (client, id) => client.groups.get(id),
  app: (client, id) => client.apps.get(id),
  file: (client, id) => client.files.get(id),
  video: (client, id) => client.videos.get(id),
};
type OwnerType = keyof typeof OWNER_READS;

const isOwnerType = (value: unknown): value is OwnerType => known(value) && value in OWNER_READS;

/**
 * `ownerId` must name an object of `ownerType`. When it names none, the other owner types are asked too, so the
 * message can say "that is a group's id: set ownerType: "group"".
 */
export async function tagOwnerFailures(inputs: Props, olds: Props): Promise<Failure[]> {
  const type = inputs.ownerType;
  const id = inputs.ownerId;
  if (!known(id) || !isOwnerType(type)) return [];
  if (id === olds.ownerId && type === olds.ownerType) return [];
  const client = clientOf(inputs);
  if (client === undefined) return [];
  const found = await look(() => OWNER_READS[type](client, id));
  if (found !== undefined) return [];
  const others = (Object.keys(OWNER_READS) as OwnerType[]).filter((t) => t !== type);
  const answers = await Promise.all(others.map((t) => look(() => OWNER_READS[t](client, id))));
  const actual = others.find((_, i) => answers[i]);
  return [
    {
      property: "ownerId",
      reason:
        actual === undefined
          ? `ownerId: no ${type} with id ${id} exists in the organization. Correct ownerId (see get${capital(type)}).`
          : `ownerId: ${id} is the id of ${withArticle(actual)}, not of ${withArticle(type)}: set ownerType: "${actual}", or correct ownerId.`,
    },
  ];
}

const capital = (word: string) => word[0].toUpperCase() + word.slice(1);

/** "a group", "an app". */
export const withArticle = (noun: string) => `${/^[aeiou]/.test(noun) ? "an" : "a"} ${noun}`;

/**
 * Devices a `Device` of this run declares ungrouped (`groupId: null`), by client: its check runs before that of
 * a resource taking its `deviceId` output, and its update before that resource's create, so such a device is
 * not refused for the group it is about to leave.
 */
const declaredUngrouped = new WeakMap<DeviceMgmtClient, Set<string>>();

/** Called by `Device`'s check (by `deviceId`) and diff (by the recorded id: a device declared by serial number). */
export function noteDeclaredPlacement(deviceId: unknown, inputs: Props): void {
  if (inputs.groupId !== null || !known(deviceId)) return;
  const client = clientOf(inputs);
  if (client === undefined) return;
  const ids = declaredUngrouped.get(client) ?? new Set<string>();
  declaredUngrouped.set(client, ids.add(deviceId));
}

/** Whether a `Device` of this run takes the device out of its group (see `noteDeclaredPlacement`). */
export const leavesItsGroup = (client: DeviceMgmtClient, deviceId: string) =>
  declaredUngrouped.get(client)?.has(deviceId) === true;

/**
 * Groups a `Group` of this run declares configured, by client: its diff (which has the id) runs before the
 * check of a resource that takes its `id` output, and its update before that resource's create, so a group
 * configured in the same change is not refused for being unconfigured at preview.
 */
const declaredConfigured = new WeakMap<DeviceMgmtClient, Set<string>>();

/** Called by `Group`'s diff. */
export function noteDeclaredConfigured(groupId: string, inputs: Props): void {
  if (inputs.configured !== true) return;
  const client = clientOf(inputs);
  if (client === undefined) return;
  const ids = declaredConfigured.get(client) ?? new Set<string>();
  declaredConfigured.set(client, ids.add(groupId));
}

/** Whether a `Group` of this run configures the group (see `noteDeclaredConfigured`). */
export const becomesConfigured = (client: DeviceMgmtClient, groupId: string) =>
  declaredConfigured.get(client)?.has(groupId) === true;

/** A device that takes channels, files, videos or an experience of its own must be ungrouped. */
export async function ungroupedDeviceFailures(
  property: string,
  inputs: Props,
  olds: Props,
  what: string,
  instead: string,
): Promise<Failure[]> {
  const id = inputs[property];
  if (!known(id) || id === olds[property]) return [];
  const client = clientOf(inputs);
  if (client === undefined) return [];
  // From the run's coalesced list pass: a first preview of many attachments reads the list, not each one.
  const device = await lookRemembered(client, `device/${id}`, () => readDevice(client, id));
  if (device === undefined)
    return [
      {
        property,
        reason: `${property}: device ${id} does not exist in the organization (devices are enrolled on the headset; see getDevice).`,
      },
    ];
  if (device?.group && !leavesItsGroup(client, id))
    return [
      {
        property,
        reason:
          `${property}: device ${id} ("${device.name}") is in group ${device.group.id} ("${device.group.name}"), ` +
          `and ${what} attach to a device only while it is ungrouped. Attach to the group instead (${instead}), ` +
          `or take the device out of the group.`,
      },
    ];
  return [];
}

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

/** A file or video id must name one of the organization's (`fileId`, `videoId`). */
export async function contentFailures(
  property: "fileId" | "videoId",
  inputs: Props,
  olds: Props,
): Promise<Failure[]> {
  const id = inputs[property];
  if (!known(id) || id === olds[property]) return [];
  const client = clientOf(inputs);
  if (client === undefined) return [];
  const noun = property === "fileId" ? "file" : "video";
  const found = await lookRemembered(client, `${noun}/${id}`, () =>
    property === "fileId" ? client.files.get(id) : client.videos.get(id),
  );
  return found === undefined
    ? [
        {
          property,
          reason: `${property}: no ${noun} with id ${id} exists in the organization (see get${capital(noun)}).`,
        },
      ]
    : [];
}

/**
 * `releaseChannelId` must be a channel of the app `appId` (the API reads a channel under its app, so a channel
 * of another app is a bare 404 at `up`). Says which of the two is wrong, with the app's channels by name.
 */
export async function appChannelFailures(inputs: Props, olds: Props): Promise<Failure[]> {
  const appId = inputs.appId;
  const channelId = inputs.releaseChannelId;
  if (!known(appId) || !known(channelId)) return [];
  if (appId === olds.appId && channelId === olds.releaseChannelId) return [];
  const client = clientOf(inputs);
  if (client === undefined) return [];
  const channel = await look(() => client.apps.releaseChannel(appId, channelId));
  if (channel !== undefined) return [];
  const app = await look(() => client.apps.get(appId));
  if (app === undefined)
    return [
      {
        property: "appId",
        reason: `appId: no app with id ${appId} exists in the organization (see getApp).`,
      },
    ];
  if (app === null) return [];
  const channels = await look(async () => {
    const names: string[] = [];
    for await (const c of client.apps.releaseChannels(appId)) names.push(`"${c.name}" (${c.id})`);
    return names;
  });
  const listed = channels?.length ? ` Its channels: ${channels.join(", ")}.` : "";
  return [
    {
      property: "releaseChannelId",
      reason:
        `releaseChannelId: app ${appId} ("${app.name}") has no release channel ${channelId}; a channel belongs ` +
        `to one app, so appId and releaseChannelId must name the same one (see getReleaseChannel's appId).${listed}`,
    },
  ];
}

// ---- Organization slugs --------------------------------------------------------------------------------------

const SLUG = /^[a-z0-9][a-z0-9-]*$/;

/**
 * `organizationSlug` of a share, when new: of a slug's form (as `DeviceMigration` requires), and not the
 * token's own organization (the API refuses sharing with it). The API has no list of other organizations, so a
 * well-formed slug of no organization is still only refused at `up`, with the server's reason.
 */
export async function shareSlugFailures(inputs: Props, olds: Props): Promise<Failure[]> {
  const slug = inputs.organizationSlug;
  if (!known(slug) || slug === olds.organizationSlug) return [];
  if (!SLUG.test(slug)) {
    const lower = slug.toLowerCase();
    return [
      {
        property: "organizationSlug",
        reason: SLUG.test(lower)
          ? `organizationSlug: "${slug}" is not a slug; slugs are lower-case: use "${lower}".`
          : `organizationSlug: "${slug}" is not a slug (lower-case letters, digits and -, such as acme-staging).`,
      },
    ];
  }
  const client = clientOf(inputs);
  if (client === undefined) return [];
  const own = await look(() => client.currentOrganization());
  return own && own.slug === slug
    ? [
        {
          property: "organizationSlug",
          reason:
            `organizationSlug: "${slug}" is this organization's own slug, and a channel is shared with another ` +
            `organization: give the other organization's slug.`,
        },
      ]
    : [];
}
