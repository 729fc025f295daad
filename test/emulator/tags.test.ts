/**
 * Tags: the catalogue (GET/POST /tags, GET/PUT/DELETE /tags/{tagId}) and tags on groups, devices, apps, files and
 * videos (PATCH /{kind}/{id}/tags/attach|detach), with the switches for what the documents leave open.
 */
import type { RunningEmulator } from "../../emulator";
import {
  client,
  createConfiguredGroup,
  ISO_MS,
  listAll,
  start,
  UUID,
  validationErrors,
  type Client,
  type Json,
} from "./helpers";

const MISSING_ID = "00000000-0000-4000-8000-000000000000";

let emulator: RunningEmulator;
let admin: Client;

beforeAll(async () => {
  emulator = await start();
  admin = client(emulator, emulator.tokens.admin);
});
afterAll(() => emulator.close());

const tagNames = async (api: Client = admin) => (await listAll(api, "/tags")).map((t: Json) => t.name);

/** The tags every kind of owner carries now, read back through the API (groups: from the snapshot). */
async function ownerTags(segment: string, id: string): Promise<string[]> {
  if (segment === "groups") return emulatorGroupTags(id);
  return (await admin.get(`/${segment}/${id}`)).body.tags;
}

function emulatorGroupTags(id: string): string[] {
  return emulator.snapshot().groups.find((g) => g.id === id)?.tags ?? [];
}

describe("the tag catalogue", () => {
  it("is seeded with every tag name in use and the site tags, in the OpenAPI's shape", async () => {
    const tags: Json[] = await listAll(admin, "/tags");
    expect(tags.map((t) => t.name).sort()).toEqual(
      ["lobby", "onboarding", "operations", "safety", "site-north", "site-south", "training"].sort(),
    );
    for (const tag of tags)
      expect(tag).toEqual({
        id: expect.stringMatching(UUID),
        name: expect.any(String),
        createdAt: expect.stringMatching(ISO_MS),
        updatedAt: expect.stringMatching(ISO_MS),
      });
  });

  it("creates (201), reads, renames (everywhere it is used) and deletes (from every owner)", async () => {
    const created = await admin.post("/tags", { name: "  kiosk  " });
    expect(created.status).toBe(201);
    expect(created.body.name).toBe("kiosk");
    const id = created.body.id;
    expect((await admin.get(`/tags/${id}`)).body).toEqual(created.body);

    const device = (await admin.get("/devices")).body.data[1];
    expect((await admin.patch(`/devices/${device.id}/tags/attach`, { tags: ["kiosk"] })).status).toBe(204);
    const renamed = await admin.put(`/tags/${id}`, { name: "kiosk-mode" });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe("kiosk-mode");
    expect((await admin.get(`/devices/${device.id}`)).body.tags).toContain("kiosk-mode");
    expect((await admin.get(`/devices/${device.id}`)).body.tags).not.toContain("kiosk");

    expect((await admin.delete(`/tags/${id}`)).status).toBe(204);
    expect((await admin.get(`/tags/${id}`)).status).toBe(404);
    expect((await admin.get(`/devices/${device.id}`)).body.tags).not.toContain("kiosk-mode");
    expect(await tagNames()).not.toContain("kiosk-mode");
  });

  it("names are unique case-insensitively (422), required and at most 255 characters", async () => {
    expect(validationErrors(await admin.post("/tags", { name: "LOBBY" }))).toEqual({
      name: ["The name has already been taken."],
    });
    expect(validationErrors(await admin.post("/tags", {}))).toEqual({
      name: ["The name field is required."],
    });
    expect(validationErrors(await admin.post("/tags", { name: "x".repeat(256) }))).toEqual({
      name: ["The name field must not be greater than 255 characters."],
    });
    const other = (await admin.post("/tags", { name: "unique-a" })).body.id;
    expect(validationErrors(await admin.put(`/tags/${other}`, { name: "Lobby" }))).toEqual({
      name: ["The name has already been taken."],
    });
    // Its own name in another case is a rename, not a clash.
    expect((await admin.put(`/tags/${other}`, { name: "Unique-A" })).body.name).toBe("Unique-A");
  });

  it("search filters by a case-insensitive substring of the name", async () => {
    const found = (await admin.get("/tags", { query: { search: "SITE-" } })).body.data.map(
      (t: Json) => t.name,
    );
    expect(found.sort()).toEqual(["site-north", "site-south"]);
  });

  it("unknown tags are 404; writes need DEVICE__MANAGE (403 for Read Only), reads any v3 token", async () => {
    const reader = client(emulator, emulator.tokens.readOnly);
    expect((await admin.get(`/tags/${MISSING_ID}`)).status).toBe(404);
    expect((await admin.put(`/tags/${MISSING_ID}`, { name: "x" })).status).toBe(404);
    expect((await admin.delete(`/tags/${MISSING_ID}`)).status).toBe(404);
    expect((await reader.post("/tags", { name: "nope" })).status).toBe(403);
    const lobby = (await reader.get("/tags", { query: { search: "lobby" } })).body.data[0];
    expect((await reader.put(`/tags/${lobby.id}`, { name: "x" })).status).toBe(403);
    expect((await reader.delete(`/tags/${lobby.id}`)).status).toBe(403);
    expect((await client(emulator, emulator.tokens.v2).get("/tags")).status).toBe(401);
  });
});

