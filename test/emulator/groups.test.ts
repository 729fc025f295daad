/** The group tree: creation, moves, configuring, deletion with replacement, attachments, hierarchy. */
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
let channels: Json[];
let fileId: string;
let videoId: string;
let deviceIds: string[];

const MISSING_ID = "00000000-0000-4000-8000-000000000000";

beforeAll(async () => {
  emulator = await start();
  admin = client(emulator, emulator.tokens.admin);
  const apps = (await admin.get("/apps")).body.data;
  channels = [];
  for (const app of apps) channels.push(...(await admin.get(`/apps/${app.id}/release-channels`)).body.data);
  fileId = (await admin.get("/files")).body.data[0].id;
  videoId = (await admin.get("/videos")).body.data[0].id;
  deviceIds = (await admin.get("/devices")).body.data.map((d: Json) => d.id);
});
afterAll(() => emulator.close());

describe("POST /groups", () => {
  it("creates a root group (parentId null) with the OpenAPI shape", async () => {
    const response = await admin.post("/groups", { name: "North America", parentId: null });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(UUID),
      name: "North America",
      deviceCount: null,
      isConfigured: false,
      parent: null,
      createdAt: expect.stringMatching(ISO_MS),
      updatedAt: expect.stringMatching(ISO_MS),
    });
  });

  it("expands the parent chain up to the root", async () => {
    const root = await createGroup(admin, "EMEA", null);
    const middle = await createGroup(admin, "Germany", root);
    const leaf = await admin.post("/groups", { name: "Hamburg", parentId: middle });
    expect(leaf.body.parent).toMatchObject({
      id: middle,
      name: "Germany",
      isConfigured: false,
      deviceCount: null,
    });
    expect(leaf.body.parent.parent).toMatchObject({ id: root, name: "EMEA", parent: null });
    const read = await admin.get(`/groups/${leaf.body.id}`);
    expect(read.body).toEqual(leaf.body);
  });

  it("requires parentId (null for a root) and a name of 1..255 characters", async () => {
    expect(validationErrors(await admin.post("/groups", { name: "No parent key" }))).toEqual({
      parentId: ["The parent id field is required."],
    });
    expect(validationErrors(await admin.post("/groups", { parentId: null }))).toEqual({
      name: ["The name field is required."],
    });
    expect(validationErrors(await admin.post("/groups", { name: "", parentId: null }))).toEqual({
      name: ["The name field is required."],
    });
    expect(validationErrors(await admin.post("/groups", { name: "x".repeat(256), parentId: null }))).toEqual({
      name: ["The name field must not be greater than 255 characters."],
    });
    expect((await admin.post("/groups", { name: "x".repeat(255), parentId: null })).status).toBe(201);
    expect(validationErrors(await admin.post("/groups", { name: 42, parentId: "abc" }))).toEqual({
      name: ["The name field must be a string."],
      parentId: ["The parent id field must be a valid UUID."],
    });
  });

  it("needs the parent to exist and to be unconfigured", async () => {
    expect(validationErrors(await admin.post("/groups", { name: "Orphan", parentId: MISSING_ID }))).toEqual({
      parentId: ["The selected parent id is invalid."],
    });
    const configured = await createConfiguredGroup(admin, "Configured leaf", null);
    expect(validationErrors(await admin.post("/groups", { name: "Child", parentId: configured }))).toEqual({
      parentId: ["The parent group must be an unconfigured group."],
    });
  });
});

