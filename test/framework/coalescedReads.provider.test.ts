// Coalesced reads against the emulator: the same answers as one GET per object, from a few list requests, and
// never stale across passes or after a write made in this process.
import * as http from "node:http";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { DeviceMgmtClient, NotFoundError, type Group, type User } from "../../provider/client";
import { attachedReleaseChannel, readGroup, readUser } from "../../provider/framework";

const ALLOWANCE = 100_000; // this test is about request counts, not pacing
let emulator: RunningEmulator;
let admin: DeviceMgmtClient;
let userIds: string[];
let groupIds: string[];
let sites: string[];
let channelIds: string[];

const clientOf = () =>
  new DeviceMgmtClient({
    baseUrl: emulator.baseUrl,
    apiToken: emulator.tokens.admin,
    requestsPerMinute: ALLOWANCE,
  });

/** Runs `work` over `items` 16 at a time, the next starting as one finishes — the engine's refresh. */
async function engineLike<T, R>(items: T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]);
      }
    }),
  );
  return results;
}

/** A change made by someone else: not through undici, so this process does not see it as its own write. */
function outsideRequest(method: string, path: string, body?: unknown): Promise<number> {
  const url = new URL(emulator.baseUrl + path);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method,
        headers: {
          accept: "application/json",
          authorization: `Bearer ${emulator.tokens.admin}`,
          ...(payload ? { "content-type": "application/json" } : {}),
        },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      },
    );
    request.on("error", reject);
    request.end(payload);
  });
}

const shuffled = <T>(items: T[]) =>
  items
    .map((item, i) => ({ item, key: (i * 7919) % items.length }))
    .sort((a, b) => a.key - b.key)
    .map(({ item }) => item);

const routes = () => emulator.stats().byRoute;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, rateLimit: { limit: ALLOWANCE, windowMs: 60_000 } });
  admin = clientOf();
  const roles = await admin.roles.all();
  const member = roles.find((r) => r.name === "Member")!;
  const viewer = roles.find((r) => r.name === "Group Viewer")!;
  const root = await admin.groups.create({ name: "Root", parentId: null });
  const folders = await engineLike(
    Array.from({ length: 20 }, (_, i) => i),
    (i) => admin.groups.create({ name: `Folder ${i}`, parentId: root.id }),
  );
  const leaves = await engineLike(
    Array.from({ length: 100 }, (_, i) => i),
    async (i) => {
      const leaf = await admin.groups.create({ name: `Site ${i}`, parentId: folders[i % 20].id });
      return i < 40 ? admin.groups.configure(leaf.id) : leaf;
    },
  );
  groupIds = [root, ...folders, ...leaves].map((g) => g.id);
  sites = leaves.slice(0, 40).map((g) => g.id);
  channelIds = [];
  for (const app of await admin.apps.all()) {
    for (const channel of await admin.apps.releaseChannels(app.id).all()) channelIds.push(channel.id);
  }
  await engineLike(sites.slice(0, 10), async (site) => {
    for (const rc of channelIds.slice(0, 3)) await admin.groups.addReleaseChannel(site, rc);
  });
  const created = await engineLike(
    Array.from({ length: 250 }, (_, i) => i),
    (i) =>
      admin.users.create({
        firstName: `First${i}`,
        lastName: `Last${i}`,
        email: `user${i}@coalesce.example`,
        defaultRoleId: member.id,
        groupRoles: [{ roleId: viewer.id, groupId: sites[i % sites.length] }],
      }),
  );
  userIds = [...(await admin.users.all()).map((u) => u.id)];
  expect(userIds.length).toBe(created.length + 4);
});

afterAll(async () => {
  await emulator?.close();
});

