/** Headers, authentication, token info, API info, error shapes and the caller's own records. */
import type { RunningEmulator } from "../../emulator";
import { call, client, ISO_MS, start, UUID, type Client } from "./helpers";

let emulator: RunningEmulator;
let admin: Client;

beforeAll(async () => {
  emulator = await start();
  admin = client(emulator, emulator.tokens.admin);
});
afterAll(() => emulator.close());

describe("Accept header", () => {
  it("is required: without it the answer is 400 Bad Request", async () => {
    const response = await admin.get("/current-user", { accept: null });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: "Bad Request" });
  });

  it("must name application/json", async () => {
    expect((await admin.get("/current-user", { accept: "text/html" })).status).toBe(400);
    expect((await admin.get("/current-user", { accept: "*/*" })).status).toBe(400);
    expect((await admin.get("/current-user", { accept: "text/html, application/json;q=0.9" })).status).toBe(
      200,
    );
  });

  it("is not enforced on GET / (no error declared) nor on token-info (only 401 declared)", async () => {
    for (const accept of [null, "text/html"]) {
      const info = await call("GET", `${emulator.baseUrl}/`, { accept });
      expect(info.status).toBe(200);
      expect(info.body.version).toBe("v3");
      const token = await call("GET", `${emulator.url}/api/token-info`, {
        accept,
        token: emulator.tokens.admin,
      });
      expect(token.status).toBe(200);
      expect(token.body.api_version).toBe("v3");
      expect((await call("GET", `${emulator.url}/api/token-info`, { accept })).status).toBe(401);
    }
  });
});

describe("authentication", () => {
  it("answers 401 without a token, with an unknown token and with a malformed header", async () => {
    for (const token of [null, "7|NoSuchToken00000000000000000000000000000"]) {
      const response = await call("GET", `${emulator.baseUrl}/current-user`, { token });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ message: "Unauthorized" });
    }
    const response = await call("GET", `${emulator.baseUrl}/groups`, { token: "" });
    expect(response.status).toBe(401);
  });

  it("refuses a v2 token on every v3 operation", async () => {
    const legacy = client(emulator, emulator.tokens.v2);
    for (const path of ["/current-user", "/current-organization", "/groups", "/users"]) {
      const response = await legacy.get(path);
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ message: "Unauthorized" });
    }
  });

  it("does not need a token for GET / (API info), which reports the rate limit", async () => {
    for (const url of [`${emulator.baseUrl}/`, emulator.baseUrl]) {
      const response = await call("GET", url, { token: null });
      expect(response.status).toBe(200);
      expect(Object.keys(response.body).sort()).toEqual(
        [
          "authentication",
          "contact",
          "description",
          "documentation",
          "name",
          "rateLimiting",
          "termsOfService",
          "version",
        ].sort(),
      );
      expect(response.body.version).toBe("v3");
      expect(response.body.rateLimiting).toBe("2000 requests per minute per organization.");
      for (const value of Object.values(response.body)) expect(typeof value).toBe("string");
    }
  });
});

describe("GET /api/token-info", () => {
  it("is served at /api, not /api/v3", async () => {
    const wrong = await call("GET", `${emulator.baseUrl}/token-info`, { token: emulator.tokens.admin });
    expect(wrong.status).toBe(404);
  });

  it("describes a v3 token without revealing it", async () => {
    const response = await call("GET", `${emulator.url}/api/token-info`, { token: emulator.tokens.admin });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      token_name: expect.any(String),
      display_token: expect.stringMatching(/\.\.\.$/),
      api_version: "v3",
      organization_id: emulator.orgs.primary.id,
      base_path: "/api/v3",
    });
    const secret = emulator.tokens.admin.split("|")[1];
    expect(response.body.display_token).toBe(`${secret.slice(0, 8)}...`);
    expect(JSON.stringify(response.body)).not.toContain(secret);
  });

  it("answers for a v2 token so clients can explain the refusal", async () => {
    const response = await call("GET", `${emulator.url}/api/token-info`, { token: emulator.tokens.v2 });
    expect(response.status).toBe(200);
    expect(response.body.api_version).toBe("v2");
    expect(response.body.base_path).toBe("/api/v2");
    expect(response.body.organization_id).toBe(emulator.orgs.primary.id);
  });

  it("needs a token", async () => {
    const response = await call("GET", `${emulator.url}/api/token-info`, { token: null });
    expect(response.status).toBe(401);
  });

  it("tells the secondary organization's token apart", async () => {
    const response = await call("GET", `${emulator.url}/api/token-info`, {
      token: emulator.tokens.multiOrgAdminSecondary,
    });
    expect(response.body.organization_id).toBe(emulator.orgs.secondary.id);
  });
});