describe("PUT /groups/{id}", () => {
  it("renames and moves, moving updatedAt only on a real change", async () => {
    const a = await createGroup(admin, "A", null);
    const b = await createGroup(admin, "B", null);
    const child = (await admin.post("/groups", { name: "Child", parentId: a })).body;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const unchanged = await admin.put(`/groups/${child.id}`, { name: "Child", parentId: a });
    expect(unchanged.status).toBe(200);
    expect(unchanged.body.updatedAt).toBe(child.updatedAt);
    const moved = await admin.put(`/groups/${child.id}`, { name: "Renamed", parentId: b });
    expect(moved.body).toMatchObject({ name: "Renamed", parent: { id: b }, createdAt: child.createdAt });
    expect(moved.body.updatedAt > child.updatedAt).toBe(true);
    const toRoot = await admin.put(`/groups/${child.id}`, { name: "Renamed", parentId: null });
    expect(toRoot.body.parent).toBeNull();
  });

  it("refuses cycles and configured parents", async () => {
    const top = await createGroup(admin, "Top", null);
    const below = await createGroup(admin, "Below", top);
    expect(validationErrors(await admin.put(`/groups/${top}`, { name: "Top", parentId: below }))).toEqual({
      parentId: ["The parent group cannot be the group itself or one of its descendants."],
    });
    expect(
      validationErrors(await admin.put(`/groups/${top}`, { name: "Top", parentId: top })),
    ).toHaveProperty("parentId");
    const leaf = await createConfiguredGroup(admin, "Leaf", null);
    expect(validationErrors(await admin.put(`/groups/${below}`, { name: "Below", parentId: leaf }))).toEqual({
      parentId: ["The parent group must be an unconfigured group."],
    });
  });

  it("needs both fields", async () => {
    const id = await createGroup(admin, "Both", null);
    expect(validationErrors(await admin.put(`/groups/${id}`, { name: "Only name" }))).toHaveProperty(
      "parentId",
    );
  });
});

describe("PATCH /groups/{id}/configure", () => {
  it("configures once; configuring again is 422", async () => {
    const id = await createGroup(admin, "To configure", null);
    const before = (await admin.get(`/groups/${id}`)).body;
    const response = await admin.patch(`/groups/${id}/configure`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id, isConfigured: true, deviceCount: 0 });
    expect(response.body.updatedAt >= before.updatedAt).toBe(true);
    expect(validationErrors(await admin.patch(`/groups/${id}/configure`))).toEqual({
      groupId: ["The group is already configured."],
    });
  });

  it("refuses a group that has children", async () => {
    const parent = await createGroup(admin, "Parent", null);
    await createGroup(admin, "Kid", parent);
    expect(validationErrors(await admin.patch(`/groups/${parent}/configure`))).toEqual({
      groupId: ["A group that has child groups cannot be configured."],
    });
  });

  it("404s for an unknown group", async () => {
    expect((await admin.patch(`/groups/${MISSING_ID}/configure`)).status).toBe(404);
  });
});

describe("POST /groups/{id}/duplicate", () => {
  it("makes a configured copy beside the original, with its content and without its devices", async () => {
    const folder = await createGroup(admin, "Duplicates", null);
    const original = await createConfiguredGroup(admin, "Original", folder);
    expect((await admin.post(`/groups/${original}/files`, { fileId })).status).toBe(204);
    expect((await admin.put(`/devices/${deviceIds[0]}`, { groupId: original })).status).toBe(200);

    const response = await admin.post(`/groups/${original}/duplicate`, { name: "Copy" });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ name: "Copy", isConfigured: true, parent: { id: folder } });
    expect(response.body.id).not.toBe(original);
    const devicesOfCopy = (await admin.get("/devices")).body.data.filter(
      (d: Json) => d.group?.id === response.body.id,
    );
    expect(devicesOfCopy).toEqual([]);
    // The copy holds the original's file: attaching it again is refused as already assigned.
    expect(
      validationErrors(await admin.post(`/groups/${response.body.id}/files`, { fileId })),
    ).toHaveProperty("fileId");
  });

  it("refuses an unconfigured original, a missing name and an unknown group", async () => {
    const folder = await createGroup(admin, "Not configured", null);
    expect(validationErrors(await admin.post(`/groups/${folder}/duplicate`, { name: "X" }))).toEqual({
      groupId: ["Only a configured group can be duplicated."],
    });
    const leaf = await createConfiguredGroup(admin, "Leaf to copy", null);
    expect(validationErrors(await admin.post(`/groups/${leaf}/duplicate`, {}))).toHaveProperty("name");
    expect((await admin.post(`/groups/${MISSING_ID}/duplicate`, { name: "X" })).status).toBe(404);
  });
});

