/** Audit records with strict pending invitations, and across a restart with a state file. */
import { mkdtemp, rm } from "node:fs/promises";
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
});
