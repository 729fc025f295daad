/**
 * One live object, one claimant. All dynamic resources of one deployment run in one plugin process, so this
 * process sees every resource of the run: a second resource that would create, adopt or configure an object
 * another resource of the run already holds is refused, with both names and the fix, instead of both writing
 * (every run rewriting the other's values) or both recording one id (removing one declaration would then
 * delete what the other still declares).
 *
 * Who is who: the dynamic-provider plugin passes neither the URN nor the name to the handler, so each class
 * registers its resource name as the hidden input `__claimant` (see `registration`); a call without one (old
 * harnesses, a read or a delete from state) claims nothing.
 *
 * Two moments:
 * - `check` (preview too): the object's natural key from literal inputs (a theme's name, a TagSet's owner, a
 *   channel), per declared connection; a duplicate is a check failure naming the property.
 * - `create`: the same keys per organization (two connections may reach one organization);
 * - `create`, `diff`, `update`: the object's id (two resources recording one id, e.g. one device named by id in
 *   one and by serial number in the other).
 */
import type { ResourceKind } from "../kindKeys";
import { DuplicateClaimError } from "../errors";
import type { Props, ResourceHandler } from "./framework";
import { containsUnknown } from "./framework";
import { clientForProps } from "./context";
import { CLOCK_SKEW_MS, journaled, unfinishedCreateOf, type CreateIdentity } from "./interruptedCreates";

/** The hidden input that carries the resource's name from the class to the handler. */
export const CLAIMANT_KEY = "__claimant";

/** How a kind's object is named by its inputs: the property a duplicate is reported on, and the key. */
interface ClaimSpec {
  property: string | ((props: Props) => string);
  /** The natural key(s) from inputs, or undefined while one is unknown (or not declared). */
  keys(props: Props): string[] | undefined;
  describe(props: Props): string;
  /**
   * False: two resources may declare this key on purpose (same-named groups numbered by `sameNameOrdinal`,
   * refused by groupCreate.ts otherwise); the key only names the object for the repair after a killed run.
   */
  refuses?: false;
}

const str = (value: unknown): string | undefined =>
  typeof value === "string" && !containsUnknown(value) ? value : undefined;

/** The key from these properties, joined, when all are known strings (ids compare without case). */
function byProperties(names: string[]): (props: Props) => string[] | undefined {
  return (props) => {
    const values = names.map((name) => str(props[name])?.toLowerCase());
    return values.every((v) => v !== undefined) ? [values.join("/")] : undefined;
  };
}

const pairClaim = (owner: string, attached: string, noun: string): ClaimSpec => ({
  property: attached,
  keys: byProperties([owner, attached]),
  describe: (p) => `${noun} ${String(p[attached])} on ${String(p[owner])}`,
});

/**
 * What names each kind's object by its inputs, for every kind of the table (a kind added without an entry here is
 * a compile error that names this table). Groups are named only for the repair after a killed run:
 * `kinds/group/create.ts` has its own rule, with same-named groups the program may declare on purpose
 * (`sameNameOrdinal`). null: the kind's inputs name no object another resource could also make.
 */