describe("DELETE /groups/{id}", () => {
  it("deletes a childless group", async () => {
    const id = await createGroup(admin, "Short-lived", null);
    expect((await admin.delete(`/groups/${id}`)).status).toBe(204);
    expect((await admin.get(`/groups/${id}`)).status).toBe(404);
    expect((await admin.delete(`/groups/${id}`)).status).toBe(404);
  });

  it("needs replacementGroupId when the group has children, and moves them there", async () => {
    const old = await createGroup(admin, "Old folder", null);
    const kid1 = await createGroup(admin, "Kid 1", old);
    const kid2 = await createConfiguredGroup(admin, "Kid 2", old);
    const target = await createGroup(admin, "New folder", null);
    expect(validationErrors(await admin.delete(`/groups/${old}`))).toEqual({
      replacementGroupId: ["The replacement group id field is required when the group has child groups."],
    });
    const response = await admin.delete(`/groups/${old}`, { query: { replacementGroupId: target } });
    expect(response.status).toBe(204);
    const groups = emulator.snapshot().groups;
    expect(groups.find((g) => g.id === kid1)?.parentId).toBe(target);
    expect(groups.find((g) => g.id === kid2)?.parentId).toBe(target);
    expect(groups.find((g) => g.id === old)).toBeUndefined();
  });

  it("refuses a replacement that is configured, missing, the group itself or a descendant", async () => {
    const old = await createGroup(admin, "Folder", null);
    const kid = await createGroup(admin, "Sub-folder", old);
    const configured = await createConfiguredGroup(admin, "Configured", null);
    const cases: [string, string][] = [
      [configured, "The replacement group must be an unconfigured group."],
      [MISSING_ID, "The selected replacement group id is invalid."],
      [old, "The replacement group cannot be the deleted group itself or one of its descendants."],
      [kid, "The replacement group cannot be the deleted group itself or one of its descendants."],
      ["nope", "The replacement group id field must be a valid UUID."],
    ];
    for (const [replacementGroupId, message] of cases) {
      const response = await admin.delete(`/groups/${old}`, { query: { replacementGroupId } });
      expect(validationErrors(response)).toEqual({ replacementGroupId: [message] });
    }
    expect(emulator.snapshot().groups.find((g) => g.id === old)).toBeDefined();
  });

  it("ungroups the devices of a deleted configured group and drops group role assignments on it", async () => {
    const leaf = await createConfiguredGroup(admin, "Doomed leaf", null);
    const deviceId = deviceIds[0];
    expect((await admin.put(`/devices/${deviceId}`, { groupId: leaf })).status).toBe(200);
    const roles = (await admin.get("/roles")).body.data;
    const viewer = roles.find((r: Json) => r.name === "Group Viewer").id;
    const readOnly = roles.find((r: Json) => r.name === "Read Only").id;
    const user = (
      await admin.post("/users", {
        firstName: "Leaf",
        lastName: "Viewer",
        email: "leaf.viewer@acme.example",
        defaultRoleId: readOnly,
        groupRoles: [{ roleId: viewer, groupId: leaf }],
      })
    ).body;
    expect((await admin.delete(`/groups/${leaf}`)).status).toBe(204);
    const device = (await admin.get(`/devices/${deviceId}`)).body;
    expect(device.group).toBeUndefined();
    expect(emulator.snapshot().devices.find((d) => d.id === deviceId)?.groupId).toBeNull();
    const after = (await admin.get(`/users/${user.id}`)).body;
    expect(after.accessControls.map((c: Json) => c.protectable.type)).toEqual(["organization"]);
  });
});

