/**
 * `client.apps.create` and `client.apps.update` against the emulator over HTTP: the answers parse into `App`,
 * the organization holds what was sent (read back through the API), refusals arrive as typed errors, the
 * writes announce what they make stale, and a lost answer to the create is ambiguous while the PUT is retried.
 */
import { type RunningEmulator, startEmulator } from "../../emulator";
import {
  AmbiguousWriteError,
  closeDispatchers,
  DeviceMgmtClient,
  ForbiddenError,
  NotFoundError,
  ValidationError,
  type WriteNotice,
} from "../../provider/client";

const MISSING = "00000000-0000-4000-8000-000000000000";

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ quiet: true });
});

afterAll(async () => {
  await closeDispatchers();
  await emulator.close();
});

afterEach(() => emulator.setFaults({ dropAfterWriteRate: 0 }));

function client(token = emulator.tokens.admin) {
  return new DeviceMgmtClient({
    baseUrl: emulator.baseUrl,
    apiToken: token,
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
  });
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (error: unknown) => error,
  );
}

test("create makes the app for the models given; update sets name, description and tags", async () => {
  const c = client();
  const models = (await c.deviceModels.all()).filter((m) => m.isSupported).slice(0, 2);
  const created = await c.apps.create({ name: "Client App", deviceModelIds: models.map((m) => m.id) });
  expect(created).toMatchObject({
    name: "Client App",
    description: null,
    tags: [],
    deviceModels: models,
    packageName: null,
    latestAvailableVersion: null,
  });
  expect(await c.apps.get(created.id)).toEqual(created);

  const updated = await c.apps.update(created.id, {
    name: "Client App 2",
    description: "Made by the client test.",
    tags: ["training", "client-made"],
  });
  expect(updated).toMatchObject({
    id: created.id,
    name: "Client App 2",
    description: "Made by the client test.",
    tags: ["training", "client-made"],
    deviceModels: models,
  });
  // What the organization holds, read afresh; a field left out of an update is kept.
  expect(await c.apps.get(created.id)).toEqual(updated);
  const renamed = await c.apps.update(created.id, { name: "Client App 3" });
  expect(renamed).toMatchObject({
    description: "Made by the client test.",
    tags: ["training", "client-made"],
  });
  expect((await c.apps.all()).filter((a) => a.id === created.id).map((a) => a.name)).toEqual([
    "Client App 3",
  ]);
  expect((await c.tags.all("client-made")).map((t) => t.name)).toEqual(["client-made"]);
});

test("refusals are typed: 422 with the field, 403 for a reader, 404 for an unknown app", async () => {
  const c = client();
  const invalid = await rejection(c.apps.create({ name: "x", deviceModelIds: [MISSING] }));
  expect(invalid).toBeInstanceOf(ValidationError);
  expect((invalid as ValidationError).fieldErrors).toEqual({
    "deviceModelIds.0": ["The selected deviceModelIds.0 is invalid."],
  });
  const empty = await rejection(c.apps.create({ name: "" }));
  expect((empty as ValidationError).fieldErrors).toEqual({ name: ["The name field is required."] });

  const reader = client(emulator.tokens.readOnly);
  const forbidden = await rejection(reader.apps.create({ name: "Reader App" }));
  expect(forbidden).toBeInstanceOf(ForbiddenError);
  expect(forbidden).toMatchObject({ method: "POST", path: "/api/v3/apps", status: 403 });
  const gone = await rejection(c.apps.update(MISSING, { name: "Nobody" }));
  expect(gone).toBeInstanceOf(NotFoundError);
  expect((await c.apps.all()).map((a) => a.name)).not.toContain("Reader App");
});

test("both writes announce that they make no cached list stale", async () => {
  const c = client();
  const notices: WriteNotice[] = [];
  const stop = c.onWrite((notice) => notices.push(notice));
  try {
    const app = await c.apps.create({ name: "Announced" });
    await c.apps.update(app.id, { description: "Noted" });
    expect(notices.map((n) => [n.method, n.path, n.invalidates, n.settled])).toEqual([
      ["POST", "/apps", [], false],
      ["POST", "/apps", [], true],
      ["PUT", `/apps/${app.id}`, [], false],
      ["PUT", `/apps/${app.id}`, [], true],
    ]);
  } finally {
    stop();
  }
});

test("a create whose answer is lost is ambiguous (the app exists); a PUT whose answer is lost is retried", async () => {
  const c = client();
  emulator.setFaults({ dropAfterWriteRate: 1 });
  const lost = await rejection(c.apps.create({ name: "Lost Answer" }));
  emulator.setFaults({ dropAfterWriteRate: 0 });
  expect(lost).toBeInstanceOf(AmbiguousWriteError);
  const made = (await c.apps.all()).filter((a) => a.name === "Lost Answer");
  expect(made).toHaveLength(1);

  emulator.resetStats();
  emulator.setFaults({ dropAfterWriteRate: 1 });
  const retried = c.apps.update(made[0].id, { name: "Found Answer" });
  // The first attempt is applied and its answer dropped; then the fault is lifted and a retry gets the answer.
  while (emulator.stats().faults.droppedAfterWrite === 0) await new Promise((r) => setTimeout(r, 1));
  emulator.setFaults({ dropAfterWriteRate: 0 });
  await expect(retried).resolves.toMatchObject({ id: made[0].id, name: "Found Answer" });
  expect(emulator.stats().byRoute["PUT /apps/{appId}"]).toBeGreaterThanOrEqual(2);
  expect((await c.apps.get(made[0].id)).name).toBe("Found Answer");
});
