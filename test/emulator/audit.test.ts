/**
 * Audit records: every successful write through the API records one (who, what action, which resource,
 * created/updated/deleted, when, from where) in the OpenAPI's field names; reads and refused requests record
 * none. GET /audit-logs lists them, newest first, with search, start_time, end_time and pagination.
 */
import { request } from "undici";
import { API_ROUTES, type RunningEmulator } from "../../emulator";
import { auditExperienceWrites } from "./experienceAudit";
import { described, paramsOf, pathOf, ROUTES_WITH_EXAMPLES, type ExampleObjects } from "./routeExamples";
import {
  call,
  client,
  createConfiguredGroup,
  ISO_MS,
  start,
  UUID,
  validationErrors,
  type Client,
  type Json,
} from "./helpers";

let emulator: RunningEmulator;
let admin: Client;
let ada: Json;

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

beforeAll(async () => {
  emulator = await start();
  admin = client(emulator, emulator.tokens.admin);
  ada = (await admin.get("/current-user")).body;
});
afterAll(() => emulator.close());

async function total(api: Client = admin): Promise<number> {
  const response = await api.get("/audit-logs", { query: { per_page: 1 } });
  expect(response.status).toBe(200);
  return response.body.meta.total;
}

async function newest(count: number, api: Client = admin): Promise<Json[]> {
  return (await api.get("/audit-logs", { query: { per_page: count } })).body.data;
}