describe("routes", () => {
  it("answers 404 Not Found for unknown paths", async () => {
    for (const path of ["/no-such-thing", "/groups/x/y/z"]) {
      const response = await admin.get(path);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: "Not Found" });
    }
    expect((await call("GET", `${emulator.url}/elsewhere`)).status).toBe(404);
  });

  it("answers 404 for a malformed uuid in the path, before authentication", async () => {
    expect((await admin.get("/groups/not-a-uuid")).status).toBe(404);
    expect((await admin.get("/users/1234")).status).toBe(404);
    expect((await call("GET", `${emulator.baseUrl}/devices/not-a-uuid`, { token: null })).status).toBe(404);
  });

  it("answers 404 for a well-formed id that names nothing", async () => {
    const response = await admin.get("/groups/00000000-0000-4000-8000-000000000000");
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: "Not Found" });
  });

  it("answers 400 for a malformed JSON body and for a body that is not an object", async () => {
    const broken = await admin.post("/groups", undefined, { rawBody: "{nope" });
    expect(broken.status).toBe(400);
    expect(broken.body).toEqual({ message: "Bad Request" });
    const list = await admin.post("/groups", undefined, { rawBody: "[1,2]" });
    expect(list.status).toBe(400);
  });
});

describe("the caller", () => {
  it("GET /current-organization returns the token's organization", async () => {
    const response = await admin.get("/current-organization");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: emulator.orgs.primary.id,
      name: "Acme Devices",
      slug: "acme",
      createdAt: expect.stringMatching(ISO_MS),
      updatedAt: expect.stringMatching(ISO_MS),
    });
    const secondary = await client(emulator, emulator.tokens.multiOrgAdminSecondary).get(
      "/current-organization",
    );
    expect(secondary.body).toMatchObject({
      id: emulator.orgs.secondary.id,
      name: "Acme Staging",
      slug: "acme-staging",
    });
  });

  it("GET /current-user returns the token's user with the default role on the organization", async () => {
    const response = await admin.get("/current-user");
    expect(response.status).toBe(200);
    const user = response.body;
    expect(user).toMatchObject({ firstName: "Ada", lastName: "Admin", email: "ada.admin@acme.example" });
    expect(user.id).toMatch(UUID);
    expect(user.createdAt).toMatch(ISO_MS);
    expect(user.accessControls).toHaveLength(1);
    const [control] = user.accessControls;
    expect(control).toMatchObject({
      userId: user.id,
      protectable: { type: "organization", id: emulator.orgs.primary.id },
      role: { name: "Admin", type: "organization", isOwnedBySystem: true },
    });
    expect(control.id).toMatch(UUID);
    expect(control.role.createdAt).toMatch(ISO_MS);
  });

  it("the same person is a separate user, with the same e-mail, in the other organization", async () => {
    const primary = await client(emulator, emulator.tokens.multiOrgAdmin).get("/current-user");
    const secondary = await client(emulator, emulator.tokens.multiOrgAdminSecondary).get("/current-user");
    expect(primary.body.email).toBe(secondary.body.email);
    expect(primary.body.id).not.toBe(secondary.body.id);
    expect(secondary.body.accessControls[0].protectable.id).toBe(emulator.orgs.secondary.id);
  });
});

describe("permissions", () => {
  it("lets the read-only user read and answers 403 Forbidden to its writes", async () => {
    const reader = client(emulator, emulator.tokens.readOnly);
    expect((await reader.get("/groups")).status).toBe(200);
    expect((await reader.get("/users")).status).toBe(200);
    const write = await reader.post("/groups", { name: "Nope", parentId: null });
    expect(write.status).toBe(403);
    expect(write.body).toEqual({ message: "Forbidden" });
    const invite = await reader.post("/user-invites", {
      email: "x@acme.example",
      defaultRoleId: "00000000-0000-4000-8000-000000000000",
    });
    expect(invite.status).toBe(403);
  });

  it("stores nothing for a refused write", async () => {
    const before = emulator.snapshot().groups.length;
    await client(emulator, emulator.tokens.readOnly).post("/groups", { name: "Nope", parentId: null });
    expect(emulator.snapshot().groups.length).toBe(before);
  });
});

describe("stats and snapshots", () => {
  it("counts requests by route and status", async () => {
    emulator.resetStats();
    await admin.get("/groups");
    await admin.get("/groups/00000000-0000-4000-8000-000000000000");
    await admin.post("/groups", { name: "" });
    await admin.get("/nowhere");
    const stats = emulator.stats();
    expect(stats.requests).toBe(4);
    expect(stats.writes).toBe(1);
    expect(stats.byRoute).toEqual({
      "GET /groups": 1,
      "GET /groups/{groupId}": 1,
      "POST /groups": 1,
      "GET (unmatched)": 1,
    });
    expect(stats.byStatus).toEqual({ "200": 1, "404": 2, "422": 1 });
    expect(stats.rateLimited).toBe(0);
  });

  it("snapshots an organization by id or slug and refuses an unknown one", () => {
    expect(emulator.snapshot("acme-staging").organization).toEqual(emulator.orgs.secondary);
    expect(emulator.snapshot(emulator.orgs.primary.id).organization).toEqual(emulator.orgs.primary);
    expect(() => emulator.snapshot("nope")).toThrow(/no organization/);
  });
});
