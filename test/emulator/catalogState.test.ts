/**
 * --state with tags, app versions, channel versions, custom fields and the emulator clock: they survive a restart,
 * and a state file written before they existed still loads (tags and versions derived from what it holds).
 */
import { mkdtempSync, promises as fs, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { client, createConfiguredGroup, listAll, start, type Json } from "./helpers";

const HOUR = 3_600_000;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "devicemgmt-catalog-state-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("state file", () => {
  it("keeps tags, owners' tags, custom fields, channel versions, rollouts and the clock across a restart", async () => {
    const statePath = path.join(dir, "catalog.json");
    const first = await start({ statePath, rollouts: { durationMs: HOUR } });
    const admin = client(first, first.tokens.admin);
    const group = await createConfiguredGroup(admin, "Persisted site", null);
    expect((await admin.post("/tags", { name: "persisted" })).status).toBe(201);
    expect((await admin.patch(`/groups/${group}/tags/attach`, { tags: ["persisted"] })).status).toBe(204);
    const app = (await listAll(admin, "/apps")).find((a: Json) => a.name === "Training Simulator");
    expect((await admin.patch(`/apps/${app.id}/tags/attach`, { tags: ["persisted"] })).status).toBe(204);
    const devices: Json[] = (await admin.get("/devices")).body.data.slice(0, 2);
    for (const device of devices) await admin.put(`/devices/${device.id}`, { groupId: group });
    await admin.patch(`/devices/${devices[0].id}/custom-fields`, {
      action: "attach",
      customFields: [{ name: "Site", value: "Persisted" }],
    });
    const channel = (await admin.get(`/apps/${app.id}/release-channels`)).body.data[0];
    const channelPath = `/apps/${app.id}/release-channels/${channel.id}`;
    await admin.post(`/groups/${group}/release-channels`, { releaseChannelId: channel.id });
    first.advanceClock(HOUR);
    const older = (await listAll(admin, `/apps/${app.id}/versions`)).find((v: Json) => v.version === "2.3.0");
    expect((await admin.put(channelPath, { versionId: older.id })).status).toBe(200);
    first.advanceClock(2 * HOUR);
    // The clock's offset is written with the next write.
    await admin.post("/groups", { name: "Flush", parentId: null });
    const before = {
      snapshot: first.snapshot(),
      tags: await listAll(admin, "/tags"),
      versions: await listAll(admin, `/apps/${app.id}/versions`),
      statuses: await listAll(admin, `${channelPath}/device-statuses`),
      app: (await admin.get(`/apps/${app.id}`)).body,
    };
    expect(before.statuses.map((s: Json) => [s.status, s.installedVersion])).toEqual([
      ["succeeded-update", "2.3.0"],
      ["succeeded-update", "2.3.0"],
    ]);
    await first.close();

    const second = await start({ statePath, rollouts: { durationMs: HOUR } });
    try {
      const again = client(second, second.tokens.admin);
      expect(second.snapshot()).toEqual(before.snapshot);
      expect(second.snapshot().groups.find((g) => g.id === group)?.tags).toEqual(["persisted"]);
      expect(await listAll(again, "/tags")).toEqual(before.tags);
      expect(await listAll(again, `/apps/${app.id}/versions`)).toEqual(before.versions);
      expect(await listAll(again, `${channelPath}/device-statuses`)).toEqual(before.statuses);
      expect((await again.get(`/apps/${app.id}`)).body).toEqual(before.app);
      // The clock did not go back: new records are stamped after the advanced time.
      const made = await again.post("/groups", { name: "After restart", parentId: null });
      expect(Date.parse(made.body.createdAt)).toBeGreaterThanOrEqual(Date.now() + 3 * HOUR - 1_000);
    } finally {
      await second.close();
    }
  });

  it("loads a state file from before tags, versions, group tags, rollouts and the clock existed", async () => {
    const statePath = path.join(dir, "old.json");
    const fresh = await start({ statePath });
    const admin = client(fresh, fresh.tokens.admin);
    const group = await createConfiguredGroup(admin, "Old site", null);
    const device = (await admin.get("/devices")).body.data[0];
    await admin.put(`/devices/${device.id}`, { tags: ["legacy-tag"] });
    await fresh.close();

    // Strip what older emulators did not write.
    const state = JSON.parse(await fs.readFile(statePath, "utf8"));
    delete state.clockOffsetMs;
    for (const org of state.orgs) {
      delete org.tags;
      delete org.appVersions;
      delete org.appBundles;
      for (const g of org.groups) delete g.tags;
      for (const c of org.releaseChannels) delete c.rollout;
    }
    await fs.writeFile(statePath, JSON.stringify(state));

    const old = await start({ statePath });
    try {
      const api = client(old, old.tokens.admin);
      const names = (await listAll(api, "/tags")).map((t: Json) => t.name);
      expect(names).toEqual(expect.arrayContaining(["legacy-tag", "lobby", "training", "site-north"]));
      const apps: Json[] = await listAll(api, "/apps");
      for (const app of apps) {
        const versions = (await listAll(api, `/apps/${app.id}/versions`)).map((v: Json) => v.id);
        const channels: Json[] = (await api.get(`/apps/${app.id}/release-channels`)).body.data;
        for (const channel of channels) expect(versions).toContain(channel.version.id);
      }
      expect(old.snapshot().groups.find((g) => g.id === group)?.tags).toEqual([]);
      expect((await api.patch(`/groups/${group}/tags/attach`, { tags: ["legacy-tag"] })).status).toBe(204);
      expect(old.snapshot().groups.find((g) => g.id === group)?.tags).toEqual(["legacy-tag"]);
    } finally {
      await old.close();
    }
  });
});
