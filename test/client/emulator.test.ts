/** The client against the real emulator over HTTP on 127.0.0.1: every typed method, errors and faults. */
import { type RunningEmulator, startEmulator } from "../../emulator";
import {
  AmbiguousWriteError,
  closeDispatchers,
  DeviceMgmtClient,
  type DeviceMgmtClientOptions,
  ForbiddenError,
  NotFoundError,
  parentIdOf,
  UnauthorizedError,
  UnsupportedTokenError,
  ValidationError,
} from "../../provider/client";

let emulator: RunningEmulator;

beforeAll(async () => {
  // A page cap below the client's preferred 100 exercises the per_page fallback over real HTTP.
  emulator = await startEmulator({ quiet: true, maxPerPage: 20, seed: { devices: 45 } });
});

afterAll(async () => {
  await closeDispatchers();
  await emulator.close();
});

afterEach(() => {
  emulator.setFaults({
    errorRate: 0,
    rateLimitBurst: null,
    dropBeforeWriteRate: 0,
    dropAfterWriteRate: 0,
    latencyMs: 0,
  });
});

function client(token = emulator.tokens.admin, options: Partial<DeviceMgmtClientOptions> = {}) {
  return new DeviceMgmtClient({
    baseUrl: emulator.baseUrl,
    apiToken: token,
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
    ...options,
  });
}

describe("reads parse against the emulator's seeded organization", () => {
  test("meta: api info, token info, current organization and user", async () => {
    const c = client();
    await expect(c.apiInfo()).resolves.toMatchObject({ version: expect.stringContaining("v3") });
    await expect(c.tokenInfo()).resolves.toMatchObject({
      api_version: "v3",
      base_path: "/api/v3",
      organization_id: emulator.orgs.primary.id,
    });
    await expect(c.currentOrganization()).resolves.toMatchObject({ slug: emulator.orgs.primary.slug });
    const me = await c.currentUser();
    expect(me.accessControls.some((ac) => ac.protectable.type === "organization")).toBe(true);
  });

  test("every list endpoint, read to the end across pages", async () => {
    const c = client();
    emulator.resetStats();
    const devices = await c.devices.all();
    expect(devices).toHaveLength(45);
    expect(new Set(devices.map((d) => d.id)).size).toBe(45);
    // per_page=100 is refused (cap 20); the refusal names the maximum, so pages of 20 are read by number.
    const deviceListCalls = emulator.stats().byRoute["GET /devices"];
    expect(emulator.stats().byStatus["422"]).toBe(1);
    expect(deviceListCalls).toBe(1 + Math.ceil(45 / 20));

    const [users, roles, apps, models, files, videos] = await Promise.all([
      c.users.all(),
      c.roles.all(),
      c.apps.all(),
      c.deviceModels.all(),
      c.files.all(),
      c.videos.all(),
    ]);
    expect(users.length).toBeGreaterThan(0);
    expect(new Set(roles.map((r) => r.type))).toEqual(new Set(["organization", "group"]));
    expect(apps.length).toBeGreaterThan(0);
    expect(models.some((m) => !m.isSupported)).toBe(true);
    expect(files.length).toBeGreaterThan(0);
    expect(videos.length).toBeGreaterThan(0);

    const app = apps[0];
    const channels = await c.apps.releaseChannels(app.id).all();
    expect(channels.length).toBeGreaterThan(0);
    await expect(c.apps.releaseChannel(app.id, channels[0].id)).resolves.toMatchObject({
      id: channels[0].id,
    });
    await expect(c.apps.get(app.id)).resolves.toMatchObject({ name: app.name });
    await expect(c.roles.get(roles[0].id)).resolves.toMatchObject({ id: roles[0].id });
    await expect(c.users.get(users[0].id)).resolves.toMatchObject({ email: users[0].email });
    await expect(c.files.get(files[0].id)).resolves.toMatchObject({ filename: files[0].filename });
    await expect(c.videos.get(videos[0].id)).resolves.toMatchObject({ filename: videos[0].filename });
    await expect(c.devices.get(devices[0].id)).resolves.toMatchObject({
      serialNumber: devices[0].serialNumber,
    });
  });
});

