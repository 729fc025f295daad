/** Themes (system and custom), images by type, custom 3D environments. */
import type { RunningEmulator } from "../../emulator";
import { IMAGE_TYPES } from "../../emulator/experienceModel";
import { catalogue, homeBody } from "./experienceHelpers";
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

let emulator: RunningEmulator;
let admin: Client;
let reader: Client;

const MISSING_ID = "00000000-0000-4000-8000-000000000000";
const COLORS = {
  background1: "#101820",
  background2: "#203040",
  text: "#FFFFFF",
  accent1: "#ff0000",
  accent2: "#00ff00",
  accent3: "#0000ff",
};

beforeAll(async () => {
  emulator = await start();
  admin = client(emulator, emulator.tokens.admin);
  reader = client(emulator, emulator.tokens.readOnly);
});
afterAll(() => emulator.close());

describe("themes", () => {
  it("are seeded: system themes first, then by name", async () => {
    await admin.post("/themes", { name: "aardvark", ...COLORS });
    const themes = await listAll(admin, "/themes");
    const system = themes.filter((t) => t.isSystemOwned).map((t) => t.name);
    expect(system).toEqual(["ArborXR Dark", "ArborXR Light"]);
    expect(themes.slice(0, 2).every((t: Json) => t.isSystemOwned)).toBe(true);
    expect(themes.slice(2).map((t: Json) => t.name)).toEqual(["aardvark", "Acme Brand"]);
  });

  it("create (201), read, update (200), delete (204), as the OpenAPI shapes them", async () => {
    const created = await admin.post("/themes", { name: " Night shift ", ...COLORS });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(UUID),
      name: "Night shift",
      isSystemOwned: false,
      ...COLORS,
      createdAt: expect.stringMatching(ISO_MS),
      updatedAt: expect.stringMatching(ISO_MS),
    });
    const id = created.body.id;
    expect((await admin.get(`/themes/${id}`)).body).toEqual(created.body);
    const updated = await admin.put(`/themes/${id}`, { name: "Day shift", ...COLORS, accent1: "#123456" });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      id,
      name: "Day shift",
      accent1: "#123456",
      createdAt: created.body.createdAt,
    });
    expect((await admin.delete(`/themes/${id}`)).status).toBe(204);
    expect((await admin.get(`/themes/${id}`)).status).toBe(404);
    expect((await admin.delete(`/themes/${id}`)).status).toBe(404);
  });

  it("validates name and every colour (#RRGGBB), PUT needs the whole theme", async () => {
    const errors = validationErrors(await admin.post("/themes", {}));
    expect(Object.keys(errors).sort()).toEqual(
      ["accent1", "accent2", "accent3", "background1", "background2", "name", "text"].sort(),
    );
    for (const bad of ["#fff", "123456", "#12345g", "#1234567", "red"]) {
      const response = await admin.post("/themes", { name: "Bad", ...COLORS, text: bad });
      expect(Object.keys(validationErrors(response))).toEqual(["text"]);
    }
    const theme = (await admin.post("/themes", { name: "Partial", ...COLORS })).body;
    expect(
      Object.keys(validationErrors(await admin.put(`/themes/${theme.id}`, { name: "Only name" }))),
    ).toHaveLength(6);
  });

  it("system themes cannot be changed or deleted (422)", async () => {
    const system = (await listAll(admin, "/themes")).find((t: Json) => t.isSystemOwned);
    const put = await admin.put(`/themes/${system.id}`, { name: "Mine now", ...COLORS });
    expect(validationErrors(put).themeId).toEqual(["System themes cannot be modified."]);
    expect(validationErrors(await admin.delete(`/themes/${system.id}`)).themeId).toEqual([
      "System themes cannot be deleted.",
    ]);
    expect((await admin.get(`/themes/${system.id}`)).body.name).toBe(system.name);
  });

  it("permissions: CONTENT__VIEW to read, CONTENT__MANAGE to write", async () => {
    expect((await reader.get("/themes")).status).toBe(200);
    expect((await reader.post("/themes", { name: "No", ...COLORS })).status).toBe(403);
    const theme = (await admin.post("/themes", { name: "Guarded", ...COLORS })).body;
    expect((await reader.put(`/themes/${theme.id}`, { name: "No", ...COLORS })).status).toBe(403);
    expect((await reader.delete(`/themes/${theme.id}`)).status).toBe(403);
    expect((await admin.get(`/themes/${MISSING_ID}`)).status).toBe(404);
  });

  it("writes are audited; an update that changes nothing is not", async () => {
    const theme = (await admin.post("/themes", { name: "Audited theme", ...COLORS })).body;
    await admin.put(`/themes/${theme.id}`, { name: "Audited theme", ...COLORS });
    await admin.put(`/themes/${theme.id}`, { name: "Audited theme 2", ...COLORS });
    await admin.delete(`/themes/${theme.id}`);
    const audit = (await admin.get("/audit-logs", { query: { search: theme.id } })).body.data as Json[];
    expect(audit.map((a) => [a.action, a.type, a.resourceType])).toEqual([
      ["delete-theme", "deleted", "theme"],
      ["update-theme", "updated", "theme"],
      ["create-theme", "created", "theme"],
    ]);
  });

  it("deleting a theme an experience uses leaves the experience without a theme (default reading)", async () => {
    const c = await catalogue(admin);
    const theme = (await admin.post("/themes", { name: "In use", ...COLORS })).body;
    const group = await createConfiguredGroup(admin, "Themed", null);
    await admin.post(`/groups/${group}/headset-experience/arborxr-home`, homeBody(c, { themeId: theme.id }));
    expect((await admin.delete(`/themes/${theme.id}`)).status).toBe(204);
    expect((await admin.get(`/groups/${group}/headset-experience`)).body.themeId).toBeNull();
  });
});

