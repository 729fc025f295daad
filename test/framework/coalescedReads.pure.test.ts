// Which writes invalidate what (declared by each client operation, announced through the client's write
// hook), and the pure parts of coalesced reads: how passes over a kind are served, with a fake list source and
// a fake clock.
import { DeviceMgmtClient, NotFoundError, type WriteNotice } from "../../provider/client";
import type { Executor } from "../../provider/client/executor";
import {
  ListCoalescer,
  OwnerListCoalescer,
  WriteLedger,
  type CoalescingSettings,
  type ListSource,
  type TouchedScope,
} from "../../provider/framework";
import { BASE_URL, JSON_HEADERS, mockClient, ORIGIN, tokenInfo } from "../client/fixtures";

interface Item {
  id: string;
  version: number;
}

/** A list of `count` items in pages of `pageSize`, counting every call. */
class FakeList implements ListSource<Item> {
  items: Item[];
  calls = { firstPage: 0, all: 0, one: [] as string[] };
  failFirstPage = false;
  constructor(
    count: number,
    private readonly pageSize = 10,
  ) {
    this.items = Array.from({ length: count }, (_, i) => ({ id: `id-${i}`, version: 1 }));
  }
  async firstPage() {
    this.calls.firstPage++;
    await tick();
    if (this.failFirstPage) throw new Error("list failed");
    return {
      items: this.items.slice(0, this.pageSize).map((item) => ({ ...item })),
      lastPage: Math.max(1, Math.ceil(this.items.length / this.pageSize)),
    };
  }
  async all() {
    this.calls.all++;
    await tick();
    return this.items.map((item) => ({ ...item }));
  }
  async one(id: string) {
    this.calls.one.push(id);
    await tick();
    const found = this.items.find((item) => item.id === id);
    if (!found) throw new NotFoundError({ method: "GET", path: `/items/${id}`, status: 404 });
    return { ...found };
  }
  change(id: string) {
    this.items.find((item) => item.id === id)!.version++;
  }
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

function fakeClock(): CoalescingSettings & { advance(ms: number): void } {
  let now = 1_000_000;
  return { idleMs: 2_000, maxAgeMs: 60_000, now: () => now, advance: (ms) => (now += ms) };
}

const ids = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `id-${from + i}`);

/** A client whose every request is answered 404 (after the token check), with the writes it announced. */
function announcingClient(baseUrl = BASE_URL) {
  const { client, pool } = mockClient({ baseUrl });
  pool
    .intercept({ path: "/api/token-info", method: "GET" })
    .reply(200, tokenInfo("v3"), { headers: JSON_HEADERS });
  pool
    .intercept({ path: () => true, method: () => true })
    .reply(404, { message: "Not found." })
    .persist();
  const notices: WriteNotice[] = [];
  const stop = client.onWrite((notice) => notices.push(notice));
  return { client, notices, stop };
}

