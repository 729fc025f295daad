/** Devices: list filters, updates, release channels of ungrouped devices, migration between organizations. */
import type { RunningEmulator } from "../../emulator";
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
let devices: Json[];
let channelIds: string[];

const MISSING_ID = "00000000-0000-4000-8000-000000000000";

beforeAll(async () => {
  emulator = await start();
  admin = client(emulator, emulator.tokens.admin);
  devices = (await admin.get("/devices")).body.data;
  const apps = (await admin.get("/apps")).body.data;
  channelIds = [];
  for (const app of apps)
    channelIds.push(
      ...(await admin.get(`/apps/${app.id}/release-channels`)).body.data.map((c: Json) => c.id),
    );
});
afterAll(() => emulator.close());

describe("seeded devices", () => {
  it("carry every field of the OpenAPI Device with plausible values", async () => {
    expect(devices).toHaveLength(8);
    const device = (await admin.get(`/devices/${devices[0].id}`)).body;
    expect(device).toMatchObject({
      id: expect.stringMatching(UUID),
      organization: { id: emulator.orgs.primary.id, slug: "acme", name: "Acme Devices" },
      name: expect.stringMatching(/^Headset \d+$/),
      serialNumber: expect.stringMatching(/^ACM[0-9A-F]{9}$/),
      deviceModel: {
        id: expect.stringMatching(UUID),
        name: expect.any(String),
        manufacturer: expect.any(String),
      },
      tags: expect.any(Array),
      isOnline: expect.any(Boolean),
      enrollmentDate: expect.stringMatching(ISO_MS),
      storageSpaceTotalBytes: 128_000_000_000,
      customFields: [{ name: "Asset tag", value: expect.any(String) }],
      complianceStatus: expect.any(String),
      controllers: expect.any(Array),
      createdAt: expect.stringMatching(ISO_MS),
    });
    for (const key of [
      "lastCommunicatedAt",
      "clientVersion",
      "osVersion",
      "macAddress",
      "batteryPercentage",
      "runningApp",
    ]) {
      expect(device).toHaveProperty(key);
    }
    // Ungrouped: no group object (the OpenAPI lists `group` as optional and not nullable).
    expect(device).not.toHaveProperty("group");
  });

  it("the staging organization has devices with the same names but other ids and serial numbers", async () => {
    const staging = (await client(emulator, emulator.tokens.multiOrgAdminSecondary).get("/devices")).body
      .data;
    expect(staging.map((d: Json) => d.name).sort()).toEqual(devices.map((d: Json) => d.name).sort());
    const primaryIds = new Set(devices.map((d: Json) => d.id));
    const primarySerials = new Set(devices.map((d: Json) => d.serialNumber));
    for (const d of staging) {
      expect(primaryIds.has(d.id)).toBe(false);
      expect(primarySerials.has(d.serialNumber)).toBe(false);
    }
  });
});

describe("PUT /devices/{id}", () => {
  it("renames, retags and moves into a configured group; group comes back expanded", async () => {
    const leaf = await createConfiguredGroup(admin, "Device leaf", null);
    const before = (await admin.get(`/devices/${devices[0].id}`)).body;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const response = await admin.put(`/devices/${devices[0].id}`, {
      name: "Front desk",
      groupId: leaf,
      tags: ["front", "desk"],
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      name: "Front desk",
      tags: ["front", "desk"],
      group: { id: leaf, name: "Device leaf", isConfigured: true, deviceCount: 1, parent: null },
      createdAt: before.createdAt,
    });
    expect(response.body.updatedAt > before.updatedAt).toBe(true);
    expect(emulator.snapshot().devices.find((d) => d.id === devices[0].id)).toMatchObject({
      groupId: leaf,
      tags: ["front", "desk"],
    });
  });

  it("moves updatedAt only on a real change", async () => {
    const current = (await admin.get(`/devices/${devices[1].id}`)).body;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const same = await admin.put(`/devices/${devices[1].id}`, { name: current.name, tags: current.tags });
    expect(same.body.updatedAt).toBe(current.updatedAt);
  });

  it("ungroups with groupId null", async () => {
    const leaf = await createConfiguredGroup(admin, "Temporary leaf", null);
    await admin.put(`/devices/${devices[2].id}`, { groupId: leaf });
    const response = await admin.put(`/devices/${devices[2].id}`, { groupId: null });
    expect(response.status).toBe(200);
    expect(response.body).not.toHaveProperty("group");
  });

  it("puts devices in configured groups only", async () => {
    const folder = await createGroup(admin, "Device folder", null);
    expect(validationErrors(await admin.put(`/devices/${devices[3].id}`, { groupId: folder }))).toEqual({
      groupId: ["Devices can only be added to configured groups."],
    });
    expect(validationErrors(await admin.put(`/devices/${devices[3].id}`, { groupId: MISSING_ID }))).toEqual({
      groupId: ["The selected group id is invalid."],
    });
    expect(validationErrors(await admin.put(`/devices/${devices[3].id}`, { name: "", tags: "x" }))).toEqual({
      name: ["The name field is required."],
      tags: ["The tags field must be an array."],
    });
    expect((await admin.put(`/devices/${MISSING_ID}`, { name: "Ghost" })).status).toBe(404);
  });

  it("needs DEVICE__MANAGE and GROUP__ADD_REMOVE_DEVICES", async () => {
    const reader = client(emulator, emulator.tokens.readOnly);
    const leaf = await createConfiguredGroup(admin, "Reader leaf", null);
    expect((await reader.put(`/devices/${devices[3].id}`, { name: "Nope" })).status).toBe(403);
    expect((await reader.put(`/devices/${devices[3].id}`, { groupId: leaf })).status).toBe(403);
  });
});