describe("images", () => {
  it("lists one type, the organization's first, then system images; type is required", async () => {
    const response = await admin.get("/images", { query: { type: "headset-xp-menu-icon" } });
    expect(response.status).toBe(200);
    const data = response.body.data as Json[];
    expect(data.map((i) => [i.originalFileName, i.isSystemOwned])).toEqual([
      ["acme-menu-icon.png", false],
      ["arborxr-menu-icon.png", true],
    ]);
    expect(data[0]).toEqual({
      id: expect.stringMatching(UUID),
      isSystemOwned: false,
      objectName: `${data[0].id}.png`,
      originalFileName: "acme-menu-icon.png",
      mimeType: "image/png",
      sizeBytes: expect.any(Number),
      type: "headset-xp-menu-icon",
      status: "available",
      // Seeded: no bytes on the emulator's storage endpoint to sign a GET of.
      downloadUrl: null,
      createdAt: expect.stringMatching(ISO_MS),
      updatedAt: expect.stringMatching(ISO_MS),
    });
    expect(Object.keys(validationErrors(await admin.get("/images")))).toEqual(["type"]);
    expect(Object.keys(validationErrors(await admin.get("/images", { query: { type: "gif" } })))).toEqual([
      "type",
    ]);
    // Every type has a seeded image.
    for (const type of IMAGE_TYPES) {
      const images = (await admin.get("/images", { query: { type } })).body.data as Json[];
      expect({ type, seeded: images.length > 0, allOfType: images.every((i) => i.type === type) }).toEqual({
        type,
        seeded: true,
        allOfType: true,
      });
    }
    expect((await admin.get(`/images/${data[0].id}`)).body).toEqual(data[0]);
    expect((await admin.get(`/images/${MISSING_ID}`)).status).toBe(404);
  });

  it("the staging organization mirrors images by name, system images share ids", async () => {
    const staging = client(emulator, emulator.tokens.multiOrgAdminSecondary);
    const query = { query: { type: "headset-xp-banner" } };
    const own = (await admin.get("/images", query)).body.data as Json[];
    const theirs = (await staging.get("/images", query)).body.data as Json[];
    expect(theirs.map((i) => i.originalFileName)).toEqual(own.map((i) => i.originalFileName));
    expect(theirs[0].id).not.toBe(own[0].id);
    expect(theirs[1].id).toBe(own[1].id);
  });
});

describe("custom 3D environments", () => {
  it("lists and reads (wrapped in data) the seeded environment", async () => {
    const list = await admin.get("/custom-3d-environments");
    expect(list.status).toBe(200);
    const [environment] = list.body.data;
    expect(environment).toEqual({
      id: expect.stringMatching(UUID),
      objectName: "acme-showroom.glb",
      sizeBytes: expect.any(Number),
      status: "available",
      downloadUrl: null, // seeded: no bytes to sign a GET of
      createdAt: expect.stringMatching(ISO_MS),
      updatedAt: expect.stringMatching(ISO_MS),
    });
    expect((await admin.get(`/custom-3d-environments/${environment.id}`)).body).toEqual({
      data: environment,
    });
    expect((await admin.get(`/custom-3d-environments/${MISSING_ID}`)).status).toBe(404);
    const member = client(emulator, emulator.tokens.v2);
    expect((await member.get("/custom-3d-environments")).status).toBe(401);
  });
});