const CLAIMS: Record<ResourceKind, ClaimSpec | null> = {
  // A migration is something done to a device (held by the device's own resource), not an object of its own.
  deviceMigration: null,
  // Any number of bundles of one build may exist (none refused); a killed create is resumed by its pending
  // bundle (handler.ts), and one whose wait for processing timed out by this key: the build and the files.
  appBundle: {
    property: "files",
    keys: (p) => {
      const files = Array.isArray(p.files) ? (p.files as Props[]) : undefined;
      const entries = files?.map((f) => [f.path, f.filename, f.sha512].map(str));
      if (
        str(p.versionId) === undefined ||
        entries === undefined ||
        entries.some((e) => e.includes(undefined))
      )
        return undefined;
      return [[str(p.versionId)?.toLowerCase(), ...entries.map((e) => e.join("/")).sort()].join("\n")];
    },
    describe: (p) => `the app bundle of build ${String(p.versionId)}`,
    refuses: false,
  },
  group: {
    property: "name",
    keys: (p) => {
      const parent = p.parentId === undefined || p.parentId === null ? "root" : str(p.parentId);
      const ordinal = typeof p.sameNameOrdinal === "number" ? String(p.sameNameOrdinal) : "";
      return str(p.name) === undefined || parent === undefined
        ? undefined
        : [`${parent}/${p.name}/${ordinal}`];
    },
    describe: (p) => `the group "${String(p.name)}"`,
    refuses: false,
  },
  // Names as the create compares them: custom themes exactly, tags without case (the API's rule).
  theme: {
    property: "name",
    keys: (p) => (str(p.name) === undefined ? undefined : [str(p.name) as string]),
    describe: (p) => `the custom theme "${String(p.name)}"`,
  },
  // Apps as their create compares names: without case (kinds/app/handler.ts).
  app: {
    property: "name",
    keys: (p) => (str(p.name) === undefined ? undefined : [(str(p.name) as string).trim().toLowerCase()]),
    describe: (p) => `the app "${String(p.name)}" (app names compare without case)`,
  },
  // The name and content an image or 3D environment is uploaded with: only for the repair after a killed run
  // (objects of one name and content may exist twice; the API cannot delete either, so none is refused).
  image: {
    property: "filename",
    keys: byProperties(["filename", "sha512"]),
    describe: (p) => `the image "${String(p.filename)}"`,
    refuses: false,
  },
  custom3DEnvironment: {
    property: "filename",
    keys: byProperties(["filename", "sha512"]),
    describe: (p) => `the custom 3D environment "${String(p.filename)}"`,
    refuses: false,
  },
  // A file name in a device folder (names and folders compare exactly, as the API's conflict rule does).
  file: {
    property: "filename",
    keys: (p) =>
      str(p.filename) === undefined || str(p.path) === undefined
        ? undefined
        : [`${str(p.path)}/${str(p.filename)}`],
    describe: (p) => `the file "${String(p.filename)}" in ${String(p.path)}`,
  },
  // A video's file name and content: videos of one name may coexist, but the same bytes under the same name
  // uploaded twice would be one video declared twice (and its killed-run repair is found by both).
  video: {
    property: "source",
    keys: byProperties(["filename", "sha512"]),
    describe: (p) => `the video "${String(p.filename)}" with SHA-512 ${String(p.sha512).slice(0, 16)}…`,
  },
  // A build of an app by its content: one resource per build (another would take over the same one).
  appVersion: {
    property: "sha256",
    keys: byProperties(["appId", "sha256"]),
    describe: (p) => `the build of app ${String(p.appId)} with SHA-256 ${String(p.sha256)}`,
  },
  tag: {
    property: "name",
    keys: (p) => (str(p.name) === undefined ? undefined : [(str(p.name) as string).toLowerCase()]),
    describe: (p) => `the tag "${String(p.name)}" (tag names compare without case)`,
  },
  // E-mail addresses compare without case, as the service matches them (userInvitation.ts's sameEmail).
  user: {
    property: "email",
    keys: (p) => (str(p.email) === undefined ? undefined : [(str(p.email) as string).toLowerCase()]),
    describe: (p) => `the user ${String(p.email)}`,
  },
  tagSet: {
    property: "ownerId",
    keys: byProperties(["ownerType", "ownerId"]),
    describe: (p) => `the tag set of ${String(p.ownerType)} ${String(p.ownerId)}`,
  },
  headsetExperience: {
    property: experienceProperty,
    keys: (p) => experienceKeys(p),
    describe: (p) => `the headset experience of ${experienceHolder(p)}`,
  },
  deviceExperience: {
    property: experienceProperty,
    keys: (p) => experienceKeys(p),
    describe: (p) => `the device experience of ${experienceHolder(p)}`,
  },
  releaseChannelVersion: {
    property: "releaseChannelId",
    keys: byProperties(["appId", "releaseChannelId"]),
    describe: (p) => `the version of release channel ${String(p.releaseChannelId)}`,
  },
  releaseChannelShare: {
    property: "organizationSlug",
    keys: byProperties(["appId", "releaseChannelId", "organizationSlug"]),
    describe: (p) =>
      `the share of channel ${String(p.releaseChannelId)} with "${String(p.organizationSlug)}"`,
  },
  // A device named by id in one resource and by serial number in another is found by its id (held objects).
  device: {
    property: "serialNumber",
    keys: (p) => {
      const named = [
        ["id", p.deviceId],
        ["serial", p.serialNumber],
      ].filter(([, value]) => value !== undefined);
      const keys = named.map(([by, value]) => str(value) && `${String(by)}:${str(value)?.toLowerCase()}`);
      return keys.every((k) => k !== undefined) ? (keys as string[]) : undefined;
    },
    describe: (p) =>
      p.deviceId !== undefined ? `device ${String(p.deviceId)}` : `the device "${String(p.serialNumber)}"`,
  },
  groupReleaseChannel: pairClaim("groupId", "releaseChannelId", "release channel"),
  deviceReleaseChannel: pairClaim("deviceId", "releaseChannelId", "release channel"),
  groupFile: pairClaim("groupId", "fileId", "file"),
  groupVideo: pairClaim("groupId", "videoId", "video"),
  deviceFile: pairClaim("deviceId", "fileId", "file"),
  deviceVideo: pairClaim("deviceId", "videoId", "video"),
};

