/** --state: everything survives a restart, and acknowledged writes survive kill -9 mid-write. */
import { mkdtempSync, promises as fs, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { SEED_TOKENS } from "../../emulator/seed";
import { call, client, createConfiguredGroup, createGroup, start, type Json } from "./helpers";
import { exited, startCli } from "./process";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "devicemgmt-emulator-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("state file", () => {
  it("keeps groups, users, devices and attachments across a restart", async () => {
    const statePath = path.join(dir, "restart.json");
    const first = await start({ statePath });
    const admin = client(first, first.tokens.admin);
    const folder = await createGroup(admin, "Persisted folder", null);
    const leaf = await createConfiguredGroup(admin, "Persisted leaf", folder);
    const device = (await admin.get("/devices")).body.data[0];
    await admin.put(`/devices/${device.id}`, { groupId: leaf, tags: ["kept"] });
    const app = (await admin.get("/apps")).body.data[0];
    const channel = (await admin.get(`/apps/${app.id}/release-channels`)).body.data[0];
    await admin.post(`/groups/${leaf}/release-channels`, { releaseChannelId: channel.id });
    const roles = (await admin.get("/roles")).body.data;
    await admin.post("/users", {
      firstName: "Kept",
      lastName: "User",
      email: "kept@acme.example",
      defaultRoleId: roles.find((r: Json) => r.name === "Read Only").id,
      groupRoles: [{ roleId: roles.find((r: Json) => r.name === "Group Admin").id, groupId: folder }],
    });
    const migrated = (await admin.get("/devices")).body.data[1].id;
    await client(first, first.tokens.multiOrgAdmin).post(`/devices/${migrated}/migrate/acme-staging`, {});
    const before = { primary: first.snapshot("acme"), secondary: first.snapshot("acme-staging") };
    const groupJson = (await admin.get(`/groups/${leaf}`)).body;
    await first.close();

    const second = await start({ statePath });
    try {
      expect(second.snapshot("acme")).toEqual(before.primary);
      expect(second.snapshot("acme-staging")).toEqual(before.secondary);
      expect((await client(second, second.tokens.admin).get(`/groups/${leaf}`)).body).toEqual(groupJson);
    } finally {
      await second.close();
    }
    // Seed options do not apply to an existing state.
    const third = await start({ statePath, seed: { devices: 50 } });
    try {
      expect(third.snapshot("acme").devices).toHaveLength(7);
    } finally {
      await third.close();
    }
  });

  it("refuses a file that is not an emulator state", async () => {
    const statePath = path.join(dir, "foreign.json");
    await fs.writeFile(statePath, JSON.stringify({ hello: "world" }));
    await expect(start({ statePath })).rejects.toThrow(/not a devicemgmt emulator state file/);
  });

  it("is written as soon as the emulator starts, leaving no temp files behind", async () => {
    const statePath = path.join(dir, "fresh.json");
    const emulator = await start({ statePath });
    try {
      const saved = JSON.parse(await fs.readFile(statePath, "utf8"));
      expect(saved).toMatchObject({ format: "devicemgmt-emulator-state", version: 1 });
      expect(saved.orgs).toHaveLength(2);
      const admin = client(emulator, emulator.tokens.admin);
      await Promise.all(Array.from({ length: 20 }, (_, i) => createGroup(admin, `Concurrent ${i}`, null)));
      const after = JSON.parse(await fs.readFile(statePath, "utf8"));
      expect(after.orgs[0].groups).toHaveLength(20);
    } finally {
      await emulator.close();
    }
    expect((await fs.readdir(dir)).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });
});

describe("kill -9 mid-write", () => {
  it("loses no acknowledged write and leaves a readable state", async () => {
    const statePath = path.join(dir, "killed.json");
    const emulator = await startCli(["--state", statePath]);
    const acknowledged: string[] = [];
    const post = async (name: string) => {
      const response = await call("POST", `${emulator.baseUrl}/groups`, {
        token: SEED_TOKENS.admin,
        body: { name, parentId: null },
      });
      if (response.status === 201) acknowledged.push(name);
    };
    await Promise.all(Array.from({ length: 40 }, (_, i) => post(`Before ${i}`)));
    expect(acknowledged).toHaveLength(40);

    // A second wave is in flight when the process dies; whatever was answered 201 must be on disk.
    const inFlight = Array.from({ length: 200 }, (_, i) => post(`During ${i}`).catch(() => undefined));
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (acknowledged.length >= 45) {
          clearInterval(check);
          resolve();
        }
      }, 1);
    });
    emulator.child.kill("SIGKILL");
    await Promise.all(inFlight);
    expect((await exited(emulator.child)).signal).toBe("SIGKILL");
    const answeredBeforeKill = [...acknowledged];

    const restarted = await start({ statePath });
    try {
      const stored = new Set(restarted.snapshot().groups.map((g) => g.name));
      for (const name of answeredBeforeKill) expect(stored.has(name)).toBe(true);
    } finally {
      await restarted.close();
    }
  });
});