describe("what each write invalidates, as its operation declares it beside its route", () => {
  const user = { firstName: "A", lastName: "B", email: "a@b.example", defaultRoleId: "r" };
  it.each<[string, (client: DeviceMgmtClient) => Promise<unknown>, TouchedScope[]]>([
    ["POST /users", (c) => c.users.create(user), [{ kind: "users" }]],
    ["PUT /users/u1", (c) => c.users.update("u1", { firstName: "X" }), [{ kind: "users" }]],
    ["DELETE /users/u1", (c) => c.users.delete("u1"), [{ kind: "users" }]],
    [
      "POST /user-invites",
      (c) => c.users.invite({ email: "a@b.example", defaultRoleId: "r" }),
      [{ kind: "users" }],
    ],
    ["POST /groups", (c) => c.groups.create({ name: "G", parentId: null }), [{ kind: "groups" }]],
    ["PUT /groups/g1", (c) => c.groups.update("g1", { name: "G", parentId: null }), [{ kind: "groups" }]],
    ["PATCH /groups/g1/configure", (c) => c.groups.configure("g1"), [{ kind: "groups" }]],
    [
      "DELETE /groups/g1?replacementGroupId=g2",
      (c) => c.groups.delete("g1", { replacementGroupId: "g2" }),
      [
        { kind: "groups" },
        { kind: "users" },
        { kind: "groupReleaseChannels", ownerId: "g1" },
        { kind: "deviceReleaseChannels" },
      ],
    ],
    [
      "POST /groups/g1/release-channels",
      (c) => c.groups.addReleaseChannel("g1", "r1"),
      [{ kind: "groupReleaseChannels", ownerId: "g1" }],
    ],
    [
      "DELETE /groups/g1/release-channels/r1",
      (c) => c.groups.removeReleaseChannel("g1", "r1"),
      [{ kind: "groupReleaseChannels", ownerId: "g1" }],
    ],
    ["POST /groups/g1/files", (c) => c.groups.addFile("g1", "f1"), []],
    ["DELETE /groups/g1/videos/v1", (c) => c.groups.removeVideo("g1", "v1"), []],
    [
      "PUT /devices/d1",
      (c) => c.devices.update("d1", { name: "D" }),
      [{ kind: "groups" }, { kind: "deviceReleaseChannels", ownerId: "d1" }],
    ],
    [
      "POST /devices/d1/migrate/acme-staging",
      (c) => c.devices.migrate("d1", "acme-staging"),
      [{ kind: "groups" }, { kind: "deviceReleaseChannels", ownerId: "d1" }],
    ],
    [
      "DELETE /devices/d1/release-channels/r1",
      (c) => c.devices.removeReleaseChannel("d1", "r1"),
      [{ kind: "deviceReleaseChannels", ownerId: "d1" }],
    ],
  ])("%s", async (_route, call, expected) => {
    const { client, notices, stop } = announcingClient();
    await call(client).catch((error: unknown) => expect(error).toBeInstanceOf(NotFoundError));
    stop();
    // Announced before it is sent and again once it settled (here: answered 404).
    expect(notices.map((n) => [n.settled, [...n.invalidates]])).toEqual([
      [false, expected],
      [true, expected],
    ]);
  });

  it("announces no read", async () => {
    const { client, notices, stop } = announcingClient();
    await expect(client.users.get("u1")).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.groups.releaseChannels("g1").all()).rejects.toBeInstanceOf(NotFoundError);
    stop();
    expect(notices).toEqual([]);
  });

  it("names the owner by its id, not by its escaped path segment, under any base path", async () => {
    const { client, notices, stop } = announcingClient(`${ORIGIN}/prefix/api/v3`);
    await client.groups.addReleaseChannel("a/b", "r1").catch(() => undefined);
    await client.users.create(user).catch(() => undefined);
    stop();
    expect(notices.filter((n) => n.settled).map((n) => [n.path, [...n.invalidates]])).toEqual([
      ["/groups/a%2Fb/release-channels", [{ kind: "groupReleaseChannels", ownerId: "a/b" }]],
      ["/users", [{ kind: "users" }]],
    ]);
  });

  it("makes a write route without a declaration a compile error", () => {
    const executor: Executor = {
      get: () => Promise.reject(new Error("not called")),
      write: () => Promise.reject(new Error("not called")),
    };
    // @ts-expect-error: `invalidates` is required after the path (npm run typecheck fails without this line's error)
    const undeclared = () => executor.write("DELETE", "/files/f1");
    expect(typeof undeclared).toBe("function");
  });
});

describe("WriteLedger", () => {
  it("changes a stamp only for the scopes a write touched", () => {
    const ledger = new WriteLedger();
    const before = {
      users: ledger.stamp("users"),
      g1: ledger.stamp("groupReleaseChannels", "g1"),
      g2: ledger.stamp("groupReleaseChannels", "g2"),
    };
    ledger.record([{ kind: "groupReleaseChannels", ownerId: "g1" }]);
    expect(ledger.stamp("users")).toBe(before.users);
    expect(ledger.stamp("groupReleaseChannels", "g1")).not.toBe(before.g1);
    expect(ledger.stamp("groupReleaseChannels", "g2")).toBe(before.g2);

    const afterOwner = ledger.stamp("groupReleaseChannels", "g2");
    ledger.record([{ kind: "groupReleaseChannels" }]);
    expect(ledger.stamp("groupReleaseChannels", "g2")).not.toBe(afterOwner);

    const users = ledger.stamp("users");
    ledger.record("all");
    expect(ledger.stamp("users")).not.toBe(users);
  });
});