describe("coalesced reads against the emulator", () => {
  it("give every user and group exactly as GET /users/{id} and GET /groups/{id} do, from the list pages", async () => {
    const reader = clientOf();
    emulator.resetStats();
    const users = await engineLike(shuffled(userIds), (id) => readUser(reader, id));
    const groups = await engineLike(shuffled(groupIds), (id) => readGroup(reader, id));
    const counted = routes();
    // 254 users are 3 pages, 121 groups 2: page 1, then (at most) every page, and fewer single reads than pages.
    expect(counted["GET /users"]).toBeLessThanOrEqual(4);
    expect(counted["GET /users/{userId}"] ?? 0).toBeLessThan(3);
    expect(counted["GET /groups"]).toBeLessThanOrEqual(3);
    expect(counted["GET /groups/{groupId}"] ?? 0).toBeLessThan(2);

    const direct = clientOf();
    const expectedUsers = await engineLike(shuffled(userIds), (id) => direct.users.get(id));
    const expectedGroups = await engineLike(shuffled(groupIds), (id) => direct.groups.get(id));
    const byId = <T extends { id: string }>(items: T[]) =>
      [...items].sort((a, b) => a.id.localeCompare(b.id));
    expect(byId<User>(users)).toEqual(byId(expectedUsers));
    expect(byId<Group>(groups)).toEqual(byId(expectedGroups));
  });

  it("answer attachment reads with one list per group", async () => {
    const reader = clientOf();
    const pairs = sites.slice(0, 12).flatMap((site) => channelIds.map((rc) => ({ site, rc })));
    emulator.resetStats();
    const answers = await engineLike(pairs, ({ site, rc }) =>
      attachedReleaseChannel(reader, "groupId", site, rc),
    );
    expect(routes()["GET /groups/{groupId}/release-channels"]).toBe(12);
    const attached = new Set(
      emulator.snapshot().groupReleaseChannels.map((a) => `${a.groupId}/${a.releaseChannelId}`),
    );
    expect(answers).toEqual(pairs.map(({ site, rc }) => attached.has(`${site}/${rc}`)));
    expect(answers.filter(Boolean)).toHaveLength(30);
  });

  it("show an outside change and an outside deletion on the next pass (the next refresh)", async () => {
    const reader = clientOf();
    await engineLike(userIds, (id) => readUser(reader, id));
    const [changed, deleted] = [userIds[10], userIds[11]];
    expect(await outsideRequest("PUT", `/users/${changed}`, { firstName: "Changed" })).toBe(200);
    expect(await outsideRequest("DELETE", `/users/${deleted}`)).toBe(204);

    const second = await engineLike(userIds, (id) =>
      readUser(reader, id).catch((error: unknown) => {
        if (error instanceof NotFoundError) return undefined;
        throw error;
      }),
    );
    expect(second[10]?.firstName).toBe("Changed");
    expect(second[11]).toBeUndefined();
    userIds.splice(11, 1);

    const channels = sites.slice(0, 2).flatMap((site) => channelIds.map((rc) => ({ site, rc })));
    await engineLike(channels, ({ site, rc }) => attachedReleaseChannel(reader, "groupId", site, rc));
    expect(await outsideRequest("DELETE", `/groups/${sites[0]}/release-channels/${channelIds[0]}`)).toBe(204);
    expect(await attachedReleaseChannel(reader, "groupId", sites[0], channelIds[0])).toBe(false);
  });

  it("show a write made in this process at once, where an outside change in the same pass is not yet seen", async () => {
    const reader = clientOf();
    const [outsider, insider, witness] = [userIds[20], userIds[21], userIds[22]];
    const others = userIds.filter((id) => ![outsider, insider, witness].includes(id));
    await engineLike(others.slice(0, 40), (id) => readUser(reader, id));

    // Within one pass the snapshot stands for the organization as it was when the pass began (as any refresh
    // that takes time does)...
    expect(await outsideRequest("PUT", `/users/${outsider}`, { lastName: "Outside" })).toBe(200);
    expect((await readUser(reader, outsider)).lastName).not.toBe("Outside");

    // ...but a write made in this process ends the pass.
    await admin.users.update(insider, { lastName: "Inside" });
    expect((await readUser(reader, insider)).lastName).toBe("Inside");
    expect((await readUser(reader, witness)).id).toBe(witness);

    const site = sites[20];
    expect(await attachedReleaseChannel(reader, "groupId", site, channelIds[0])).toBe(false);
    await admin.groups.addReleaseChannel(site, channelIds[1]);
    expect(await attachedReleaseChannel(reader, "groupId", site, channelIds[1])).toBe(true);
    expect(
      await outsideRequest("POST", `/groups/${site}/release-channels`, { releaseChannelId: channelIds[2] }),
    ).toBe(204);
    expect(await attachedReleaseChannel(reader, "groupId", site, channelIds[2])).toBe(false);
  });
});