describe("group release channels, files and videos", () => {
  let leaf: string;
  beforeAll(async () => {
    leaf = await createConfiguredGroup(admin, "Content leaf", null);
  });

  it("attaches a release channel to a configured group and lists it with the full shape", async () => {
    const channel = channels[0];
    const response = await admin.post(`/groups/${leaf}/release-channels`, { releaseChannelId: channel.id });
    expect(response.status).toBe(204);
    const list = await admin.get(`/groups/${leaf}/release-channels`);
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({
      id: channel.id,
      name: channel.name,
      app: { id: channel.app.id, name: channel.app.name },
      version: { version: expect.any(String), checksum: { algorithm: "SHA-256" } },
    });
    expect(emulator.snapshot().groupReleaseChannels).toContainEqual({
      groupId: leaf,
      releaseChannelId: channel.id,
    });
  });

  it("refuses to attach twice, unknown channels, and unconfigured groups", async () => {
    const channel = channels[1];
    expect(
      (await admin.post(`/groups/${leaf}/release-channels`, { releaseChannelId: channel.id })).status,
    ).toBe(204);
    expect(
      validationErrors(
        await admin.post(`/groups/${leaf}/release-channels`, { releaseChannelId: channel.id }),
      ),
    ).toEqual({
      releaseChannelId: ["The release channel is already assigned to this group."],
    });
    expect(
      validationErrors(
        await admin.post(`/groups/${leaf}/release-channels`, { releaseChannelId: MISSING_ID }),
      ),
    ).toEqual({
      releaseChannelId: ["The selected release channel id is invalid."],
    });
    expect(validationErrors(await admin.post(`/groups/${leaf}/release-channels`, {}))).toEqual({
      releaseChannelId: ["The release channel id field is required."],
    });
    const folder = await createGroup(admin, "Folder for content", null);
    expect(
      validationErrors(
        await admin.post(`/groups/${folder}/release-channels`, { releaseChannelId: channel.id }),
      ),
    ).toEqual({
      groupId: ["A release channel can only be added to a configured group."],
    });
    expect(
      (await admin.post(`/groups/${MISSING_ID}/release-channels`, { releaseChannelId: channel.id })).status,
    ).toBe(404);
  });

  it("removes an attached channel (204) and 404s for one that is not attached", async () => {
    const channel = channels[2];
    await admin.post(`/groups/${leaf}/release-channels`, { releaseChannelId: channel.id });
    expect((await admin.delete(`/groups/${leaf}/release-channels/${channel.id}`)).status).toBe(204);
    expect((await admin.delete(`/groups/${leaf}/release-channels/${channel.id}`)).status).toBe(404);
    expect((await admin.delete(`/groups/${leaf}/release-channels/not-a-uuid`)).status).toBe(404);
  });

  it("reports the devices a group channel reaches in deviceStatuses", async () => {
    const group = await createConfiguredGroup(admin, "Status leaf", null);
    const channel = channels[3];
    await admin.put(`/devices/${deviceIds[1]}`, { groupId: group });
    await admin.post(`/groups/${group}/release-channels`, { releaseChannelId: channel.id });
    const read = (await admin.get(`/apps/${channel.app.id}/release-channels/${channel.id}`)).body;
    expect(read.deviceStatuses).toContainEqual({
      deviceId: deviceIds[1],
      status: "pending-install",
      targetVersion: read.version.version,
      installedVersion: null,
      statusTimestamp: expect.stringMatching(ISO_MS),
    });
  });

  it("attaches and removes files and videos with the same rules", async () => {
    for (const [segment, field, id, what] of [
      ["files", "fileId", fileId, "file"],
      ["videos", "videoId", videoId, "video"],
    ]) {
      expect((await admin.post(`/groups/${leaf}/${segment}`, { [field]: id })).status).toBe(204);
      expect(validationErrors(await admin.post(`/groups/${leaf}/${segment}`, { [field]: id }))).toEqual({
        [field]: [`The ${what} is already assigned to this group.`],
      });
      expect(
        validationErrors(await admin.post(`/groups/${leaf}/${segment}`, { [field]: MISSING_ID })),
      ).toEqual({
        [field]: [`The selected ${what} id is invalid.`],
      });
      const folder = await createGroup(admin, `Folder for ${segment}`, null);
      expect(
        validationErrors(await admin.post(`/groups/${folder}/${segment}`, { [field]: id })),
      ).toHaveProperty("groupId");
      const snapshot = emulator.snapshot().groups.find((g) => g.id === leaf);
      expect(snapshot?.[field === "fileId" ? "fileIds" : "videoIds"]).toEqual([id]);
      expect((await admin.delete(`/groups/${leaf}/${segment}/${id}`)).status).toBe(204);
      expect((await admin.delete(`/groups/${leaf}/${segment}/${id}`)).status).toBe(404);
    }
  });

  it("needs the managing permission", async () => {
    const reader = client(emulator, emulator.tokens.readOnly);
    expect(
      (await reader.post(`/groups/${leaf}/release-channels`, { releaseChannelId: channels[4].id })).status,
    ).toBe(403);
    expect((await reader.post(`/groups/${leaf}/files`, { fileId })).status).toBe(403);
    expect((await reader.get(`/groups/${leaf}/release-channels`)).status).toBe(200);
  });
});