describe("ListCoalescer", () => {
  it("serves a refresh-like stream of reads from one fetch of every page", async () => {
    const list = new FakeList(95);
    const reads = new ListCoalescer("users", list, new WriteLedger(), fakeClock());
    // The engine's shape: 16 at a time, the next starting as soon as one finishes.
    const wanted = ids(0, 95);
    const results: Item[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < wanted.length) results.push(await reads.read(wanted[next++]));
      }),
    );
    expect(results.map((r) => r.id).sort()).toEqual([...wanted].sort());
    // The first 16 reads arrive together: page 1 answers ten; the six others wait for company, the next reads
    // make fetching every page worth it, and it serves them all: no read goes on its own.
    expect(list.calls).toEqual({ firstPage: 1, all: 1, one: [] });
  });

  it("answers from page 1 alone when the list has one page", async () => {
    const list = new FakeList(7);
    const reads = new ListCoalescer("users", list, new WriteLedger(), fakeClock());
    await Promise.all(ids(0, 7).map((id) => reads.read(id)));
    expect(list.calls).toEqual({ firstPage: 1, all: 0, one: [] });
  });

  it("reads a few objects of a big list one by one, without fetching every page", async () => {
    const list = new FakeList(1000);
    const reads = new ListCoalescer("users", list, new WriteLedger(), fakeClock());
    await Promise.all(["id-500", "id-700", "id-3"].map((id) => reads.read(id)));
    expect(list.calls.firstPage).toBe(1);
    expect(list.calls.all).toBe(0);
    expect(list.calls.one.sort()).toEqual(["id-500", "id-700"]);
  });

  it("fetches every page once the misses are as many as the pages (ski rental)", async () => {
    const list = new FakeList(40); // 4 pages
    const reads = new ListCoalescer("users", list, new WriteLedger(), fakeClock());
    for (const id of ["id-10", "id-20", "id-30"]) await reads.read(id);
    expect(list.calls.one).toEqual(["id-10", "id-20", "id-30"]);
    expect(list.calls.all).toBe(0);
    await reads.read("id-31");
    await reads.read("id-32");
    expect(list.calls.all).toBe(1);
    expect(list.calls.one).toEqual(["id-10", "id-20", "id-30"]);
  });

  it("reads an object missing from the pages on its own, which reports it gone", async () => {
    const list = new FakeList(5);
    const reads = new ListCoalescer("users", list, new WriteLedger(), fakeClock());
    await expect(reads.read("id-gone")).rejects.toBeInstanceOf(NotFoundError);
    expect(list.calls.one).toEqual(["id-gone"]);
  });

  it("starts a new pass when an object is read again (the next refresh), so outside changes show", async () => {
    const list = new FakeList(30);
    const reads = new ListCoalescer("users", list, new WriteLedger(), fakeClock());
    await Promise.all(ids(0, 30).map((id) => reads.read(id)));
    list.change("id-25");
    list.items.splice(
      list.items.findIndex((item) => item.id === "id-26"),
      1,
    );
    expect((await reads.read("id-0")).version).toBe(1);
    expect((await reads.read("id-25")).version).toBe(2);
    await expect(reads.read("id-26")).rejects.toBeInstanceOf(NotFoundError);
    expect(list.calls.firstPage).toBe(2);
  });

  it("starts a new pass after a write of its kind, and not after a write of another kind", async () => {
    const list = new FakeList(30);
    const ledger = new WriteLedger();
    const reads = new ListCoalescer("users", list, ledger, fakeClock());
    await Promise.all(ids(0, 16).map((id) => reads.read(id)));
    list.change("id-20");
    ledger.record([{ kind: "groups" }]);
    expect((await reads.read("id-17")).version).toBe(1);
    expect(list.calls.firstPage).toBe(1);
    ledger.record([{ kind: "users" }]);
    expect((await reads.read("id-20")).version).toBe(2);
    expect(list.calls.firstPage).toBe(2);
  });

  it("ends a pass after idleMs without reads, and after maxAgeMs however busy", async () => {
    const clock = fakeClock();
    const list = new FakeList(30);
    const reads = new ListCoalescer("users", list, new WriteLedger(), clock);
    await Promise.all(ids(0, 20).map((id) => reads.read(id)));
    clock.advance(1_500);
    await reads.read("id-20");
    expect(list.calls.firstPage).toBe(1);
    clock.advance(2_001);
    await reads.read("id-21");
    expect(list.calls.firstPage).toBe(2);

    for (let i = 22; i < 30; i++) {
      clock.advance(1_000);
      await reads.read(`id-${i}`);
    }
    expect(list.calls.firstPage).toBe(2);
    clock.advance(55_000 - 8_000);
    await reads.read("id-0");
    expect(list.calls.firstPage).toBe(3);
  });

  it("does not end a pass while reads wait for it, however long the wait", async () => {
    const clock = fakeClock();
    const list = new FakeList(30);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slowList: ListSource<Item> = {
      firstPage: async () => {
        await gate;
        return list.firstPage();
      },
      all: () => list.all(),
      one: (id) => list.one(id),
    };
    const reads = new ListCoalescer("users", slowList, new WriteLedger(), clock);
    const first = reads.read("id-0");
    clock.advance(10_000);
    const second = reads.read("id-1");
    release();
    await Promise.all([first, second]);
    expect(list.calls.firstPage).toBe(1);
  });

  it("falls back to single reads when the list cannot be read", async () => {
    const list = new FakeList(30);
    list.failFirstPage = true;
    const reads = new ListCoalescer("users", list, new WriteLedger(), fakeClock());
    const got = await Promise.all(["id-1", "id-2"].map((id) => reads.read(id)));
    expect(got.map((item) => item.id)).toEqual(["id-1", "id-2"]);
    expect(list.calls.one.sort()).toEqual(["id-1", "id-2"]);
  });
});