describe("GET /devices?group_ids[]=", () => {
  it("filters by group, and an empty value selects ungrouped devices", async () => {
    const a = await createConfiguredGroup(admin, "Filter A", null);
    const b = await createConfiguredGroup(admin, "Filter B", null);
    await admin.put(`/devices/${devices[4].id}`, { groupId: a });
    await admin.put(`/devices/${devices[5].id}`, { groupId: b });
    const onlyA = await admin.get("/devices", { query: { "group_ids[]": a } });
    expect(onlyA.body.data.map((d: Json) => d.id)).toEqual([devices[4].id]);
    const both = await admin.get("/devices", { query: { "group_ids[]": [a, b] } });
    expect(both.body.data.map((d: Json) => d.id).sort()).toEqual([devices[4].id, devices[5].id].sort());
    expect(both.body.links.first).toContain(`group_ids%5B%5D=${a}`);
    const ungrouped = await admin.get("/devices", { query: { "group_ids[]": "" } });
    expect(ungrouped.body.data.every((d: Json) => d.group === undefined)).toBe(true);
    expect(ungrouped.body.data.map((d: Json) => d.id)).not.toContain(devices[4].id);
    // Following the filtered `first` link gives the same page.
    const viaLink = await client(emulator, emulator.tokens.admin).get(
      both.body.links.first.slice(emulator.baseUrl.length),
    );
    expect(viaLink.body.data).toEqual(both.body.data);
  });

  it("includes the devices of sub-groups (OpenAPI: 'or sub-groups thereof')", async () => {
    const region = await createGroup(admin, "Filter Region", null);
    const country = await createGroup(admin, "Filter Country", region);
    const site = await createConfiguredGroup(admin, "Filter Site", country);
    const elsewhere = await createConfiguredGroup(admin, "Filter Elsewhere", null);
    await admin.put(`/devices/${devices[6].id}`, { groupId: site });
    await admin.put(`/devices/${devices[7].id}`, { groupId: elsewhere });
    const ids = async (groupIds: string[]) =>
      (await admin.get("/devices", { query: { "group_ids[]": groupIds } })).body.data.map((d: Json) => d.id);
    expect(await ids([region])).toEqual([devices[6].id]);
    expect(await ids([country])).toEqual([devices[6].id]);
    expect(await ids([site])).toEqual([devices[6].id]);
    expect((await ids([region, elsewhere])).sort()).toEqual([devices[6].id, devices[7].id].sort());
    // Later tests rely on these devices being ungrouped.
    for (const device of [devices[6], devices[7]])
      await admin.put(`/devices/${device.id}`, { groupId: null });
  });

  it("rejects a malformed group id with a field error", async () => {
    const response = await admin.get("/devices", { query: { "group_ids[]": "nope" } });
    expect(validationErrors(response)).toEqual({
      "group_ids.0": ["The group_ids.0 field must be a valid UUID."],
    });
  });
});