describe("what records", () => {
  it("reads and refused writes record nothing", async () => {
    const before = await total();
    const reader = client(emulator, emulator.tokens.readOnly);
    await admin.get("/groups");
    await admin.get("/devices");
    expect((await admin.post("/groups", { name: "" })).status).toBe(422);
    expect((await reader.post("/groups", { name: "No", parentId: null })).status).toBe(403);
    expect((await admin.delete("/groups/00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await admin.post("/groups", { name: "x", parentId: null }, { accept: null })).status).toBe(400);
    expect((await admin.post("/groups", undefined, { rawBody: "{" })).status).toBe(400);
    expect(await total()).toBe(before);
  });

  it("a write that changes nothing records nothing", async () => {
    const group = await createConfiguredGroup(admin, "Unchanged", null);
    const before = await total();
    expect((await admin.put(`/groups/${group}`, { name: "Unchanged", parentId: null })).status).toBe(200);
    expect(await total()).toBe(before);
  });

  it("every write operation records who did what to which resource", async () => {
    const covered = new Set<string>();
    /** Run one write, expect success, and check the one record it added. */
    async function write(
      key: string,
      run: () => Promise<{ status: number }>,
      expected: { type: string; action: string; resourceType: string; resourceId?: string },
    ): Promise<Json> {
      const before = await total();
      const response = await run();
      expect({ key, success: response.status < 300 }).toEqual({ key, success: true });
      expect(await total()).toBe(before + 1);
      const [record] = await newest(1);
      expect(record).toEqual({
        id: expect.any(Number),
        description: expect.any(String),
        action: expected.action,
        type: expected.type,
        resourceId: expected.resourceId ?? expect.stringMatching(UUID),
        resourceType: expected.resourceType,
        resourceName: expect.any(String),
        userId: ada.id,
        userEmail: ada.email,
        userIpAddress: "127.0.0.1",
        createdAt: expect.stringMatching(ISO_MS),
        updatedAt: record.createdAt,
      });
      covered.add(key);
      return record;
    }

    const roles: Json[] = (await admin.get("/roles")).body.data;
    const roleId = (name: string) => roles.find((r) => r.name === name).id;
    const devices: Json[] = (await admin.get("/devices")).body.data;
    const apps: Json[] = (await admin.get("/apps")).body.data;
    const channel = (await admin.get(`/apps/${apps[0].id}/release-channels`)).body.data[0].id;
    const files: Json[] = (await admin.get("/files")).body.data;
    const videos: Json[] = (await admin.get("/videos")).body.data;

    const created = await write(
      "POST /groups",
      () => admin.post("/groups", { name: "Audited", parentId: null }),
      {
        type: "created",
        action: "create-group",
        resourceType: "group",
      },
    );
    const group = created.resourceId;
    expect(created.resourceName).toBe("Audited");
    expect(created.description).toBe("Created group 'Audited'.");
    const child = (await admin.post("/groups", { name: "Child", parentId: group })).body.id;
    await write(
      "PUT /groups/{groupId}",
      () => admin.put(`/groups/${child}`, { name: "Child 2", parentId: group }),
      {
        type: "updated",
        action: "update-group",
        resourceType: "group",
        resourceId: child,
      },
    );
    await write("PATCH /groups/{groupId}/configure", () => admin.patch(`/groups/${child}/configure`), {
      type: "updated",
      action: "configure-group",
      resourceType: "group",
      resourceId: child,
    });
    // The writes that declare their example where they are registered (routeExamples.ts).
    const objects: ExampleObjects = {
      configuredGroup: { id: child, name: "Child 2" },
      unconfiguredGroup: { id: group, name: "Audited" },
    };
    for (const { key, route, examples } of ROUTES_WITH_EXAMPLES.filter((r) => WRITES.has(r.route.method))) {
      const { success, audit } = examples;
      expect({ key, audit: audit !== undefined }).toEqual({ key, audit: true });
      const params = paramsOf(success, objects);
      const record = await write(
        key,
        () =>
          call(route.method, emulator.baseUrl + pathOf(route, success, objects), {
            token: admin.token,
            body: success.body,
          }),
        { ...audit!, resourceId: audit!.resourceIdParam && params[audit!.resourceIdParam] },
      );
      if (audit!.resourceName !== undefined) expect(record.resourceName).toBe(audit!.resourceName);
      if (audit!.description !== undefined)
        expect(record.description).toBe(described(audit!.description, objects));
    }
    const onGroup = { type: "updated", resourceType: "group", resourceId: child };
    const attachments = [
      ["release-channels", "releaseChannelId", channel, "release-channel"],
      ["files", "fileId", files[0].id, "file"],
      ["videos", "videoId", videos[0].id, "video"],
    ] as const;
    for (const [segment, field, id, what] of attachments) {
      await write(
        `POST /groups/{groupId}/${segment}`,
        () => admin.post(`/groups/${child}/${segment}`, { [field]: id }),
        {
          ...onGroup,
          action: `attach-${what}-to-group`,
        },
      );
      await write(
        `DELETE /groups/{groupId}/${segment}/{${field}}`,
        () => admin.delete(`/groups/${child}/${segment}/${id}`),
        { ...onGroup, action: `detach-${what}-from-group` },
      );
    }

    const device = devices[0];
    const onDevice = { type: "updated", resourceType: "device", resourceId: device.id };
    const renamed = await write(
      "PUT /devices/{deviceId}",
      () => admin.put(`/devices/${device.id}`, { name: "Audited headset" }),
      { ...onDevice, action: "update-device" },
    );
    expect(renamed.resourceName).toBe(`Audited headset (${device.serialNumber})`);
    for (const [segment, field, id, what] of attachments) {
      await write(
        `POST /devices/{deviceId}/${segment}`,
        () => admin.post(`/devices/${device.id}/${segment}`, { [field]: id }),
        {
          ...onDevice,
          action: `attach-${what}-to-device`,
        },
      );
      await write(
        `DELETE /devices/{deviceId}/${segment}/{${field}}`,
        () => admin.delete(`/devices/${device.id}/${segment}/${id}`),
        { ...onDevice, action: `detach-${what}-from-device` },
      );
    }

    const sharePath = `/apps/${apps[0].id}/release-channels/${channel}`;
    const onChannel = { type: "updated", resourceType: "release-channel", resourceId: channel };
    await write(
      "POST /apps/{appId}/release-channels/{releaseChannelId}/share",
      () => admin.post(`${sharePath}/share`, { organizationSlug: "acme-staging" }),
      { ...onChannel, action: "share-release-channel" },
    );
    await write(
      "POST /apps/{appId}/release-channels/{releaseChannelId}/unshare",
      () => admin.post(`${sharePath}/unshare`, { organizationSlug: "acme-staging" }),
      { ...onChannel, action: "unshare-release-channel" },
    );

    const user = await write(
      "POST /users",
      () =>
        admin.post("/users", {
          firstName: "Audra",
          lastName: "Auditee",
          email: "audra@acme.example",
          defaultRoleId: roleId("Read Only"),
        }),
      { type: "created", action: "create-user", resourceType: "user" },
    );
    expect(user.resourceName).toBe("Audra Auditee");
    const onUser = { resourceType: "user", resourceId: user.resourceId };
    await write(
      "PUT /users/{userId}",
      () => admin.put(`/users/${user.resourceId}`, { defaultRoleId: roleId("Admin") }),
      {
        ...onUser,
        type: "updated",
        action: "update-user",
      },
    );
    await write(
      "PUT /users/{userId}",
      () =>
        admin.put(`/users/${user.resourceId}`, {
          groupRoles: [{ roleId: roleId("Group Viewer"), groupId: child, action: "attach" }],
        }),
      { ...onUser, type: "updated", action: "update-user" },
    );
    await write("DELETE /users/{userId}", () => admin.delete(`/users/${user.resourceId}`), {
      ...onUser,
      type: "deleted",
      action: "delete-user",
    });
    const invited = await write(
      "POST /user-invites",
      () =>
        admin.post("/user-invites", { email: "invited.audit@acme.example", defaultRoleId: roleId("Member") }),
      { type: "created", action: "invite-user", resourceType: "user" },
    );
    expect(invited.resourceName).toBe("invited.audit@acme.example");

    await write("DELETE /files/{fileId}", () => admin.delete(`/files/${files[1].id}`), {
      type: "deleted",
      action: "delete-file",
      resourceType: "file",
      resourceId: files[1].id,
    });
    await write(
      "PUT /videos/{videoId}",
      () =>
        admin.put(`/videos/${videos[1].id}`, {
          name: "Audited Video",
          description: null,
          videoType: "TwoDimensional",
          audioEncoding: "STEREO",
          tags: [],
        }),
      { type: "updated", action: "update-video", resourceType: "video", resourceId: videos[1].id },
    );
    await write("DELETE /videos/{videoId}", () => admin.delete(`/videos/${videos[1].id}`), {
      type: "deleted",
      action: "delete-video",
      resourceType: "video",
      resourceId: videos[1].id,
    });
    // Tags, tags on every kind of owner, custom fields, a channel's version.
    const tag = await write("POST /tags", () => admin.post("/tags", { name: "audited-tag" }), {
      type: "created",
      action: "create-tag",
      resourceType: "tag",
    });
    await write("PUT /tags/{tagId}", () => admin.put(`/tags/${tag.resourceId}`, { name: "audited" }), {
      type: "updated",
      action: "update-tag",
      resourceType: "tag",
      resourceId: tag.resourceId,
    });
    const owners = [
      ["groups", "groupId", child, "group"],
      ["devices", "deviceId", device.id, "device"],
      ["apps", "appId", apps[0].id, "app"],
      ["files", "fileId", files[0].id, "file"],
      ["videos", "videoId", videos[0].id, "video"],
    ] as const;
    for (const [segment, field, id, what] of owners) {
      const onOwner = { type: "updated", resourceType: what, resourceId: id };
      for (const action of ["attach", "detach"] as const)
        await write(
          `PATCH /${segment}/{${field}}/tags/${action}`,
          () => admin.patch(`/${segment}/${id}/tags/${action}`, { tags: ["audited"] }),
          { ...onOwner, action: `${action}-tags-${action === "attach" ? "to" : "from"}-${what}` },
        );
    }
    await write("DELETE /tags/{tagId}", () => admin.delete(`/tags/${tag.resourceId}`), {
      type: "deleted",
      action: "delete-tag",
      resourceType: "tag",
      resourceId: tag.resourceId,
    });
    await write(
      "PATCH /devices/{deviceId}/custom-fields",
      () =>
        admin.patch(`/devices/${device.id}/custom-fields`, {
          action: "attach",
          customFields: [{ name: "Site", value: "North" }],
        }),
      { ...onDevice, action: "update-device-custom-fields" },
    );
    const versions: Json[] = (await admin.get(`/apps/${apps[0].id}/versions`)).body.data;
    const current = (await admin.get(`/apps/${apps[0].id}/release-channels/${channel}`)).body.version.id;
    await write(
      "PUT /apps/{appId}/release-channels/{releaseChannelId}",
      () =>
        admin.put(`/apps/${apps[0].id}/release-channels/${channel}`, {
          versionId: versions.find((v) => v.id !== current).id,
        }),
      { ...onChannel, action: "update-release-channel" },
    );

    const app = await write("POST /apps", () => admin.post("/apps", { name: "Audited App" }), {
      type: "created",
      action: "create-app",
      resourceType: "app",
    });
    expect(app.description).toBe("Created app 'Audited App'.");
    const renamedApp = await write(
      "PUT /apps/{appId}",
      () => admin.put(`/apps/${app.resourceId}`, { name: "Audited App 2" }),
      { type: "updated", action: "update-app", resourceType: "app", resourceId: app.resourceId },
    );
    expect([renamedApp.resourceName, renamedApp.description]).toEqual([
      "Audited App 2",
      "Updated app 'Audited App'.",
    ]);

    await auditExperienceWrites(write, admin, child);

    const replacement = (await admin.post("/groups", { name: "Replacement", parentId: null })).body.id;
    await write(
      "DELETE /groups/{groupId}",
      () => admin.delete(`/groups/${group}`, { query: { replacementGroupId: replacement } }),
      { type: "deleted", action: "delete-group", resourceType: "group", resourceId: group },
    );

    // Uploads: initiate and pre-sign make nothing the organization shows (no file, video, build, image or
    // environment exists until the complete), so they record nothing; the complete records the object it made.
    const upload = async (
      route: { collection: string; template: string; field: string; type: string },
      body: Json,
      extra: Json = {},
    ): Promise<string> => {
      const before = await total();
      const started = (await admin.post(route.collection, body)).body;
      const id: string = started[route.field];
      const ids = { key: started.key, uploadId: started.uploadId };
      const signed = await admin.post(`${route.collection}/${id}/pre-sign`, { ...ids, partNumbers: [1] });
      const sent = await request(signed.body[0].presignedUrl ?? signed.body[0].url, {
        method: "PUT",
        body: "audited",
      });
      await sent.body.text();
      expect(await total()).toBe(before);
      covered.add(`POST ${route.template}`).add(`POST ${route.template}/{${route.field}}/pre-sign`);
      await write(
        `POST ${route.template}/{${route.field}}/complete`,
        () =>
          admin.post(`${route.collection}/${id}/complete`, {
            ...ids,
            parts: [{ partNumber: 1, eTag: sent.headers.etag }],
            ...extra,
          }),
        { type: "created", action: `create-${route.type}`, resourceType: route.type, resourceId: id },
      );
      return id;
    };
    const uploadRoute = (segment: string, field: string, type: string) => ({
      collection: `/${segment}`,
      template: `/${segment}`,
      field,
      type,
    });
    await upload(uploadRoute("files", "fileId", "file"), { filename: "audited.txt", path: "/sdcard" });
    await upload(uploadRoute("videos", "videoId", "video"), {
      filename: "audited.mp4",
      videoType: "TwoDimensional",
      audioEncoding: "MONO",
    });
    await upload(uploadRoute("images", "imageId", "image"), { filename: "audited.png" });
    await upload(uploadRoute("custom-3d-environments", "custom3DEnvironmentId", "custom-3d-environment"), {
      filename: "audited.glb",
    });
    await upload(
      {
        collection: `/apps/${apps[0].id}/versions`,
        template: "/apps/{appId}/versions",
        field: "versionId",
        type: "app-version",
      },
      { filename: "audited.apk" },
      { versionName: "9.9.9-audited" },
    );

    // App bundles: made, filled with a file the app has, relabelled and finalized, each recorded once.
    const bundle = (
      await write("POST /app-bundles", () => admin.post("/app-bundles", { appBuildId: versions[0].id }), {
        type: "created",
        action: "create-app-bundle",
        resourceType: "app-bundle",
      })
    ).resourceId as string;
    const second = (await admin.post("/app-bundles", { appBuildId: versions[0].id })).body.id;
    const bundleFile = (
      await admin.post("/files", { filename: "audited.obb", path: "/sdcard", appBundleId: second })
    ).body;
    const bundleIds = { key: bundleFile.key, uploadId: bundleFile.uploadId };
    const bundleSigned = await admin.post(`/files/${bundleFile.fileId}/pre-sign`, {
      ...bundleIds,
      partNumbers: [1],
    });
    const bundleSent = await request(bundleSigned.body[0].presignedUrl, { method: "PUT", body: "bundled" });
    await bundleSent.body.text();
    await admin.post(`/files/${bundleFile.fileId}/complete`, {
      ...bundleIds,
      parts: [{ partNumber: 1, eTag: bundleSent.headers.etag }],
    });
    await write(
      "POST /app-bundles/{appBundleId}/files",
      () => admin.post(`/app-bundles/${bundle}/files`, { files: [{ fileId: bundleFile.fileId }] }),
      { type: "updated", action: "update-app-bundle", resourceType: "app-bundle", resourceId: bundle },
    );
    await write(
      "PATCH /app-bundles/{appBundleId}",
      () => admin.patch(`/app-bundles/${bundle}`, { label: "Audited" }),
      { type: "updated", action: "update-app-bundle", resourceType: "app-bundle", resourceId: bundle },
    );
    await write(
      "POST /app-bundles/{appBundleId}/finalize",
      () => admin.post(`/app-bundles/${bundle}/finalize`, {}),
      { type: "updated", action: "finalize-app-bundle", resourceType: "app-bundle", resourceId: bundle },
    );

    // The migration is checked on its own below (it records in both organizations).
    covered.add("POST /devices/{deviceId}/migrate/{organizationSlug}");
    const writeKeys = API_ROUTES.filter((r) => WRITES.has(r.method)).map(
      (r) => `${r.method} ${r.path.replace(/:(\w+)/g, "{$1}")}`,
    );
    expect(writeKeys.filter((key) => !covered.has(key))).toEqual([]);
  });

  it("a migration records a deletion in the source and a creation in the target, as the user there", async () => {
    const morgan = client(emulator, emulator.tokens.multiOrgAdmin);
    const staging = client(emulator, emulator.tokens.multiOrgAdminSecondary);
    const device = (await admin.get("/devices")).body.data[3];
    const stagingBefore = await total(staging);
    expect((await morgan.post(`/devices/${device.id}/migrate/acme-staging`, {})).status).toBe(204);
    const [source] = await newest(1);
    expect(source).toMatchObject({
      type: "deleted",
      action: "migrate-device",
      resourceType: "device",
      resourceId: device.id,
      resourceName: `${device.name} (${device.serialNumber})`,
      userEmail: "morgan.multi@acme.example",
      description:
        "Migrated device '" + `${device.name} (${device.serialNumber})` + "' to organization 'acme-staging'.",
    });
    expect(await total(staging)).toBe(stagingBefore + 1);
    const [target] = await newest(1, staging);
    const morganThere = (await staging.get("/current-user")).body;
    expect(target).toMatchObject({
      type: "created",
      action: "migrate-device",
      resourceId: device.id,
      userId: morganThere.id,
      userEmail: "morgan.multi@acme.example",
    });
    expect(target.id).toBeGreaterThan(source.id);
    expect(target.createdAt).toBe(source.createdAt);
  });

  it("each organization sees only its own records", async () => {
    const staging = client(emulator, emulator.tokens.multiOrgAdminSecondary);
    const mine = await newest(100, staging);
    expect(mine.every((r) => r.userEmail === "morgan.multi@acme.example")).toBe(true);
    expect(mine.some((r) => r.action === "create-group")).toBe(false);
  });
});

describe("GET /audit-logs", () => {
  it("pages newest first with the length-aware envelope; ids are increasing integers", async () => {
    const page = await admin.get("/audit-logs", { query: { per_page: 5 } });
    expect(page.status).toBe(200);
    expect(page.body.meta).toMatchObject({ current_page: 1, per_page: 5, from: 1, to: 5 });
    expect(page.body.links.next).toContain("per_page=5");
    const ids = page.body.data.map((r: Json) => r.id);
    expect([...ids].sort((a: number, b: number) => b - a)).toEqual(ids);
    const next = await admin.get("/audit-logs", { query: { per_page: 5, page: 2 } });
    expect(next.body.data[0].id).toBeLessThan(ids[4]);
    expect(validationErrors(await admin.get("/audit-logs", { query: { per_page: 0 } }))).toHaveProperty(
      "per_page",
    );
  });

  it("search matches action, description, resource and e-mail, case-insensitively", async () => {
    const byAction = (await admin.get("/audit-logs", { query: { search: "CONFIGURE-GROUP", per_page: 100 } }))
      .body;
    expect(byAction.data.length).toBeGreaterThan(0);
    expect(byAction.data.every((r: Json) => r.action === "configure-group")).toBe(true);
    const byName = (await admin.get("/audit-logs", { query: { search: "audra", per_page: 100 } })).body;
    expect(new Set(byName.data.map((r: Json) => r.action))).toEqual(
      new Set(["create-user", "update-user", "delete-user"]),
    );
    expect(byName.links.first).toContain("search=audra");
    const none = (await admin.get("/audit-logs", { query: { search: "no such thing at all" } })).body;
    expect(none.data).toEqual([]);
    expect(none.meta.total).toBe(0);
  });

  it("start_time and end_time bound createdAt (inclusive)", async () => {
    const all: Json[] = (await admin.get("/audit-logs", { query: { per_page: 100 } })).body.data;
    const pivot = all[Math.floor(all.length / 2)].createdAt;
    const after = (await admin.get("/audit-logs", { query: { start_time: pivot, per_page: 100 } })).body.data;
    const before = (await admin.get("/audit-logs", { query: { end_time: pivot, per_page: 100 } })).body.data;
    expect(after.every((r: Json) => r.createdAt >= pivot)).toBe(true);
    expect(before.every((r: Json) => r.createdAt <= pivot)).toBe(true);
    expect(
      after.some((r: Json) => r.createdAt === pivot) && before.some((r: Json) => r.createdAt === pivot),
    ).toBe(true);
    const exact = (
      await admin.get("/audit-logs", { query: { start_time: pivot, end_time: pivot, per_page: 100 } })
    ).body.data;
    expect(exact.every((r: Json) => r.createdAt === pivot)).toBe(true);
    // Without milliseconds (the OpenAPI's own example) is accepted too.
    expect((await admin.get("/audit-logs", { query: { start_time: "2024-01-01T00:00:00Z" } })).status).toBe(
      200,
    );
    const future = await admin.get("/audit-logs", { query: { start_time: "2999-01-01T00:00:00.000Z" } });
    expect(future.body.data).toEqual([]);
  });

  it("validates the filters (422)", async () => {
    expect(validationErrors(await admin.get("/audit-logs", { query: { start_time: "yesterday" } }))).toEqual({
      start_time: ["The start time field must be a valid date."],
    });
    expect(
      validationErrors(await admin.get("/audit-logs", { query: { end_time: "2024-13-01T00:00:00Z" } })),
    ).toEqual({
      end_time: ["The end time field must be a valid date."],
    });
    expect(
      validationErrors(
        await admin.get("/audit-logs", {
          query: { start_time: "2024-02-01T00:00:00.000Z", end_time: "2024-01-01T00:00:00.000Z" },
        }),
      ),
    ).toEqual({ end_time: ["The end time field must be a date after or equal to start time."] });
  });

  it("needs AUDIT_LOG__VIEW (403; Admin, Device Manager and Read Only have it); 401 without a v3 token", async () => {
    expect((await client(emulator, emulator.tokens.readOnly).get("/audit-logs")).status).toBe(200);
    expect((await client(emulator, emulator.tokens.v2).get("/audit-logs")).status).toBe(401);
    expect((await admin.get("/audit-logs", { token: null })).status).toBe(401);
    const roles: Json[] = (await admin.get("/roles")).body.data;
    const member = roles.find((r) => r.name === "Member").id;
    const dana = client(emulator, emulator.tokens.noMigrate);
    const danaId = (await dana.get("/current-user")).body.id;
    expect((await admin.put(`/users/${danaId}`, { defaultRoleId: member })).status).toBe(200);
    expect((await dana.get("/audit-logs")).status).toBe(403);
  });
});