function experienceKeys(p: Props): string[] | undefined {
  if (p.groupId !== undefined) return str(p.groupId) === undefined ? undefined : [`group:${str(p.groupId)}`];
  if (p.deviceId !== undefined)
    return str(p.deviceId) === undefined ? undefined : [`device:${str(p.deviceId)}`];
  return undefined;
}

function experienceProperty(p: Props): string {
  return p.groupId !== undefined ? "groupId" : "deviceId";
}

const experienceHolder = (p: Props) =>
  p.groupId !== undefined ? `group ${String(p.groupId)}` : `device ${String(p.deviceId)}`;

/**
 * What the classes register as `__claimant` (see `registration`): the resource's name, and its stack (which
 * tells one stack's unfinished creates from another's, interruptedCreates.ts).
 */
export interface Claimant {
  name: string;
  stack: string;
  /** The resource's URN, for kinds whose messages show on the resource (resourceLog.ts). */
  urn?: string;
}

/** The resource's URN a call carries, if its kind registers one (resourceLog.ts). */
export function urnOf(props: Props | undefined): string | undefined {
  return str((props?.[CLAIMANT_KEY] as Partial<Claimant> | null | undefined)?.urn);
}

/** The resource name a call carries, if any. */
export function claimantOf(props: Props): string | undefined {
  const value = props[CLAIMANT_KEY];
  return str(value) ?? str((value as Partial<Claimant> | null | undefined)?.name);
}

const stackOf = (props: Props) => str((props[CLAIMANT_KEY] as Partial<Claimant> | undefined)?.stack) ?? "";

/**
 * The claims of this process (one engine run). A claimant moves its claim when its key changes (the same
 * resource checked again), and releases the object when it deletes it.
 */
class ClaimRegistry {
  private readonly holders = new Map<string, string>();
  private readonly byClaimant = new Map<string, Set<string>>();

  /** Takes `slot` for `claimant`; the claimant that already holds it, when another does. */
  take(claimant: string, slot: string): string | undefined {
    const holder = this.holders.get(slot);
    if (holder !== undefined && holder !== claimant) return holder;
    this.holders.set(slot, claimant);
    let slots = this.byClaimant.get(claimant);
    if (!slots) this.byClaimant.set(claimant, (slots = new Set()));
    slots.add(slot);
    return undefined;
  }