describe("device release channels", () => {
  it("attach, list and remove on an ungrouped device", async () => {
    const device = devices[6].id;
    expect(
      (await admin.post(`/devices/${device}/release-channels`, { releaseChannelId: channelIds[0] })).status,
    ).toBe(204);
    expect(
      (await admin.post(`/devices/${device}/release-channels`, { releaseChannelId: channelIds[1] })).status,
    ).toBe(204);
    const list = await admin.get(`/devices/${device}/release-channels`);
    expect(list.body.data.map((c: Json) => c.id).sort()).toEqual([channelIds[0], channelIds[1]].sort());
    expect(list.body.data[0].deviceStatuses.map((s: Json) => s.deviceId)).toContain(device);
    expect(
      validationErrors(
        await admin.post(`/devices/${device}/release-channels`, { releaseChannelId: channelIds[0] }),
      ),
    ).toEqual({
      releaseChannelId: ["The release channel is already assigned to this device."],
    });
    expect(
      validationErrors(
        await admin.post(`/devices/${device}/release-channels`, { releaseChannelId: MISSING_ID }),
      ),
    ).toEqual({
      releaseChannelId: ["The selected release channel id is invalid."],
    });
    expect((await admin.delete(`/devices/${device}/release-channels/${channelIds[1]}`)).status).toBe(204);
    expect((await admin.delete(`/devices/${device}/release-channels/${channelIds[1]}`)).status).toBe(404);
    expect(emulator.snapshot().devices.find((d) => d.id === device)?.releaseChannelIds).toEqual([
      channelIds[0],
    ]);
  });

  it("only while the device is ungrouped; joining a group drops them", async () => {
    const device = devices[6].id;
    const leaf = await createConfiguredGroup(admin, "Channel leaf", null);
    await admin.put(`/devices/${device}`, { groupId: leaf });
    expect(emulator.snapshot().devices.find((d) => d.id === device)?.releaseChannelIds).toEqual([]);
    const message = {
      deviceId: ["Release channels can only be managed on a device that is not in a group."],
    };
    expect(
      validationErrors(
        await admin.post(`/devices/${device}/release-channels`, { releaseChannelId: channelIds[2] }),
      ),
    ).toEqual(message);
    expect(
      validationErrors(await admin.delete(`/devices/${device}/release-channels/${channelIds[0]}`)),
    ).toEqual(message);
    expect((await admin.get(`/devices/${device}/release-channels`)).body.data).toEqual([]);
  });

  it("needs RELEASE_CHANNEL__MANAGE", async () => {
    const reader = client(emulator, emulator.tokens.readOnly);
    expect(
      (await reader.post(`/devices/${devices[7].id}/release-channels`, { releaseChannelId: channelIds[0] }))
        .status,
    ).toBe(403);
  });
});

