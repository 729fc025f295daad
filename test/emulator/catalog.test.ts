/** Apps and release channels, files, videos and device models as seeded. */
import type { RunningEmulator } from "../../emulator";
import { client, createConfiguredGroup, ISO_MS, start, UUID, type Client, type Json } from "./helpers";

let emulator: RunningEmulator;
let admin: Client;
let staging: Client;

const MISSING_ID = "00000000-0000-4000-8000-000000000000";

beforeAll(async () => {
  emulator = await start();
  admin = client(emulator, emulator.tokens.admin);
  staging = client(emulator, emulator.tokens.multiOrgAdminSecondary);
});
afterAll(() => emulator.close());

async function catalogue(api: Client): Promise<Record<string, string[]>> {
  const apps = (await api.get("/apps")).body.data;
  const result: Record<string, string[]> = {};
  for (const app of apps) {
    result[app.name] = (await api.get(`/apps/${app.id}/release-channels`)).body.data
      .map((c: Json) => c.name)
      .sort();
  }
  return result;
}

describe("apps and release channels", () => {
  it("are seeded with channels, the same names in both organizations", async () => {
    const primary = await catalogue(admin);
    expect(primary).toEqual({
      "Training Simulator": ["Beta", "Production"],
      "Safety Briefing": ["Stable"],
      "Warehouse Picker": ["Pilot", "Production"],
    });
    expect(await catalogue(staging)).toEqual(primary);
  });

  it("have the OpenAPI shapes", async () => {
    const app = (await admin.get("/apps")).body.data.find((a: Json) => a.name === "Training Simulator");
    expect(app).toMatchObject({
      id: expect.stringMatching(UUID),
      tags: ["training"],
      packageName: "com.acme.trainingsimulator",
      installedDeviceCount: 0,
      latestAvailableVersion: "2.4.1",
      ownerOrganization: { id: emulator.orgs.primary.id, slug: "acme" },
      createdAt: expect.stringMatching(ISO_MS),
    });
    expect(app.deviceModels.map((m: Json) => m.name).sort()).toEqual([
      "Pico 4 Enterprise",
      "Quest 2",
      "Quest 3",
    ]);
    expect((await admin.get(`/apps/${app.id}`)).body).toEqual(app);
    const channels = (await admin.get(`/apps/${app.id}/release-channels`)).body.data;
    const beta = channels.find((c: Json) => c.name === "Beta");
    expect(beta).toMatchObject({
      app: { id: app.id },
      version: {
        version: "2.5.0-beta.3",
        code: 250,
        status: "available",
        checksum: { algorithm: "SHA-256" },
      },
      bundle: { status: "available", appBuild: { version: "2.5.0-beta.3" } },
      deviceStatuses: [],
    });
    expect((await admin.get(`/apps/${app.id}/release-channels/${beta.id}`)).body).toEqual(beta);
  });

  it("404 for unknown apps, channels of another app, and another organization's apps", async () => {
    const apps = (await admin.get("/apps")).body.data;
    const [first, second] = apps;
    const channel = (await admin.get(`/apps/${first.id}/release-channels`)).body.data[0];
    expect((await admin.get(`/apps/${MISSING_ID}`)).status).toBe(404);
    expect((await admin.get(`/apps/${second.id}/release-channels/${channel.id}`)).status).toBe(404);
    expect((await staging.get(`/apps/${first.id}`)).status).toBe(404);
    expect((await admin.get(`/apps/${MISSING_ID}/release-channels`)).status).toBe(404);
  });
});