describe("GET /group-hierarchy", () => {
  it("returns the whole tree: folders with children, leaves with deviceCount, siblings by name", async () => {
    const staging = client(emulator, emulator.tokens.multiOrgAdminSecondary);
    const root = await createGroup(staging, "World", null);
    const zulu = await createGroup(staging, "Zulu", root);
    const alpha = await createConfiguredGroup(staging, "alpha", root);
    const inner = await createConfiguredGroup(staging, "Inner", zulu);
    const device = (await staging.get("/devices")).body.data[0];
    await staging.put(`/devices/${device.id}`, { groupId: alpha });

    const response = await staging.get("/group-hierarchy");
    expect(response.status).toBe(200);
    const strip = (node: Json): Json => ({
      name: node.name,
      isConfigured: node.isConfigured,
      ...(node.children ? { children: node.children.map(strip) } : { deviceCount: node.deviceCount }),
    });
    expect(response.body.data.map(strip)).toEqual([
      {
        name: "World",
        isConfigured: false,
        children: [
          { name: "alpha", isConfigured: true, deviceCount: 1 },
          {
            name: "Zulu",
            isConfigured: false,
            children: [{ name: "Inner", isConfigured: true, deviceCount: 0 }],
          },
        ],
      },
    ]);
    expect(response.body.data[0].children[1].children[0].id).toBe(inner);
    expect(response.body.data[0].createdAt).toMatch(ISO_MS);
    expect(response.body.data[0]).not.toHaveProperty("deviceCount");
  });

  it("GET /groups/{id} of a configured group counts its devices", async () => {
    const staging = client(emulator, emulator.tokens.multiOrgAdminSecondary);
    const leaf = await createConfiguredGroup(staging, "Counted", null);
    const devices = (await staging.get("/devices")).body.data.slice(2, 5);
    for (const d of devices) await staging.put(`/devices/${d.id}`, { groupId: leaf });
    expect((await staging.get(`/groups/${leaf}`)).body.deviceCount).toBe(3);
  });
});

describe("group visibility for group roles", () => {
  it("a Member with a Group Viewer role sees that subtree and its devices, and nothing else", async () => {
    const roles = Object.fromEntries((await admin.get("/roles")).body.data.map((r: Json) => [r.name, r.id]));
    const visibleRoot = await createGroup(admin, "Visible root", null);
    const visibleLeaf = await createConfiguredGroup(admin, "Visible leaf", visibleRoot);
    const hiddenLeaf = await createConfiguredGroup(admin, "Hidden leaf", null);
    await admin.put(`/devices/${deviceIds[5]}`, { groupId: visibleLeaf });
    await admin.put(`/devices/${deviceIds[6]}`, { groupId: hiddenLeaf });

    const reader = client(emulator, emulator.tokens.readOnly);
    const me = (await reader.get("/current-user")).body;
    const demoted = await admin.put(`/users/${me.id}`, {
      defaultRoleId: roles["Member"],
      groupRoles: [{ roleId: roles["Group Viewer"], groupId: visibleRoot, action: "attach" }],
    });
    expect(demoted.status).toBe(200);

    const groups = (await reader.get("/groups", { query: { per_page: 100 } })).body;
    expect(groups.data.map((g: Json) => g.id).sort()).toEqual([visibleRoot, visibleLeaf].sort());
    expect(groups.meta.total).toBe(2);
    const tree = (await reader.get("/group-hierarchy")).body.data;
    expect(tree.map((n: Json) => n.id)).toEqual([visibleRoot]);
    expect(tree[0].children.map((n: Json) => n.id)).toEqual([visibleLeaf]);
    expect((await reader.get(`/groups/${visibleLeaf}`)).status).toBe(200);
    expect((await reader.get(`/groups/${hiddenLeaf}`)).status).toBe(403);

    const devices = (await reader.get("/devices")).body.data;
    expect(devices.map((d: Json) => d.id)).toEqual([deviceIds[5]]);
    expect((await reader.get(`/devices/${deviceIds[6]}`)).status).toBe(403);
    expect((await reader.get("/users")).status).toBe(403);
    expect((await reader.post("/groups", { name: "No", parentId: visibleRoot })).status).toBe(403);
  });
});