describe("POST /devices/{id}/migrate/{organizationSlug}", () => {
  let multi: Client;
  let stagingAdmin: Client;
  beforeAll(() => {
    multi = client(emulator, emulator.tokens.multiOrgAdmin);
    stagingAdmin = client(emulator, emulator.tokens.multiOrgAdminSecondary);
  });

  async function freshUngroupedDevice(): Promise<string> {
    const list = (await admin.get("/devices", { query: { "group_ids[]": "" } })).body.data;
    return list[list.length - 1].id;
  }

  it("moves the device to the target organization, ungrouped and without release channels", async () => {
    const id = await freshUngroupedDevice();
    await admin.post(`/devices/${id}/release-channels`, { releaseChannelId: channelIds[3] });
    const response = await multi.post(`/devices/${id}/migrate/acme-staging`, {});
    expect(response.status).toBe(204);
    expect((await admin.get(`/devices/${id}`)).status).toBe(404);
    const moved = await stagingAdmin.get(`/devices/${id}`);
    expect(moved.status).toBe(200);
    expect(moved.body.organization.slug).toBe("acme-staging");
    expect(moved.body).not.toHaveProperty("group");
    expect((await stagingAdmin.get(`/devices/${id}/release-channels`)).body.data).toEqual([]);
    expect(emulator.snapshot("acme-staging").devices.map((d) => d.id)).toContain(id);
    expect(emulator.snapshot("acme").devices.map((d) => d.id)).not.toContain(id);
  });

  it("puts the device into the given configured group of the target organization", async () => {
    const id = await freshUngroupedDevice();
    const target = await createConfiguredGroup(stagingAdmin, "Arrivals", null);
    const response = await multi.post(`/devices/${id}/migrate/acme-staging`, { groupId: target });
    expect(response.status).toBe(204);
    expect((await stagingAdmin.get(`/devices/${id}`)).body.group).toMatchObject({
      id: target,
      deviceCount: 1,
    });
  });

  it("checks the target group: it must be a configured group of the target organization", async () => {
    const id = await freshUngroupedDevice();
    const folder = await createGroup(stagingAdmin, "Arrivals folder", null);
    expect(
      validationErrors(await multi.post(`/devices/${id}/migrate/acme-staging`, { groupId: folder })),
    ).toEqual({
      groupId: ["Devices can only be added to configured groups."],
    });
    const primaryLeaf = await createConfiguredGroup(admin, "Not in staging", null);
    expect(
      validationErrors(await multi.post(`/devices/${id}/migrate/acme-staging`, { groupId: primaryLeaf })),
    ).toEqual({
      groupId: ["The selected group id is invalid."],
    });
    expect(
      validationErrors(await multi.post(`/devices/${id}/migrate/acme-staging`, { groupId: "nope" })),
    ).toEqual({
      groupId: ["The group id field must be a valid UUID."],
    });
  });

  it("needs DEVICE__MIGRATE in the source organization", async () => {
    const id = await freshUngroupedDevice();
    const response = await client(emulator, emulator.tokens.noMigrate).post(
      `/devices/${id}/migrate/acme-staging`,
      {},
    );
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ message: "Forbidden" });
    expect((await admin.get(`/devices/${id}`)).status).toBe(200);
  });

  it("404s for an unknown organization slug or device; 422 for its own organization", async () => {
    const id = await freshUngroupedDevice();
    expect((await multi.post(`/devices/${id}/migrate/no-such-org`, {})).status).toBe(404);
    expect((await multi.post(`/devices/${MISSING_ID}/migrate/acme-staging`, {})).status).toBe(404);
    expect(validationErrors(await multi.post(`/devices/${id}/migrate/acme`, {}))).toEqual({
      organizationSlug: ["The device already belongs to this organization."],
    });
  });

  /**
   * Each case demotes Morgan's staging user for good, so it runs on an emulator of its own; `setup` runs in
   * staging while Morgan is still Admin there.
   */
  async function withStagingRole<T>(
    roleName: string,
    setup: (staging: Client) => Promise<T>,
    body: (fresh: RunningEmulator, prepared: T) => Promise<void>,
  ): Promise<void> {
    const fresh = await start();
    try {
      const staging = client(fresh, fresh.tokens.multiOrgAdminSecondary);
      const prepared = await setup(staging);
      const role = (await staging.get("/roles")).body.data.find((r: Json) => r.name === roleName).id;
      const morgan = (await staging.get("/current-user")).body;
      expect((await staging.put(`/users/${morgan.id}`, { defaultRoleId: role })).status).toBe(200);
      await body(fresh, prepared);
    } finally {
      await fresh.close();
    }
  }

  it("needs ENROLLMENT__ENROLL_DEVICE in the target organization", async () => {
    await withStagingRole(
      "Read Only",
      async () => undefined,
      async (fresh) => {
        const id = (await client(fresh, fresh.tokens.admin).get("/devices")).body.data[0].id;
        const response = await client(fresh, fresh.tokens.multiOrgAdmin).post(
          `/devices/${id}/migrate/acme-staging`,
          {},
        );
        expect(response.status).toBe(403);
        expect(fresh.snapshot("acme").devices.map((d) => d.id)).toContain(id);
      },
    );
  });

  it("with a group, needs GROUP__ADD_REMOVE_DEVICES on that group in the target organization", async () => {
    await withStagingRole(
      "Device Enroller",
      (staging) => createConfiguredGroup(staging, "Enroller target", null),
      async (fresh, target) => {
        const multiFresh = client(fresh, fresh.tokens.multiOrgAdmin);
        const id = (await client(fresh, fresh.tokens.admin).get("/devices")).body.data[0].id;
        expect(
          (await multiFresh.post(`/devices/${id}/migrate/acme-staging`, { groupId: target })).status,
        ).toBe(403);
        expect(fresh.snapshot("acme").devices.map((d) => d.id)).toContain(id);
        // Enrolling without a group is within the Device Enroller role.
        expect((await multiFresh.post(`/devices/${id}/migrate/acme-staging`, { groupId: null })).status).toBe(
          204,
        );
      },
    );
  });

  it("needs a user with the caller's e-mail in the target organization", async () => {
    const id = await freshUngroupedDevice();
    // Ada is admin in acme but has no user in acme-staging.
    expect((await admin.post(`/devices/${id}/migrate/acme-staging`, {})).status).toBe(403);
    expect((await admin.get(`/devices/${id}`)).status).toBe(200);
  });
});
