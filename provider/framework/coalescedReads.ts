/**
 * Coalesced reads: what makes `pulumi refresh` of a large organization cost a few list pages instead of one
 * GET per resource.
 *
 * The engine reads every resource of a stack, at most `parallelism` (16) at a time, so a refresh of 1000 users
 * is a stream of reads spread over the whole run, never one burst. Reads of one kind are therefore served from
 * a *pass*: a snapshot of the kind's list pages, fetched once and kept while the reads keep coming.
 *
 * - Users and groups: the first read of a pass fetches page 1 (largest page size), which also tells how many
 *   pages there are. Once the reads that page 1 could not answer are as many as the pages, every page is
 *   fetched (concurrently) — ski rental: a stack managing a handful of objects in a huge organization never
 *   pays for the whole list, a stack managing many pays at most twice the least possible. An object missing
 *   from the pages (new since, or not listed for this token) is read on its own, which also reports it gone.
 * - Release-channel attachments: one list of an owner's (group's, device's) channels answers every
 *   attachment read of that owner.
 *
 * A pass never serves stale data across runs or after a change made here:
 * - every object is served at most once per pass: reading it again means a new pass over the stack (the
 *   next refresh in a long-lived process), so it gets a fresh snapshot;
 * - a pass ends when its kind has had no read for `idleMs`, and at the latest `maxAgeMs` after it began;
 * - any write in this process that may change what a pass holds ends it. Each write operation of the client
 *   declares, beside its route, which cached lists it may change (provider/client/operations.ts); the client
 *   announces every write to its write listeners when sent and again when settled (`DeviceMgmtClient.onWrite`),
 *   so no write path (retries, lost answers) can forget to invalidate, and a new route must say what it touches.
 */
import type {
  CachedList,
  CachedListScope,
  Device,
  DeviceMgmtClient,
  Group,
  User,
  WriteNotice,
} from "../client";

export interface CoalescingSettings {
  /** A pass ends when no read of its kind arrived (and none is pending) for this long. */
  idleMs: number;
  /** A pass ends this long after it began, however busy. */
  maxAgeMs: number;
  now: () => number;
}

export const DEFAULT_COALESCING: CoalescingSettings = { idleMs: 2_000, maxAgeMs: 60_000, now: Date.now };

// ---- Which writes made which snapshots stale (pure) ------------------------------------------------------------

export type SnapshotKind = CachedList;

/** A snapshot a write may have changed: a whole kind, or one owner's list (`ownerId`). */
export type TouchedScope = CachedListScope;

/**
 * Counts writes per scope. A snapshot remembers the stamp of its scope when it began; a different stamp later
 * means a write may have changed what it holds.
 */
export class WriteLedger {
  private everything = 0;
  private readonly kinds = new Map<SnapshotKind, number>();
  private readonly owners = new Map<string, number>();

  record(touched: readonly TouchedScope[] | "all"): void {
    if (touched === "all") {
      this.everything++;
      return;
    }
    for (const { kind, ownerId } of touched) {
      if (ownerId === undefined) this.kinds.set(kind, (this.kinds.get(kind) ?? 0) + 1);
      else this.owners.set(`${kind}/${ownerId}`, (this.owners.get(`${kind}/${ownerId}`) ?? 0) + 1);
    }
  }

  stamp(kind: SnapshotKind, ownerId?: string): string {
    const owner = ownerId === undefined ? 0 : (this.owners.get(`${kind}/${ownerId}`) ?? 0);
    return `${this.everything}.${this.kinds.get(kind) ?? 0}.${owner}`;
  }
}

// ---- Passes over one kind (pure apart from the injected source and clock) -------------------------------------

/** Where a kind's objects come from. */
export interface ListSource<T extends { id: string }> {
  /** Page 1 at the largest page size, and how many pages there are. */
  firstPage(): Promise<{ items: T[]; lastPage: number }>;
  /** Every object, pages fetched concurrently. */
  all(): Promise<T[]>;
  /** One object; rejects (NotFoundError) when it does not exist. */
  one(id: string): Promise<T>;
}

interface Pass {
  stamp: string;
  startedAt: number;
  lastUsedAt: number;
  pending: number;
  /** Ids read in this pass: a second read of one means a new pass over the stack. */
  served: Set<string>;
}

abstract class Passes<P extends Pass> {
  constructor(
    protected readonly ledger: WriteLedger,
    protected readonly settings: CoalescingSettings,
  ) {}

  protected usable(pass: P | undefined, stamp: string, id: string): pass is P {
    if (!pass || pass.stamp !== stamp || pass.served.has(id)) return false;
    const now = this.settings.now();
    const idle = pass.pending === 0 && now - pass.lastUsedAt > this.settings.idleMs;
    return !idle && now - pass.startedAt <= this.settings.maxAgeMs;
  }

