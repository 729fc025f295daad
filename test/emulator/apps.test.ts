/**
 * `POST /apps` and `PUT /apps/{appId}` (issue 31's App): the OpenAPI's bodies (CreateApp: `name` 1..100 required,
 * `deviceModelIds`; UpdateApp: `name`, `description`, `tags`), the emulator's rules for them (permission, model
 * references, tags resolved like tag attach, no-op PUTs), their audit records, persistence, and each switch for
 * what the documents leave open tested both ways.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { RunningEmulator } from "../../emulator";
import { optionsFromArgs } from "../../emulator/cli";
import { seedState } from "../../emulator/seed";
import { client, ISO_MS, start, UUID, validationErrors, type Client, type Json } from "./helpers";
// Apart, so that the list above keeps to one line.
import { withEmulator } from "./helpers";

const MISSING = "00000000-0000-4000-8000-000000000000";

/** Every app of the organization (the seed has three, so one page holds them). */
async function appNames(api: Client): Promise<string[]> {
  return (await api.get("/apps", { query: { per_page: 100 } })).body.data.map((a: Json) => a.name);
}

async function newestAudit(api: Client): Promise<Json> {
  return (await api.get("/audit-logs", { query: { per_page: 1 } })).body.data[0];
}

async function auditTotal(api: Client): Promise<number> {
  return (await api.get("/audit-logs", { query: { per_page: 1 } })).body.meta.total;
}

