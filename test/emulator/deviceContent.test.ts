/** Files and videos of a device itself: GET/POST /devices/{id}/files|videos, DELETE …/{fileId}|{videoId}. */
import type { RunningEmulator } from "../../emulator";
import { client, createConfiguredGroup, start, validationErrors, type Client, type Json } from "./helpers";

let emulator: RunningEmulator;
let admin: Client;
let reader: Client;
let devices: Json[];
let files: Json[];
let videos: Json[];

const MISSING_ID = "00000000-0000-4000-8000-000000000000";

beforeAll(async () => {
  emulator = await start();
  admin = client(emulator, emulator.tokens.admin);
  reader = client(emulator, emulator.tokens.readOnly);
  devices = (await admin.get("/devices")).body.data;
  files = (await admin.get("/files")).body.data;
  videos = (await admin.get("/videos")).body.data;
});
afterAll(() => emulator.close());

const kinds = [
  { segment: "files", idField: "fileId", what: "file", items: () => files },
  { segment: "videos", idField: "videoId", what: "video", items: () => videos },
] as const;

describe.each(kinds)("device $segment", ({ segment, idField, what, items }) => {
  const deviceIndex = segment === "files" ? 0 : 1;

  it("add (204), list (paginated, newest first) and remove (204) on an ungrouped device", async () => {
    const device = devices[deviceIndex].id;
    const [first, second] = items();
    expect((await admin.get(`/devices/${device}/${segment}`)).body.data).toEqual([]);
    const added = await admin.post(`/devices/${device}/${segment}`, { [idField]: first.id });
    expect(added.status).toBe(204);
    expect(added.body).toBeUndefined();
    expect((await admin.post(`/devices/${device}/${segment}`, { [idField]: second.id })).status).toBe(204);

    const list = await admin.get(`/devices/${device}/${segment}`, { query: { per_page: 1 } });
    expect(list.status).toBe(200);
    expect(list.body.meta.total).toBe(2);
    // The catalogue's own order (createdAt descending, id ascending): the first catalogue item comes first.
    expect(list.body.data.map((x: Json) => x.id)).toEqual([first.id]);
    // The content reaches the device directly.
    const read = await admin.get(`/${segment}/${first.id}`);
    expect(read.body.deviceStatuses).toEqual([
      { deviceId: device, status: "pending-install", statusTimestamp: expect.any(String) },
    ]);

    expect((await admin.delete(`/devices/${device}/${segment}/${second.id}`)).status).toBe(204);
    expect((await admin.delete(`/devices/${device}/${segment}/${second.id}`)).status).toBe(404);
    const after = await admin.get(`/devices/${device}/${segment}`);
    expect(after.body.data.map((x: Json) => x.id)).toEqual([first.id]);
  });

  it("validates the body: required uuid, an existing item, not twice", async () => {
    const device = devices[deviceIndex].id;
    const attribute = what === "file" ? "file id" : "video id";
    expect(validationErrors(await admin.post(`/devices/${device}/${segment}`, {}))).toEqual({
      [idField]: [`The ${attribute} field is required.`],
    });
    expect(validationErrors(await admin.post(`/devices/${device}/${segment}`, { [idField]: "x" }))).toEqual({
      [idField]: [`The ${attribute} field must be a valid UUID.`],
    });
    expect(
      validationErrors(await admin.post(`/devices/${device}/${segment}`, { [idField]: MISSING_ID })),
    ).toEqual({ [idField]: [`The selected ${attribute} is invalid.`] });
    expect(
      validationErrors(await admin.post(`/devices/${device}/${segment}`, { [idField]: items()[0].id })),
    ).toEqual({ [idField]: [`The ${what} is already assigned to this device.`] });
  });

  it("404 for an unknown device, before permission and body", async () => {
    expect((await reader.get(`/devices/${MISSING_ID}/${segment}`)).status).toBe(404);
    expect((await reader.post(`/devices/${MISSING_ID}/${segment}`, {})).status).toBe(404);
    expect((await reader.delete(`/devices/${MISSING_ID}/${segment}/${items()[0].id}`)).status).toBe(404);
    expect((await admin.get(`/devices/not-a-uuid/${segment}`)).status).toBe(404);
  });

  it("listing needs DEVICE__VIEW; adding and removing need CONTENT__MANAGE (403, nothing changed)", async () => {
    const device = devices[deviceIndex].id;
    expect((await reader.get(`/devices/${device}/${segment}`)).status).toBe(200);
    expect((await reader.post(`/devices/${device}/${segment}`, { [idField]: items()[2].id })).status).toBe(
      403,
    );
    expect((await reader.delete(`/devices/${device}/${segment}/${items()[0].id}`)).status).toBe(403);
    // 403 comes before body validation.
    expect((await reader.post(`/devices/${device}/${segment}`, {})).status).toBe(403);
    const list = await admin.get(`/devices/${device}/${segment}`);
    expect(list.body.data.map((x: Json) => x.id)).toEqual([items()[0].id]);
  });

  it("only while the device is ungrouped (422); joining a group drops them", async () => {
    const device = devices[deviceIndex].id;
    const leaf = await createConfiguredGroup(admin, `Content leaf ${segment}`, null);
    expect((await admin.put(`/devices/${device}`, { groupId: leaf })).status).toBe(200);
    expect((await admin.get(`/devices/${device}/${segment}`)).body.data).toEqual([]);
    const message = {
      deviceId: [`A ${what} can only be added to or removed from a device that is not in a group.`],
    };
    expect(
      validationErrors(await admin.post(`/devices/${device}/${segment}`, { [idField]: items()[0].id })),
    ).toEqual(message);
    expect(validationErrors(await admin.delete(`/devices/${device}/${segment}/${items()[0].id}`))).toEqual(
      message,
    );
    expect((await admin.put(`/devices/${device}`, { groupId: null })).status).toBe(200);
  });

  it("deleting the item from the catalogue detaches it from devices", async () => {
    const device = devices[deviceIndex + 2].id;
    const item = items()[items().length - 1];
    expect((await admin.post(`/devices/${device}/${segment}`, { [idField]: item.id })).status).toBe(204);
    expect((await admin.delete(`/${segment}/${item.id}`)).status).toBe(204);
    expect((await admin.get(`/devices/${device}/${segment}`)).body.data).toEqual([]);
  });
});

describe("migration", () => {
  it("leaves the device's files and videos behind (they belong to the source organization)", async () => {
    const device = devices[5].id;
    expect((await admin.post(`/devices/${device}/files`, { fileId: files[0].id })).status).toBe(204);
    expect((await admin.post(`/devices/${device}/videos`, { videoId: videos[0].id })).status).toBe(204);
    const morgan = client(emulator, emulator.tokens.multiOrgAdmin);
    expect((await morgan.post(`/devices/${device}/migrate/acme-staging`, {})).status).toBe(204);
    const staging = client(emulator, emulator.tokens.multiOrgAdminSecondary);
    expect((await staging.get(`/devices/${device}/files`)).body.data).toEqual([]);
    expect((await staging.get(`/devices/${device}/videos`)).body.data).toEqual([]);
    const file = await admin.get(`/files/${files[0].id}`);
    expect(file.body.deviceStatuses.map((s: Json) => s.deviceId)).not.toContain(device);
  });
});