  protected async serve<R>(pass: P, id: string, answer: () => Promise<R>): Promise<R> {
    pass.served.add(id);
    pass.pending++;
    try {
      return await answer();
    } finally {
      pass.pending--;
      pass.lastUsedAt = this.settings.now();
    }
  }

  protected begin(stamp: string): Pass {
    const now = this.settings.now();
    return { stamp, startedAt: now, lastUsedAt: now, pending: 0, served: new Set() };
  }
}

interface ListPass<T> extends Pass {
  items: Map<string, T>;
  /** Resolves once page 1 is in (and the decision about the other pages made); false when the list failed. */
  ready: Promise<boolean>;
  lastPage: number;
  complete: boolean;
  /** Ids asked for that the pages fetched so far did not hold. */
  misses: Set<string>;
  /** The fetch of every page, once it was worth it. */
  everything?: Promise<boolean>;
  /** Resolves when `everything` starts. */
  everythingStarted: Promise<void>;
  startEverything: () => void;
  /** How long page 1 took: how long a read page 1 could not answer waits for others to join it. */
  firstPageMs: number;
}

/** The longest a read waits for company before it is read on its own. */
const MAX_COMPANY_WAIT_MS = 1_000;

/** Serves reads of one kind (users, groups) from its list pages, falling back to single reads. */
export class ListCoalescer<T extends { id: string }> extends Passes<ListPass<T>> {
  private current?: ListPass<T>;

  constructor(
    private readonly kind: SnapshotKind,
    private readonly source: ListSource<T>,
    ledger: WriteLedger,
    settings: CoalescingSettings = DEFAULT_COALESCING,
  ) {
    super(ledger, settings);
  }

  /** The object as the list (or, failing that, a single read) shows it; rejects like `source.one`. */
  read(id: string): Promise<T> {
    const stamp = this.ledger.stamp(this.kind);
    const pass = this.usable(this.current, stamp, id) ? this.current : (this.current = this.start(stamp));
    if (!pass.complete && !pass.items.has(id)) pass.misses.add(id);
    return this.serve(pass, id, async () => {
      if (!(await pass.ready)) return this.source.one(id);
      let found = pass.items.get(id);
      if (found === undefined && !pass.complete) {
        this.fetchEverythingIfWorthIt(pass);
        // Waiting as long as a request takes costs no more than one: in a refresh, the reads that make every
        // page worth fetching arrive meanwhile; a lone read goes on its own afterwards.
        if (!pass.everything) await Promise.race([pass.everythingStarted, delay(pass.firstPageMs)]);
        if (pass.everything && (await pass.everything)) found = pass.items.get(id);
      }
      return found ?? this.source.one(id);
    });
  }

  private start(stamp: string): ListPass<T> {
    let startEverything = () => {};
    const everythingStarted = new Promise<void>((resolve) => (startEverything = resolve));
    const pass: ListPass<T> = {
      ...this.begin(stamp),
      items: new Map(),
      lastPage: 1,
      complete: false,
      misses: new Set(),
      ready: Promise.resolve(false),
      everythingStarted,
      startEverything,
      firstPageMs: 0,
    };
    pass.ready = this.source.firstPage().then(
      ({ items, lastPage }) => {
        pass.firstPageMs = Math.min(MAX_COMPANY_WAIT_MS, Math.max(0, this.settings.now() - pass.startedAt));
        for (const item of items) pass.items.set(item.id, item);
        pass.lastPage = lastPage;
        pass.complete = lastPage <= 1;
        for (const id of pass.misses) if (pass.items.has(id)) pass.misses.delete(id);
        // Decided here, before any waiting read resumes, so that reads that arrived together count together.
        this.fetchEverythingIfWorthIt(pass);
        return true;
      },
      () => false,
    );
    return pass;
  }