describe("writes", () => {
  test("group tree: create, nest, rename, configure, list by group, hierarchy, delete", async () => {
    const c = client();
    const folder = await c.groups.create({ name: "Client Folder", parentId: null });
    expect(folder.parent).toBeNull();
    const leaf = await c.groups.create({ name: "Client Leaf", parentId: folder.id });
    expect(parentIdOf(leaf)).toBe(folder.id);
    const renamed = await c.groups.update(leaf.id, { name: "Client Leaf 2", parentId: folder.id });
    expect(renamed.name).toBe("Client Leaf 2");
    const configured = await c.groups.configure(leaf.id);
    expect(configured.isConfigured).toBe(true);

    const [device] = await c.devices
      .list()
      [Symbol.asyncIterator]()
      .next()
      .then((r) => (r.done ? [] : [r.value]));
    const moved = await c.devices.update(device.id, { groupId: leaf.id });
    expect(moved.group?.id).toBe(leaf.id);
    const inLeaf = await c.devices.all({ groupIds: [leaf.id] });
    expect(inLeaf.map((d) => d.id)).toEqual([device.id]);

    const tree = await c.groups.hierarchy();
    const folderNode = tree.find((node) => node.id === folder.id);
    expect(folderNode?.children?.map((child) => child.id)).toEqual([leaf.id]);

    await c.devices.update(device.id, { groupId: null });
    await c.groups.delete(leaf.id);
    await c.groups.delete(folder.id);
    await expect(c.groups.get(folder.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  test("release channels attach to a configured group and detach again", async () => {
    const c = client();
    const leaf = await c.groups.create({ name: "RC Leaf", parentId: null });
    await c.groups.configure(leaf.id);
    const [app] = await c.apps.all();
    const [channel] = await c.apps.releaseChannels(app.id).all();
    await c.groups.addReleaseChannel(leaf.id, channel.id);
    expect((await c.groups.releaseChannels(leaf.id).all()).map((rc) => rc.id)).toEqual([channel.id]);
    await c.groups.removeReleaseChannel(leaf.id, channel.id);
    expect(await c.groups.releaseChannels(leaf.id).all()).toEqual([]);
  });

  test("users: create, update, delete; validation errors carry field errors", async () => {
    const c = client();
    const roles = await c.roles.all();
    const orgRole = roles.find((r) => r.type === "organization")!;
    const user = await c.users.create({
      firstName: "Client",
      lastName: "Test",
      email: "client.test@example.com",
      defaultRoleId: orgRole.id,
    });
    expect(user.accessControls.map((ac) => ac.protectable.type)).toEqual(["organization"]);
    const updated = await c.users.update(user.id, { firstName: "Changed" });
    expect(updated.firstName).toBe("Changed");

    const duplicate = await c.users
      .create({ firstName: "A", lastName: "B", email: "client.test@example.com", defaultRoleId: orgRole.id })
      .catch((e: unknown) => e);
    expect(duplicate).toBeInstanceOf(ValidationError);
    expect(Object.keys((duplicate as ValidationError).fieldErrors ?? {})).toContain("email");
    expect((duplicate as Error).message).toMatch(/POST \/api\/v3\/users failed with status 422: .*email/);

    await c.users.delete(user.id);
    await expect(c.users.get(user.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("errors from the emulator", () => {
  test("an unknown token is 401 with the v3-token hint", async () => {
    const error = await client("999|notARealTokenAtAll000000000000")
      .currentUser()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect((error as Error).message).toContain("Settings > Access Tokens");
  });

  test("a read-only user's write is 403", async () => {
    await expect(
      client(emulator.tokens.readOnly).groups.create({ name: "Nope", parentId: null }),
    ).rejects.toBeInstanceOf(ForbiddenError);
  });

  test("the v2 token is refused before any write reaches the server", async () => {
    emulator.resetStats();
    const error = await client(emulator.tokens.v2)
      .groups.create({ name: "Never", parentId: null })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedTokenError);
    expect((error as Error).message).toContain("v2 tokens are not accepted by the v3 API");
    expect(emulator.stats().writes).toBe(0);
    await expect(client(emulator.tokens.v2).currentUser()).rejects.toBeInstanceOf(UnsupportedTokenError);
  });
});

describe("faults", () => {
  test("injected 5xx on reads are retried to success", async () => {
    const c = client();
    emulator.resetStats();
    emulator.setFaults({ errorRate: 0.5, seed: 3 });
    const devices = await c.devices.all();
    expect(devices).toHaveLength(45);
    const injected = emulator.stats().faults.errorsInjected;
    expect(injected).toBeGreaterThan(0);
    expect(c.stats().retries).toBe(injected);
  });

  test("a create whose connection drops after the write is ambiguous, and the object does exist", async () => {
    const c = client();
    await c.assertV3Token();
    emulator.setFaults({ dropAfterWriteRate: 1 });
    const error = await c.groups.create({ name: "Dropped After", parentId: null }).catch((e: unknown) => e);
    emulator.setFaults({ dropAfterWriteRate: 0 });
    expect(error).toBeInstanceOf(AmbiguousWriteError);
    const matches = (await c.groups.all()).filter((g) => g.name === "Dropped After");
    expect(matches).toHaveLength(1); // not retried, so no duplicate
  });

  test("a create whose connection drops before the write is ambiguous too, and nothing was created", async () => {
    const c = client();
    await c.assertV3Token();
    emulator.setFaults({ dropBeforeWriteRate: 1 });
    const error = await c.groups.create({ name: "Dropped Before", parentId: null }).catch((e: unknown) => e);
    emulator.setFaults({ dropBeforeWriteRate: 0 });
    expect(error).toBeInstanceOf(AmbiguousWriteError);
    expect((await c.groups.all()).filter((g) => g.name === "Dropped Before")).toHaveLength(0);
  });

  test("injected 429 bursts are waited out (Retry-After) and counted", async () => {
    const c = client();
    emulator.setFaults({ rateLimitBurst: { every: 5, length: 1 } });
    const models = await c.deviceModels.all();
    // At least ten requests, so the burst (one in every five) is met whatever was sent before.
    for (let i = 0; i < 4; i++) {
      await c.currentOrganization();
      await c.currentUser();
    }
    await c.roles.all();
    expect(models.length).toBeGreaterThan(0);
    expect(c.stats().rateLimited).toBeGreaterThan(0);
    expect(c.stats().rateLimited).toBe(c.stats().retries);
  });
});