describe("files and videos", () => {
  it("are seeded with bytes and SHA-512 checksums", async () => {
    const files = (await admin.get("/files")).body.data;
    expect(files.map((f: Json) => f.filename).sort()).toEqual(
      [
        "kiosk-config.json",
        "onboarding-checklist.pdf",
        "safety-manual.pdf",
        "warehouse-floorplan.png",
      ].sort(),
    );
    for (const file of files) {
      expect(file.checksum).toEqual({
        algorithm: "SHA-512",
        value: expect.stringMatching(/^[0-9a-f]{128}$/),
      });
      expect(Number.isInteger(file.sizeBytes)).toBe(true);
      expect(file.deviceStatuses).toEqual([]);
    }
    const videos = (await admin.get("/videos")).body.data;
    expect(videos.map((v: Json) => v.name).sort()).toEqual([
      "Evacuation Drill",
      "Forklift Safety 360",
      "Welcome Tour",
    ]);
    expect(videos.find((v: Json) => v.name === "Forklift Safety 360").details).toMatchObject({
      videoType: "ThreeSixty",
    });
    expect((await admin.get(`/videos/${videos[0].id}`)).body).toEqual(videos[0]);
    expect((await admin.get(`/files/${files[0].id}`)).body).toEqual(files[0]);
    expect((await admin.get(`/files/${MISSING_ID}`)).status).toBe(404);
    expect((await admin.get(`/videos/${MISSING_ID}`)).status).toBe(404);
  });

  it("report the devices of the groups they are attached to", async () => {
    const file = (await admin.get("/files")).body.data[0];
    const device = (await admin.get("/devices")).body.data[0];
    const leaf = await createConfiguredGroup(admin, "File leaf", null);
    await admin.put(`/devices/${device.id}`, { groupId: leaf });
    await admin.post(`/groups/${leaf}/files`, { fileId: file.id });
    const read = (await admin.get(`/files/${file.id}`)).body;
    expect(read.deviceStatuses).toEqual([
      { deviceId: device.id, status: "pending-install", statusTimestamp: expect.stringMatching(ISO_MS) },
    ]);
  });

  it("DELETE removes a file or video and detaches it from groups", async () => {
    const video = (await admin.get("/videos")).body.data[0];
    const leaf = await createConfiguredGroup(admin, "Video leaf", null);
    await admin.post(`/groups/${leaf}/videos`, { videoId: video.id });
    expect((await client(emulator, emulator.tokens.readOnly).delete(`/videos/${video.id}`)).status).toBe(403);
    expect((await admin.delete(`/videos/${video.id}`)).status).toBe(204);
    expect((await admin.get(`/videos/${video.id}`)).status).toBe(404);
    expect(emulator.snapshot().groups.find((g) => g.id === leaf)?.videoIds).toEqual([]);
    expect((await admin.delete(`/videos/${video.id}`)).status).toBe(404);
  });
});

describe("device models", () => {
  it("lists every supported model plus unsupported models enrolled in the organization", async () => {
    const models = (await admin.get("/device-models", { query: { per_page: 100 } })).body.data;
    const names = models.map((m: Json) => `${m.manufacturer} ${m.name}`).sort();
    expect(names).toEqual(
      [
        "HTC Vive Focus 3",
        "Lenovo Mirage Solo",
        "Meta Quest 2",
        "Meta Quest 3",
        "Meta Quest Pro",
        "Pico Pico 4 Enterprise",
        "Pico Pico Neo 3 Pro",
      ].sort(),
    );
    expect(models.find((m: Json) => m.name === "Mirage Solo").isSupported).toBe(false);
    expect(names).not.toContain("Oculus Go");
    const one = await admin.get(`/device-models/${models[0].id}`);
    expect(one.body).toEqual(models[0]);
  });

  it("an unsupported model stops being listed once no device of the organization has it", async () => {
    const fresh = await start({ seed: { devices: 8 } });
    try {
      const multi = client(fresh, fresh.tokens.multiOrgAdmin);
      const devices = (await multi.get("/devices")).body.data;
      const mirage = devices.filter((d: Json) => d.deviceModel.name === "Mirage Solo");
      expect(mirage).toHaveLength(1);
      expect((await multi.post(`/devices/${mirage[0].id}/migrate/acme-staging`, {})).status).toBe(204);
      const models = (await multi.get("/device-models")).body.data.map((m: Json) => m.name);
      expect(models).not.toContain("Mirage Solo");
      expect((await multi.get(`/device-models/${mirage[0].deviceModel.id}`)).status).toBe(404);
    } finally {
      await fresh.close();
    }
  });
});
