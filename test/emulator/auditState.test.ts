/** Audit records with strict pending invitations, and across a restart with a state file. */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { client, start, UUID, type Client, type Json } from "./helpers";

async function newest(count: number, api: Client): Promise<Json[]> {
  return (await api.get("/audit-logs", { query: { per_page: count } })).body.data;
}

describe("strict pending invitations", () => {
  it("an invitation is recorded against the invitation (there is no user yet)", async () => {
    const strict = await start({ strict: { pendingInvitations: true } });
    try {
      const api = client(strict, strict.tokens.admin);
      const roles: Json[] = (await api.get("/roles")).body.data;
      const member = roles.find((r) => r.name === "Member").id;
      expect(
        (await api.post("/user-invites", { email: "later@acme.example", defaultRoleId: member })).status,
      ).toBe(204);
      const [record] = await newest(1, api);
      expect(record).toMatchObject({
        type: "created",
        action: "invite-user",
        resourceType: "user-invite",
        resourceId: expect.stringMatching(UUID),
        resourceName: "later@acme.example",
      });
    } finally {
      await strict.close();
    }
  });
});

describe("persistence", () => {
  it("records survive a restart with the state file, and ids continue", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "audit-"));
    try {
      const statePath = path.join(dir, "state.json");
      const first = await start({ statePath });
      const api = client(first, first.tokens.admin);
      expect((await api.post("/groups", { name: "Persisted", parentId: null })).status).toBe(201);
      const [record] = await newest(1, api);
      await first.close();
      const second = await start({ statePath });
      try {
        const again = client(second, second.tokens.admin);
        const [kept] = await newest(1, again);
        expect(kept).toEqual(record);
        expect((await again.post("/groups", { name: "Later", parentId: null })).status).toBe(201);
        const [later] = await newest(1, again);
        expect(later.id).toBe(record.id + 1);
      } finally {
        await second.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("a state file from before audit records: its Admin role gains AUDIT_LOG__VIEW and lists them", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "audit-"));
    try {
      const statePath = path.join(dir, "state.json");
      const first = await start({ statePath });
      await client(first, first.tokens.admin).post("/groups", { name: "Before", parentId: null });
      await first.close();
      // Make it look as an older emulator wrote it: no audit records, roles without AUDIT_LOG__VIEW.
      const state = JSON.parse(await readFile(statePath, "utf8"));
      for (const org of state.orgs) {
        delete org.auditLogs;
        for (const role of org.roles)
          role.permissions = role.permissions.filter((p: string) => p !== "AUDIT_LOG__VIEW");
      }
      await writeFile(statePath, JSON.stringify(state));
      const second = await start({ statePath });
      try {
        const api = client(second, second.tokens.admin);
        expect(await newest(5, api)).toEqual([]);
        expect((await api.post("/groups", { name: "After", parentId: null })).status).toBe(201);
        expect((await newest(5, api)).map((r) => r.resourceName)).toEqual(["After"]);
      } finally {
        await second.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