  /** Drops the claimant's slots that start with `prefix` and are not in `keep` (a changed key). */
  releaseOthers(claimant: string, prefix: string, keep: string[]): void {
    for (const slot of this.byClaimant.get(claimant) ?? []) {
      if (slot.startsWith(prefix) && !keep.includes(slot)) {
        this.holders.delete(slot);
        this.byClaimant.get(claimant)?.delete(slot);
      }
    }
  }

  release(slot: string): void {
    const holder = this.holders.get(slot);
    if (holder === undefined) return;
    this.holders.delete(slot);
    this.byClaimant.get(holder)?.delete(slot);
  }

  holderOf(slot: string): string | undefined {
    return this.holders.get(slot);
  }
}

/** The registry of this process. */
const claims = new ClaimRegistry();

const slotOf = (...parts: string[]) => parts.join("\0");

const propertyOf = (spec: ClaimSpec, props: Props) =>
  typeof spec.property === "string" ? spec.property : spec.property(props);

/** The claimant's name for the object `id` of `kind`: refused when another resource of the run records it. */
export function holdObject(kind: ResourceKind, type: string, id: string, props: Props): void {
  const claimant = claimantOf(props);
  if (claimant === undefined) return;
  const holder = claims.take(claimant, slotOf("id", kind, id));
  if (holder !== undefined) {
    const spec = CLAIMS[kind];
    throw new DuplicateClaimError(
      type,
      spec ? propertyOf(spec, props) : "id",
      spec?.describe(props) ?? `${type} ${id}`,
      claimant,
      holder,
    );
  }
}

/** Whether another resource of this run records `id` (a lost answer's look-up must not take its object). */
export function heldByAnother(kind: string, id: string, props: Props): boolean {
  const holder = claims.holderOf(slotOf("id", kind, id));
  return holder !== undefined && holder !== claimantOf(props);
}

/**
 * Whether the resource making this call records `id` itself: what a create-first replacement of it meets (the
 * object being replaced, still there), which is neither someone else's object nor a killed run's.
 */
export function heldBySelf(kind: string, id: string, props: Props): boolean {
  const claimant = claimantOf(props);
  return claimant !== undefined && claims.holderOf(slotOf("id", kind, id)) === claimant;
}

/** Takes the kind's natural keys in `scope`; the refusal when another claimant holds one. */
function takeKeys(
  kind: ResourceKind,
  type: string,
  scope: string,
  props: Props,
): DuplicateClaimError | undefined {
  const spec = CLAIMS[kind];
  const claimant = claimantOf(props);
  if (!spec || spec.refuses === false || claimant === undefined) return undefined;
  const keys = spec.keys(props);
  if (keys === undefined) return undefined;
  const prefix = slotOf("key", scope, kind, "");
  const slots = keys.map((key) => prefix + key);
  claims.releaseOthers(claimant, prefix, slots);
  for (const slot of slots) {
    const holder = claims.take(claimant, slot);
    if (holder !== undefined)
      return new DuplicateClaimError(type, propertyOf(spec, props), spec.describe(props), claimant, holder);
  }
  return undefined;
}

/** The create each claimant is running, by kind and claimant: what `leftByUnfinishedCreate` asks about. */
const creating = new Map<string, CreateIdentity>();

/**
 * When an earlier create of this very resource (the one now creating) started and never answered: what a
 * killed run left. For what cannot be listed as an object (a pending invitation), the time alone.
 */
export function unfinishedCreateStartedAt(kind: string, inputs: Props): number | undefined {
  const claimant = claimantOf(inputs);
  const identity = claimant === undefined ? undefined : creating.get(slotOf(kind, claimant));
  return identity && unfinishedCreateOf(identity);
}

/**
 * Of the objects a create met (same natural key), the one an earlier, unfinished create of this very resource
 * made: there was such a create (interruptedCreates.ts), the object is not older than it, no other resource of
 * the run records it, and it is the only one. Such an object is taken over instead of refused.
 */
