/** Device experience (lock task, default home, in-house launcher) of groups and ungrouped devices. */
import type { RunningEmulator } from "../../emulator";
import { catalogue, type Catalogue } from "./experienceHelpers";
import {
  client,
  createConfiguredGroup,
  createGroup,
  ISO_MS,
  start,
  UUID,
  validationErrors,
  type Client,
  type Json,
} from "./helpers";

let emulator: RunningEmulator;
let admin: Client;
let reader: Client;
let c: Catalogue;
let devices: Json[];

const MISSING_ID = "00000000-0000-4000-8000-000000000000";

beforeAll(async () => {
  emulator = await start();
  admin = client(emulator, emulator.tokens.admin);
  reader = client(emulator, emulator.tokens.readOnly);
  c = await catalogue(admin);
  devices = (await admin.get("/devices", { query: { per_page: 100 } })).body.data;
});
afterAll(() => emulator.close());

describe.each(["group", "device"] as const)("on a %s", (on) => {
  let base: string;
  beforeAll(async () => {
    base =
      on === "group"
        ? `/groups/${await createConfiguredGroup(admin, "Lock task site", null)}/device-experience`
        : `/devices/${devices[0].id}/device-experience`;
  });

  it("lock-task reads back as lock-task with its visible contents in order", async () => {
    const visibleContents = [
      { type: "unmanaged-app", id: MISSING_ID },
      { type: "app", id: c.apps[1] },
    ];
    expect((await admin.post(`${base}/lock-task`, { visibleContents })).status).toBe(204);
    expect((await admin.get(base)).body).toEqual({
      id: expect.stringMatching(UUID),
      mode: "lock-task",
      visibleContents,
      createdAt: expect.stringMatching(ISO_MS),
      updatedAt: expect.stringMatching(ISO_MS),
    });
  });

  it("in-house-launcher reads back as custom-launcher", async () => {
    const body = {
      launcherContent: { type: "app", id: c.apps[0] },
      visibleContents: [{ type: "app", id: c.apps[2] }],
    };
    expect((await admin.post(`${base}/in-house-launcher`, body)).status).toBe(204);
    expect((await admin.get(base)).body).toMatchObject({ mode: "custom-launcher", ...body });
  });

  it("default-home takes an empty body and reads back as device-default, keeping the id", async () => {
    const before = (await admin.get(base)).body;
    expect((await admin.post(`${base}/default-home`, {})).status).toBe(204);
    expect((await admin.post(`${base}/default-home`)).status).toBe(204);
    const read = (await admin.get(base)).body;
    expect(read).toEqual({
      id: before.id,
      mode: "device-default",
      createdAt: before.createdAt,
      updatedAt: expect.stringMatching(ISO_MS),
    });
  });

  it("rules: required fields, content types, apps that exist", async () => {
    expect(Object.keys(validationErrors(await admin.post(`${base}/lock-task`, {})))).toEqual([
      "visibleContents",
    ]);
    const video = { visibleContents: [{ type: "video", id: c.videos[0] }] };
    expect(Object.keys(validationErrors(await admin.post(`${base}/lock-task`, video)))).toEqual([
      "visibleContents.0.type",
    ]);
    const missing = { visibleContents: [{ type: "app", id: MISSING_ID }] };
    expect(Object.keys(validationErrors(await admin.post(`${base}/lock-task`, missing)))).toEqual([
      "visibleContents.0.id",
    ]);
    const launcher = { launcherContent: { type: "unmanaged-app", id: MISSING_ID }, visibleContents: [] };
    expect(Object.keys(validationErrors(await admin.post(`${base}/in-house-launcher`, launcher)))).toEqual([
      "launcherContent.type",
    ]);
    expect(Object.keys(validationErrors(await admin.post(`${base}/in-house-launcher`, {})))).toEqual([
      "launcherContent",
      "visibleContents",
    ]);
  });

  it("permissions: read with a view permission, configure with a manage permission", async () => {
    expect((await reader.get(base)).status).toBe(200);
    expect((await reader.post(`${base}/default-home`, {})).status).toBe(403);
  });
});

it("configured groups only; a grouped device answers 409 with its group", async () => {
  const folder = await createGroup(admin, "Folder", null);
  const refused = await admin.post(`/groups/${folder}/device-experience/default-home`, {});
  expect(Object.keys(validationErrors(refused))).toEqual(["groupId"]);

  const group = await createConfiguredGroup(admin, "Members", null);
  const device = devices[1].id;
  await admin.put(`/devices/${device}`, { groupId: group });
  for (const response of [
    await admin.post(`/devices/${device}/device-experience/lock-task`, { visibleContents: [] }),
    await admin.get(`/devices/${device}/device-experience`),
  ]) {
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ message: expect.stringContaining("device experience"), groupId: group });
  }
});

it("headset and device experiences of one holder are independent, each audited", async () => {
  const group = await createConfiguredGroup(admin, "Both", null);
  await admin.post(`/groups/${group}/device-experience/lock-task`, {
    visibleContents: [{ type: "app", id: c.apps[0] }],
  });
  await admin.post(`/groups/${group}/headset-experience/default-home`, {
    metaHmsSettings: { isStoreEnabled: true, isSocialEnabled: false, isAddAccountsEnabled: false },
  });
  expect((await admin.get(`/groups/${group}/device-experience`)).body.mode).toBe("lock-task");
  expect((await admin.get(`/groups/${group}/headset-experience`)).body.mode).toBe("device-default");
  const audit = (await admin.get("/audit-logs", { query: { search: group, per_page: 100 } })).body
    .data as Json[];
  expect(audit.map((a) => a.action).sort()).toEqual([
    "configure-device-experience",
    "configure-group",
    "configure-headset-experience",
    "create-group",
  ]);
});

it("deleting a group forgets its experiences", async () => {
  const group = await createConfiguredGroup(admin, "Doomed", null);
  await admin.post(`/groups/${group}/device-experience/default-home`, {});
  expect((await admin.delete(`/groups/${group}`)).status).toBe(204);
  expect((await admin.get(`/groups/${group}/device-experience`)).status).toBe(404);
});