describe("POST /apps and PUT /apps/{appId} (default readings)", () => {
  let emulator: RunningEmulator;
  let admin: Client;
  let models: Json[];

  beforeAll(async () => {
    emulator = await start();
    admin = client(emulator, emulator.tokens.admin);
    models = (await admin.get("/device-models", { query: { per_page: 100 } })).body.data;
  });
  afterAll(() => emulator.close());

  const model = (name: string) => models.find((m) => m.name === name);

  it("creates an app with the models asked for and nothing an upload brings; GET reads it back", async () => {
    const quest3 = model("Quest 3");
    const pico = model("Pico 4 Enterprise");
    const response = await admin.post("/apps", {
      name: "  Forklift Trainer  ",
      deviceModelIds: [quest3.id, pico.id.toUpperCase(), quest3.id],
      tags: ["ignored: CreateApp has no tags"],
    });
    expect(response.status).toBe(201);
    const app = response.body;
    expect(app).toEqual({
      id: expect.stringMatching(UUID),
      name: "Forklift Trainer",
      description: null,
      tags: [],
      // In the order given, each once, ids matched case-insensitively.
      deviceModels: [quest3, pico],
      packageName: null,
      installedDeviceCount: 0,
      icon: null,
      latestAvailableVersion: null,
      ownerOrganization: expect.objectContaining({ id: emulator.orgs.primary.id }),
      createdAt: expect.stringMatching(ISO_MS),
      updatedAt: app.createdAt,
    });
    expect((await admin.get(`/apps/${app.id}`)).body).toEqual(app);
    // Newest first, so the new app leads the list; it has no versions, bundles or channels.
    expect((await admin.get("/apps")).body.data[0]).toEqual(app);
    expect((await admin.get(`/apps/${app.id}/versions`)).body.data).toEqual([]);
    expect((await admin.get(`/apps/${app.id}/release-channels`)).body.data).toEqual([]);
    expect(await newestAudit(admin)).toMatchObject({
      type: "created",
      action: "create-app",
      resourceType: "app",
      resourceId: app.id,
      resourceName: "Forklift Trainer",
      description: "Created app 'Forklift Trainer'.",
    });
  });

  it("refuses a bad body with one 422 per field, and creates nothing", async () => {
    const before = await appNames(admin);
    const audits = await auditTotal(admin);
    expect(validationErrors(await admin.post("/apps", {}))).toEqual({
      name: ["The name field is required."],
    });
    expect(validationErrors(await admin.post("/apps", { name: "   " }))).toEqual({
      name: ["The name field is required."],
    });
    expect(validationErrors(await admin.post("/apps", { name: "x".repeat(101) }))).toEqual({
      name: ["The name field must not be greater than 100 characters."],
    });
    expect(validationErrors(await admin.post("/apps", { name: 7, deviceModelIds: "all" }))).toEqual({
      name: ["The name field must be a string."],
      deviceModelIds: ["The device model ids field must be an array."],
    });
    expect(
      validationErrors(await admin.post("/apps", { name: "Bad ids", deviceModelIds: ["not-a-uuid"] })),
    ).toEqual({ "deviceModelIds.0": ["The deviceModelIds.0 field must be a valid UUID."] });
    // A model GET /device-models does not list (unknown, or unsupported and enrolled by nobody) names nothing.
    const listed = models.map((m) => m.id);
    const oculusGo = unlistedModelId(listed);
    expect(
      validationErrors(
        await admin.post("/apps", { name: "Bad models", deviceModelIds: [listed[0], MISSING, oculusGo] }),
      ),
    ).toEqual({
      "deviceModelIds.1": ["The selected deviceModelIds.1 is invalid."],
      "deviceModelIds.2": ["The selected deviceModelIds.2 is invalid."],
    });
    expect(await appNames(admin)).toEqual(before);
    expect(await auditTotal(admin)).toBe(audits);
  });

  it("needs RELEASE_CHANNEL__MANAGE and a v3 token; an unknown app is 404 before the permission", async () => {
    const app = (await admin.post("/apps", { name: "Guarded" })).body;
    const reader = client(emulator, emulator.tokens.readOnly);
    expect((await reader.post("/apps", { name: "Not mine" })).status).toBe(403);
    expect((await reader.put(`/apps/${app.id}`, { name: "Not mine" })).status).toBe(403);
    expect((await reader.put(`/apps/${MISSING}`, { name: "x" })).status).toBe(404);
    // 403 comes before the body is looked at.
    expect((await reader.post("/apps", {})).status).toBe(403);
    const v2 = client(emulator, emulator.tokens.v2);
    expect((await v2.post("/apps", { name: "Legacy" })).status).toBe(401);
    expect((await admin.get(`/apps/${app.id}`)).body.name).toBe("Guarded");
    expect(await appNames(admin)).not.toContain("Not mine");
  });

  it("PUT changes name, description and tags (replacing them), and only what it is given", async () => {
    const quest2 = model("Quest 2");
    const app = (await admin.post("/apps", { name: "Picker Trainer", deviceModelIds: [quest2.id] })).body;
    const tagsBefore: string[] = (await admin.get("/tags", { query: { per_page: 100 } })).body.data.map(
      (t: Json) => t.name,
    );
    emulator.advanceClock(1_000);
    const response = await admin.put(`/apps/${app.id}`, {
      name: "Picker Trainer 2",
      description: "Teaches the pick path.",
      // Matched to existing tags case-insensitively (stored as the tag spells it); unknown names create tags.
      tags: ["LOBBY", "app-trainers", "lobby"],
      deviceModelIds: [], // not an UpdateApp field: ignored
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: app.id,
      name: "Picker Trainer 2",
      description: "Teaches the pick path.",
      tags: ["lobby", "app-trainers"],
      deviceModels: [quest2],
      createdAt: app.createdAt,
    });
    expect(response.body.updatedAt > app.updatedAt).toBe(true);
    expect((await admin.get(`/apps/${app.id}`)).body).toEqual(response.body);
    const tagsAfter: string[] = (await admin.get("/tags", { query: { per_page: 100 } })).body.data.map(
      (t: Json) => t.name,
    );
    expect(tagsAfter.filter((t) => !tagsBefore.includes(t))).toEqual(["app-trainers"]);
    expect(await newestAudit(admin)).toMatchObject({
      type: "updated",
      action: "update-app",
      resourceType: "app",
      resourceId: app.id,
      resourceName: "Picker Trainer 2",
      description: "Updated app 'Picker Trainer'.",
    });

    // Fields left out stay; tags given replace the app's tags; "" and null clear the description.
    const renamed = await admin.put(`/apps/${app.id}`, { tags: ["training"], description: "" });
    expect(renamed.body).toMatchObject({ name: "Picker Trainer 2", tags: ["training"], description: null });
    await admin.put(`/apps/${app.id}`, { description: "Back" });
    expect((await admin.put(`/apps/${app.id}`, { description: null })).body.description).toBeNull();
    expect((await admin.put(`/apps/${app.id}`, { tags: [] })).body.tags).toEqual([]);
  });

  it("a PUT that changes nothing moves no timestamp and records nothing", async () => {
    const app = (await admin.post("/apps", { name: "Steady" })).body;
    await admin.put(`/apps/${app.id}`, { description: "Same", tags: ["safety"] });
    const current = (await admin.get(`/apps/${app.id}`)).body;
    const audits = await auditTotal(admin);
    emulator.advanceClock(1_000);
    const again = await admin.put(`/apps/${app.id}`, {
      name: "Steady",
      description: "Same",
      tags: ["SAFETY"],
    });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(current);
    expect((await admin.put(`/apps/${app.id}`, {})).body).toEqual(current);
    expect(await auditTotal(admin)).toBe(audits);
  });

  it("PUT refuses a bad body and changes nothing", async () => {
    const app = (await admin.post("/apps", { name: "Untouched" })).body;
    const audits = await auditTotal(admin);
    expect(
      validationErrors(await admin.put(`/apps/${app.id}`, { name: "", description: 3, tags: "lobby" })),
    ).toEqual({
      name: ["The name field is required."],
      description: ["The description field must be a string."],
      tags: ["The tags field must be an array."],
    });
    expect(validationErrors(await admin.put(`/apps/${app.id}`, { name: "ok", tags: ["fine", ""] }))).toEqual({
      "tags.1": ["The tags.1 field is required."],
    });
    expect((await admin.put(`/apps/${app.id}`, undefined, { rawBody: "[1]" })).status).toBe(400);
    expect((await admin.get(`/apps/${app.id}`)).body).toEqual(app);
    expect(await auditTotal(admin)).toBe(audits);
  });

  it("a created app survives a restart with --state", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "devicemgmt-apps-"));
    try {
      const statePath = path.join(dir, "state.json");
      const first = await start({ statePath });
      const api = client(first, first.tokens.admin);
      const made = (await api.post("/apps", { name: "Persisted", deviceModelIds: [models[0].id] })).body;
      const updated = (await api.put(`/apps/${made.id}`, { description: "Kept", tags: ["kept"] })).body;
      await first.close();
      const second = await start({ statePath });
      try {
        expect((await client(second, second.tokens.admin).get(`/apps/${made.id}`)).body).toEqual(updated);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** The id of a model that is not supported and that no device of the organization is enrolled with (Oculus Go). */
function unlistedModelId(listed: readonly string[]): string {
  const unlisted = seedState().deviceModels.find((m) => !m.isSupported && !listed.includes(m.id));
  if (!unlisted) throw new Error("the seed has no unsupported model that nobody enrolled");
  return unlisted.id;
}

describe.each([false, true])("uniqueAppNames: %s", (unique) => {
  it("a name another app has (case-insensitively) is 422, or allowed", () =>
    withEmulator({ strict: { uniqueAppNames: unique } }, async (_emulator, admin) => {
      const seeded = (await admin.get("/apps")).body.data.find((a: Json) => a.name === "Safety Briefing");
      const made = await admin.post("/apps", { name: "SAFETY BRIEFING" });
      const renamed = (await admin.post("/apps", { name: "Other" })).body;
      const rename = await admin.put(`/apps/${renamed.id}`, { name: "safety briefing" });
      if (unique) {
        expect(validationErrors(made)).toEqual({ name: ["The name has already been taken."] });
        expect(validationErrors(rename)).toEqual({ name: ["The name has already been taken."] });
        expect((await admin.get(`/apps/${renamed.id}`)).body.name).toBe("Other");
      } else {
        expect([made.status, rename.status]).toEqual([201, 200]);
      }
      // An app keeps its own name in another case either way.
      const own = await admin.put(`/apps/${seeded.id}`, { name: "safety briefing" });
      expect(own.status).toBe(200);
      expect(own.body.name).toBe("safety briefing");
      const names = await appNames(admin);
      expect(names.filter((n) => n.toLowerCase() === "safety briefing")).toHaveLength(unique ? 1 : 3);
    }));
});

describe.each([false, true])("defaultAppModelsToSupported: %s", (allSupported) => {
  it("an app created without deviceModelIds is for no model, or for every supported model", () =>
    withEmulator({ strict: { defaultAppModelsToSupported: allSupported } }, async (_emulator, admin) => {
      const models: Json[] = (await admin.get("/device-models", { query: { per_page: 100 } })).body.data;
      const app = (await admin.post("/apps", { name: "Unscoped" })).body;
      const expected = allSupported
        ? models
            .filter((m) => m.isSupported)
            .map((m) => m.id)
            .sort()
        : [];
      expect(app.deviceModels.map((m: Json) => m.id).sort()).toEqual(expected);
      if (allSupported) expect(expected.length).toBeGreaterThan(0);
      // Given explicitly, the list is what was sent, either way (an empty one too).
      const none = (await admin.post("/apps", { name: "No models", deviceModelIds: [] })).body;
      expect(none.deviceModels).toEqual([]);
      expect((await admin.get(`/apps/${app.id}`)).body.deviceModels).toEqual(app.deviceModels);
    }));
});

describe.each([false, true])("mergeAppTagsOnPut: %s", (merge) => {
  it("PUT /apps/{id} tags replace the app's tags, or are added to them", () =>
    withEmulator({ strict: { mergeAppTagsOnPut: merge } }, async (_emulator, admin) => {
      const app = (await admin.post("/apps", { name: "Tagged" })).body;
      await admin.patch(`/apps/${app.id}/tags/attach`, { tags: ["lobby", "training"] });
      const put = await admin.put(`/apps/${app.id}`, { tags: ["safety", "training"] });
      expect(put.body.tags).toEqual(merge ? ["lobby", "training", "safety"] : ["safety", "training"]);
      expect((await admin.get(`/apps/${app.id}`)).body.tags).toEqual(put.body.tags);
    }));
});

describe.each([false, true])("keepEmptyAppDescription: %s", (keep) => {
  it('PUT /apps/{id} description "" reads back as null, or as ""', () =>
    withEmulator({ strict: { keepEmptyAppDescription: keep } }, async (_emulator, admin) => {
      const app = (await admin.post("/apps", { name: "Described" })).body;
      await admin.put(`/apps/${app.id}`, { description: "Something" });
      const cleared = await admin.put(`/apps/${app.id}`, { description: "" });
      expect(cleared.body.description).toBe(keep ? "" : null);
      expect((await admin.get(`/apps/${app.id}`)).body.description).toBe(keep ? "" : null);
      // null clears it either way.
      expect((await admin.put(`/apps/${app.id}`, { description: null })).body.description).toBeNull();
    }));
});

it("rejectUnknownTags applies to PUT /apps/{id} tags: nothing changed, no tag created", () =>
  withEmulator({ strict: { rejectUnknownTags: true } }, async (_emulator, admin) => {
    const app = (await admin.post("/apps", { name: "Strict tags", deviceModelIds: [] })).body;
    const response = await admin.put(`/apps/${app.id}`, { name: "Renamed", tags: ["lobby", "no-such-tag"] });
    expect(validationErrors(response)).toEqual({ "tags.1": ["The selected tags.1 is invalid."] });
    expect((await admin.get(`/apps/${app.id}`)).body).toEqual(app);
    expect((await admin.get("/tags", { query: { search: "no-such-tag" } })).body.data).toEqual([]);
  }));

it("--strict-catalog names the app switches", () => {
  const options = optionsFromArgs([
    "--strict-catalog",
    "unique-app-names",
    "--strict-catalog",
    "default-app-models-to-supported",
    "--strict-catalog",
    "merge-app-tags-on-put",
    "--strict-catalog",
    "keep-empty-app-description",
  ]);
  expect(options).toMatchObject({
    strict: {
      uniqueAppNames: true,
      defaultAppModelsToSupported: true,
      mergeAppTagsOnPut: true,
      keepEmptyAppDescription: true,
    },
  });
});