describe("OwnerListCoalescer", () => {
  function owners() {
    const lists = new Map<string, string[]>([
      ["g1", ["r1", "r2", "r3"]],
      ["g2", ["r1"]],
    ]);
    const calls: string[] = [];
    const list = async (ownerId: string) => {
      calls.push(ownerId);
      await tick();
      const members = lists.get(ownerId);
      if (!members) throw new NotFoundError({ method: "GET", path: `/groups/${ownerId}`, status: 404 });
      return members.map((id) => ({ id }));
    };
    return { lists, calls, list };
  }

  it("answers every member of an owner from one list", async () => {
    const { calls, list } = owners();
    const reads = new OwnerListCoalescer("groupReleaseChannels", list, new WriteLedger(), fakeClock());
    const answers = await Promise.all([
      reads.contains("g1", "r1"),
      reads.contains("g1", "r2"),
      reads.contains("g1", "r9"),
      reads.contains("g2", "r1"),
      reads.contains("g2", "r2"),
    ]);
    expect(answers).toEqual([true, true, false, true, false]);
    expect(calls.sort()).toEqual(["g1", "g2"]);
  });

  it("lists again for the next pass, after a write to that owner, and after a failure", async () => {
    const { lists, calls, list } = owners();
    const ledger = new WriteLedger();
    const reads = new OwnerListCoalescer("groupReleaseChannels", list, ledger, fakeClock());
    expect(await reads.contains("g1", "r1")).toBe(true);
    lists.set("g1", ["r2"]);
    expect(await reads.contains("g1", "r1")).toBe(false); // r1 read again: a new pass
    ledger.record([{ kind: "groupReleaseChannels", ownerId: "g2" }]);
    expect(await reads.contains("g1", "r3")).toBe(false); // same pass: g2's write does not concern g1
    expect(calls).toEqual(["g1", "g1"]);
    lists.set("g1", ["r2", "r3"]);
    ledger.record([{ kind: "groupReleaseChannels", ownerId: "g1" }]);
    expect(await reads.contains("g1", "r2")).toBe(true);
    expect(calls).toEqual(["g1", "g1", "g1"]);

    await expect(reads.contains("gone", "r1")).rejects.toBeInstanceOf(NotFoundError);
    lists.set("gone", ["r1"]);
    expect(await reads.contains("gone", "r2")).toBe(false);
    expect(calls.filter((c) => c === "gone")).toHaveLength(2);
  });
});