describe("tags on groups, devices, apps, files and videos", () => {
  let owners: [string, string][];

  beforeAll(async () => {
    const group = await createConfiguredGroup(admin, "Tagged site", null);
    owners = [
      ["groups", group],
      ["devices", (await admin.get("/devices")).body.data[2].id],
      ["apps", (await admin.get("/apps")).body.data[0].id],
      ["files", (await admin.get("/files")).body.data[0].id],
      ["videos", (await admin.get("/videos")).body.data[0].id],
    ];
  });

  it("attach adds (existing names as the tag spells them, new names create the tag), detach removes", async () => {
    for (const [segment, id] of owners) {
      const before = await ownerTags(segment, id);
      const attach = await admin.patch(`/${segment}/${id}/tags/attach`, {
        tags: ["SITE-NORTH", `new-${segment}`],
      });
      expect({ segment, status: attach.status }).toEqual({ segment, status: 204 });
      expect(await ownerTags(segment, id)).toEqual([...before, "site-north", `new-${segment}`]);
      expect(await tagNames()).toContain(`new-${segment}`);
      // Lenient default: attaching what is there and detaching what is not are no-ops.
      expect((await admin.patch(`/${segment}/${id}/tags/attach`, { tags: ["site-north"] })).status).toBe(204);
      expect((await admin.patch(`/${segment}/${id}/tags/detach`, { tags: ["absent-tag"] })).status).toBe(204);
      expect(await ownerTags(segment, id)).toEqual([...before, "site-north", `new-${segment}`]);
      const detach = await admin.patch(`/${segment}/${id}/tags/detach`, {
        tags: ["site-north", `NEW-${segment}`],
      });
      expect(detach.status).toBe(204);
      expect(await ownerTags(segment, id)).toEqual(before);
    }
  });

  it("validates the body (1..100 names), 404 for an unknown owner, 403 without the owner's permission", async () => {
    const reader = client(emulator, emulator.tokens.readOnly);
    for (const [segment, id] of owners) {
      expect(validationErrors(await admin.patch(`/${segment}/${id}/tags/attach`, {}))).toEqual({
        tags: ["The tags field is required."],
      });
      expect(validationErrors(await admin.patch(`/${segment}/${id}/tags/attach`, { tags: [] }))).toEqual({
        tags: ["The tags field must have at least 1 items."],
      });
      const tooMany = Array.from({ length: 101 }, (_, i) => `t${i}`);
      expect(
        Object.keys(validationErrors(await admin.patch(`/${segment}/${id}/tags/detach`, { tags: tooMany }))),
      ).toEqual(["tags"]);
      expect((await admin.patch(`/${segment}/${MISSING_ID}/tags/attach`, { tags: ["x"] })).status).toBe(404);
      expect((await reader.patch(`/${segment}/${id}/tags/attach`, { tags: ["x"] })).status).toBe(403);
    }
    expect(await tagNames()).not.toContain("t0");
    expect(await tagNames()).not.toContain("x");
  });

  it("PUT /devices/{id} tags resolve like attach: existing spellings, new names become tags", async () => {
    const device = owners[1][1];
    const response = await admin.put(`/devices/${device}`, { tags: ["Lobby", "put-made", "lobby"] });
    expect(response.status).toBe(200);
    expect(response.body.tags).toEqual(["lobby", "put-made"]);
    expect(await tagNames()).toContain("put-made");
    // Replaces by default (the switch mergeDeviceTagsOnPut adds instead, below).
    expect((await admin.put(`/devices/${device}`, { tags: ["site-south"] })).body.tags).toEqual([
      "site-south",
    ]);
  });

  it("GET /devices filters by tags_all[] and tags_any[] (case-insensitive; not both)", async () => {
    const device = owners[1][1];
    await admin.put(`/devices/${device}`, { tags: ["site-south", "lobby"] });
    const all = await admin.get("/devices", {
      query: { "tags_all[]": ["SITE-SOUTH", "lobby"], per_page: 100 },
    });
    expect(all.body.data.map((d: Json) => d.id)).toEqual([device]);
    const any = await admin.get("/devices", {
      query: { "tags_any[]": ["site-south", "lobby"], per_page: 100 },
    });
    const lobby = (await listAll(admin, "/devices")).filter((d: Json) => d.tags.includes("lobby"));
    expect(any.body.data.map((d: Json) => d.id).sort()).toEqual(
      [...new Set([device, ...lobby.map((d: Json) => d.id)])].sort(),
    );
    expect(
      validationErrors(await admin.get("/devices", { query: { "tags_all[]": "a", "tags_any[]": "b" } })),
    ).toEqual({ tags_all: ["The tags all field prohibits tags any from being present."] });
  });
});