  /** Fetching every page costs `lastPage` requests: worth it once that many reads could not be answered. */
  private fetchEverythingIfWorthIt(pass: ListPass<T>): void {
    if (pass.complete || pass.everything || pass.misses.size < pass.lastPage) return;
    pass.everything = this.source.all().then(
      (items) => {
        pass.items = new Map(items.map((item) => [item.id, item]));
        pass.complete = true;
        return true;
      },
      () => false,
    );
    pass.startEverything();
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

interface OwnerPass extends Pass {
  members: Promise<Set<string>>;
}

/** Answers "is X in this owner's list?" from one fetch of the list per owner and pass. */
export class OwnerListCoalescer extends Passes<OwnerPass> {
  private readonly current = new Map<string, OwnerPass>();

  constructor(
    private readonly kind: SnapshotKind,
    private readonly list: (ownerId: string) => Promise<Array<{ id: string }>>,
    ledger: WriteLedger,
    settings: CoalescingSettings = DEFAULT_COALESCING,
  ) {
    super(ledger, settings);
  }

  /** Rejects as the list does (e.g. NotFoundError when the owner is gone). */
  contains(ownerId: string, memberId: string): Promise<boolean> {
    const stamp = this.ledger.stamp(this.kind, ownerId);
    let pass = this.current.get(ownerId);
    if (!this.usable(pass, stamp, memberId)) {
      const fresh: OwnerPass = {
        ...this.begin(stamp),
        members: this.list(ownerId).then((items) => new Set(items.map((item) => item.id))),
      };
      // A failed list is not kept: the next read asks again.
      fresh.members.catch(() => {
        if (this.current.get(ownerId) === fresh) this.current.delete(ownerId);
      });
      this.current.set(ownerId, fresh);
      pass = fresh;
    }
    const members = pass.members;
    return this.serve(pass, memberId, async () => (await members).has(memberId));
  }
}

// ---- Bound to the process and its clients ----------------------------------------------------------------------

const processLedger = new WriteLedger();

/** Every write is recorded when sent and again when settled: a pass that began in between is stale. */
function recordWrite(write: WriteNotice): void {
  processLedger.record(write.invalidates);
}

interface ClientCoalescers {
  users: ListCoalescer<User>;
  groups: ListCoalescer<Group>;
  devices: ListCoalescer<Device>;
  groupReleaseChannels: OwnerListCoalescer;
  deviceReleaseChannels: OwnerListCoalescer;
}

const byClient = new WeakMap<DeviceMgmtClient, ClientCoalescers>();

function firstPageOf<T>(list: { pages(): AsyncGenerator<{ data: T[]; meta: { last_page: number } }> }) {
  return async () => {
    const pages = list.pages();
    try {
      const first = await pages.next();
      if (first.done) return { items: [], lastPage: 1 };
      return { items: first.value.data, lastPage: first.value.meta.last_page };
    } finally {
      await pages.return(undefined);
    }
  };
}

function coalescersOf(client: DeviceMgmtClient): ClientCoalescers {
  let found = byClient.get(client);
  if (!found) {
    found = {
      users: new ListCoalescer<User>(
        "users",
        {
          firstPage: firstPageOf(client.users.list()),
          all: () => client.users.all(),
          one: (id) => client.users.get(id),
        },
        processLedger,
      ),
      groups: new ListCoalescer<Group>(
        "groups",
        {
          firstPage: firstPageOf(client.groups.list()),
          all: () => client.groups.all(),
          one: (id) => client.groups.get(id),
        },
        processLedger,
      ),
      // Devices share the groups' scope: a device embeds its group, and every write that changes how a device
      // reads (PUT, migration, tags, custom fields, content) declares "groups" (provider/client/*Operations.ts).
      devices: new ListCoalescer<Device>(
        "groups",
        {
          firstPage: firstPageOf(client.devices.list()),
          all: () => client.devices.all(),
          one: (id) => client.devices.get(id),
        },
        processLedger,
      ),
      groupReleaseChannels: new OwnerListCoalescer(
        "groupReleaseChannels",
        (groupId) => client.groups.releaseChannels(groupId).all(),
        processLedger,
      ),
      deviceReleaseChannels: new OwnerListCoalescer(
        "deviceReleaseChannels",
        (deviceId) => client.devices.releaseChannels(deviceId).all(),
        processLedger,
      ),
    };
    // One listener for every client of a base URL (the client keeps a set): any of them may write.
    client.onWrite(recordWrite);
    byClient.set(client, found);
  }
  return found;
}

/** `client.users.get(id)` for refresh: same result (NotFoundError when gone), served from list pages. */
export function readUser(client: DeviceMgmtClient, id: string): Promise<User> {
  return coalescersOf(client).users.read(id);
}

/** `client.groups.get(id)` for refresh: same result (NotFoundError when gone), served from list pages. */
export function readGroup(client: DeviceMgmtClient, id: string): Promise<Group> {
  return coalescersOf(client).groups.read(id);
}

/** `client.devices.get(id)` for refresh: same result (NotFoundError when gone), served from list pages. */
export function readDevice(client: DeviceMgmtClient, id: string): Promise<Device> {
  return coalescersOf(client).devices.read(id);
}

/**
 * Whether the release channel is attached to the group (`ownerKey` "groupId") or device ("deviceId"), from
 * one list of the owner's channels per pass; rejects as that list does (NotFoundError when the owner is gone).
 */
export function attachedReleaseChannel(
  client: DeviceMgmtClient,
  ownerKey: "groupId" | "deviceId",
  ownerId: string,
  releaseChannelId: string,
): Promise<boolean> {
  const coalescers = coalescersOf(client);
  const owner = ownerKey === "groupId" ? coalescers.groupReleaseChannels : coalescers.deviceReleaseChannels;
  return owner.contains(ownerId, releaseChannelId);
}