export function leftByUnfinishedCreate<T extends { id: string; createdAt?: string | null }>(
  kind: string,
  inputs: Props,
  met: T[],
): T | undefined {
  const startedAt = unfinishedCreateStartedAt(kind, inputs);
  if (startedAt === undefined) return undefined;
  const ours = met.filter(
    (object) =>
      !heldByAnother(kind, object.id, inputs) &&
      (typeof object.createdAt !== "string" || Date.parse(object.createdAt) >= startedAt - CLOCK_SKEW_MS),
  );
  return ours.length === 1 ? ours[0] : undefined;
}

async function organizationOf(props: Props): Promise<string> {
  return (await clientForProps(props).assertV3Token()).organization_id;
}

/**
 * `__claimant` in what a call returns: outputs carry it because a refresh's read sees only the recorded
 * outputs, and inputs it reports without `__claimant` would show the hidden input as a change.
 */
function withClaimant<T extends object | undefined>(values: T, from: Props): T {
  return values === undefined || from[CLAIMANT_KEY] === undefined
    ? values
    : { ...values, [CLAIMANT_KEY]: from[CLAIMANT_KEY] };
}

/**
 * The kind's handler with claims: duplicates refused at check (literal keys, per declared connection) and at
 * create, diff and update (per organization, and by the object's id). `__claimant` is kept in the checked
 * inputs so that the later calls of the run see it, and in the outputs for refresh.
 */
export function claimed(kind: ResourceKind, type: string, handler: ResourceHandler): ResourceHandler {
  return {
    async check(olds, news) {
      const result = await handler.check(olds, news);
      if (claimantOf(news) === undefined) return result;
      const inputs = { ...(result.inputs ?? {}), [CLAIMANT_KEY]: news[CLAIMANT_KEY] };
      if (result.failures?.length || containsUnknown(news.connection)) return { ...result, inputs };
      const scope = `connection:${JSON.stringify(news.connection ?? null)}`;
      const refused = takeKeys(kind, type, scope, inputs);
      if (!refused) return { ...result, inputs };
      return {
        inputs,
        failures: [...(result.failures ?? []), { property: refused.property ?? "", reason: refused.message }],
      };
    },

    // An `up` checks resolved inputs, so check took the keys; diff adds the id the resource records.
    async diff(id, olds, news) {
      holdObject(kind, type, id, news);
      return handler.diff(id, olds, news);
    },

    async create(inputs) {
      const claimant = claimantOf(inputs);
      const keys = CLAIMS[kind]?.keys(inputs);
      if (claimant === undefined || keys === undefined) {
        const result = await handler.create(inputs);
        holdObject(kind, type, result.id, inputs);
        return { ...result, outs: withClaimant(result.outs, inputs) };
      }
      const organizationId = await organizationOf(inputs);
      const refused = takeKeys(kind, type, `organization:${organizationId}`, inputs);
      if (refused) throw refused;
      const identity: CreateIdentity = {
        project: process.env.PULUMI_PROJECT ?? "",
        stack: stackOf(inputs),
        claimant,
        kind,
        organizationId,
        key: keys.join("\0"),
      };
      const running = slotOf(kind, claimant);
      creating.set(running, identity);
      try {
        const result = await journaled(identity, () => handler.create(inputs));
        holdObject(kind, type, result.id, inputs);
        return { ...result, outs: withClaimant(result.outs, inputs) };
      } finally {
        creating.delete(running);
      }
    },

    async read(id, props) {
      const result = await handler.read(id, props);
      return {
        ...result,
        props: withClaimant(result.props, props),
        inputs: withClaimant(result.inputs, props),
      };
    },

    async update(id, olds, news) {
      holdObject(kind, type, id, news);
      const result = await handler.update(id, olds, news);
      return { ...result, outs: withClaimant(result.outs, news) };
    },

    async delete(id, props) {
      await handler.delete(id, props);
      claims.release(slotOf("id", kind, id));
    },
  };
}