describe("migration", () => {
  it("a migrated device keeps its tags, and the target organization gains the tags it lacked", async () => {
    const device = (await admin.get("/devices")).body.data[5];
    expect(
      (await admin.patch(`/devices/${device.id}/tags/attach`, { tags: ["travelling", "lobby"] })).status,
    ).toBe(204);
    const migrate = await client(emulator, emulator.tokens.multiOrgAdmin).post(
      `/devices/${device.id}/migrate/acme-staging`,
      {},
    );
    expect(migrate.status).toBe(204);
    const staging = client(emulator, emulator.tokens.multiOrgAdminSecondary);
    expect((await staging.get(`/devices/${device.id}`)).body.tags).toEqual([
      ...device.tags,
      "travelling",
      "lobby",
    ]);
    const names = await tagNames(staging);
    expect(names).toContain("travelling");
    expect(names.filter((n) => n === "lobby")).toHaveLength(1);
  });
});

describe("switches", () => {
  it("rejectUnknownTags: a name that names no tag is 422 (attach, detach, PUT /devices), nothing is created", async () => {
    const strict = await start({ strict: { rejectUnknownTags: true } });
    try {
      const api = client(strict, strict.tokens.admin);
      const device = (await api.get("/devices")).body.data[0];
      expect(
        validationErrors(
          await api.patch(`/devices/${device.id}/tags/attach`, { tags: ["lobby", "nowhere"] }),
        ),
      ).toEqual({
        "tags.1": ["The selected tags.1 is invalid."],
      });
      expect(
        validationErrors(await api.patch(`/devices/${device.id}/tags/detach`, { tags: ["nowhere"] })),
      ).toEqual({
        "tags.0": ["The selected tags.0 is invalid."],
      });
      expect(
        validationErrors(await api.put(`/devices/${device.id}`, { name: "Renamed", tags: ["nowhere"] })),
      ).toEqual({
        "tags.0": ["The selected tags.0 is invalid."],
      });
      const after = (await api.get(`/devices/${device.id}`)).body;
      expect(after.name).toBe(device.name);
      expect(after.tags).toEqual(device.tags);
      expect(await tagNames(api)).not.toContain("nowhere");
      // A tag created first can be attached.
      expect((await api.post("/tags", { name: "nowhere" })).status).toBe(201);
      expect((await api.patch(`/devices/${device.id}/tags/attach`, { tags: ["nowhere"] })).status).toBe(204);
    } finally {
      await strict.close();
    }
  });

  it("rejectRepeatedTagAttach: attaching a present tag or detaching an absent one is 422, nothing changes", async () => {
    const strict = await start({ strict: { rejectRepeatedTagAttach: true } });
    try {
      const api = client(strict, strict.tokens.admin);
      const app = (await api.get("/apps")).body.data.find((a: Json) => a.name === "Training Simulator");
      expect(app.tags).toEqual(["training"]);
      expect(
        validationErrors(await api.patch(`/apps/${app.id}/tags/attach`, { tags: ["safety", "training"] })),
      ).toEqual({
        "tags.1": ["The tag 'training' is already attached."],
      });
      expect(
        validationErrors(await api.patch(`/apps/${app.id}/tags/detach`, { tags: ["training", "safety"] })),
      ).toEqual({
        "tags.1": ["The tag 'safety' is not attached."],
      });
      expect((await api.get(`/apps/${app.id}`)).body.tags).toEqual(["training"]);
    } finally {
      await strict.close();
    }
  });

  it("mergeDeviceTagsOnPut: PUT /devices/{id} tags add to the device's tags", async () => {
    const merging = await start({ strict: { mergeDeviceTagsOnPut: true } });
    try {
      const api = client(merging, merging.tokens.admin);
      const device = (await api.get("/devices")).body.data.find((d: Json) => d.tags.includes("lobby"));
      expect((await api.put(`/devices/${device.id}`, { tags: ["site-north"] })).body.tags).toEqual([
        "lobby",
        "site-north",
      ]);
      expect((await api.put(`/devices/${device.id}`, { tags: [] })).body.tags).toEqual([
        "lobby",
        "site-north",
      ]);
      // Removing takes a detach.
      expect((await api.patch(`/devices/${device.id}/tags/detach`, { tags: ["lobby"] })).status).toBe(204);
      expect(merging.snapshot().devices.find((d) => d.id === device.id)?.tags).toEqual(["site-north"]);
    } finally {
      await merging.close();
    }
  });
});
