/** Users, invites and roles: validation, access controls as defaultRoleId + groupRoles, attach/detach. */
import type { RunningEmulator } from "../../emulator";
import {
  client,
  createConfiguredGroup,
  createGroup,
  ISO_MS,
  start,
  UUID,
  validationErrors,
  type Client,
  type Json,
} from "./helpers";

let emulator: RunningEmulator;
let admin: Client;
let roles: Record<string, string>;
let folderId: string;
let leafId: string;

const MISSING_ID = "00000000-0000-4000-8000-000000000000";

beforeAll(async () => {
  emulator = await start();
  admin = client(emulator, emulator.tokens.admin);
  const list = await admin.get("/roles", { query: { per_page: 100 } });
  roles = Object.fromEntries(list.body.data.map((r: Json) => [r.name, r.id]));
  folderId = await createGroup(admin, "Europe", null);
  leafId = await createConfiguredGroup(admin, "Berlin", folderId);
});
afterAll(() => emulator.close());

const userBody = (overrides: Json = {}) => ({
  firstName: "Grace",
  lastName: "Hopper",
  email: `grace.${Math.random().toString(36).slice(2)}@acme.example`,
  defaultRoleId: roles["Read Only"],
  ...overrides,
});

describe("roles", () => {
  it("lists the system roles of the organization, organization and group ones", async () => {
    const response = await admin.get("/roles");
    expect(response.status).toBe(200);
    const byName = Object.fromEntries(response.body.data.map((r: Json) => [r.name, r]));
    expect(Object.keys(byName).sort()).toEqual([
      "Admin",
      "Device Enroller",
      "Device Manager",
      "Group Admin",
      "Group Viewer",
      "Member",
      "Read Only",
    ]);
    expect(byName["Admin"]).toMatchObject({
      type: "organization",
      isOwnedBySystem: true,
      description: expect.any(String),
    });
    expect(byName["Group Viewer"].type).toBe("group");
    for (const role of response.body.data) {
      expect(role.id).toMatch(UUID);
      expect(role.createdAt).toMatch(ISO_MS);
    }
  });

  it("reads one role, and 404s for a role of another organization", async () => {
    const response = await admin.get(`/roles/${roles["Admin"]}`);
    expect(response.body).toMatchObject({ id: roles["Admin"], name: "Admin" });
    const staging = client(emulator, emulator.tokens.multiOrgAdminSecondary);
    const stagingRoles = (await staging.get("/roles")).body.data;
    // The staging organization mirrors the role names, with its own ids.
    expect(stagingRoles.map((r: Json) => r.name).sort()).toEqual(Object.keys(roles).sort());
    expect(stagingRoles.map((r: Json) => r.id)).not.toContain(roles["Admin"]);
    expect((await staging.get(`/roles/${roles["Admin"]}`)).status).toBe(404);
  });
});

describe("POST /users", () => {
  it("creates a user whose access controls are the default role on the organization plus the group roles", async () => {
    const body = userBody({
      defaultRoleId: roles["Read Only"],
      groupRoles: [
        { roleId: roles["Group Admin"], groupId: leafId },
        { roleId: roles["Group Viewer"], groupId: folderId },
      ],
    });
    const response = await admin.post("/users", body);
    expect(response.status).toBe(201);
    const user = response.body;
    expect(user).toMatchObject({ firstName: "Grace", lastName: "Hopper", email: body.email });
    expect(user.id).toMatch(UUID);
    expect(user.createdAt).toMatch(ISO_MS);
    expect(user.updatedAt).toBe(user.createdAt);
    const controls = user.accessControls.map((c: Json) => ({
      role: c.role.name,
      protectable: c.protectable,
      userId: c.userId,
    }));
    expect(controls).toEqual([
      {
        role: "Read Only",
        protectable: { type: "organization", id: emulator.orgs.primary.id },
        userId: user.id,
      },
      { role: "Group Admin", protectable: { type: "group", id: leafId }, userId: user.id },
      { role: "Group Viewer", protectable: { type: "group", id: folderId }, userId: user.id },
    ]);
    // Round trip: the same user reads back identically, by id and in the list.
    expect((await admin.get(`/users/${user.id}`)).body).toEqual(user);
    const snapshot = emulator.snapshot().users.find((u) => u.id === user.id);
    expect(snapshot).toMatchObject({
      defaultRoleId: roles["Read Only"],
      groupRoles: [
        { roleId: roles["Group Admin"], groupId: leafId },
        { roleId: roles["Group Viewer"], groupId: folderId },
      ],
    });
  });

  it("accepts a group role as the default role, on the organization protectable", async () => {
    const response = await admin.post("/users", userBody({ defaultRoleId: roles["Group Viewer"] }));
    expect(response.status).toBe(201);
    expect(response.body.accessControls).toHaveLength(1);
    expect(response.body.accessControls[0]).toMatchObject({
      role: { name: "Group Viewer", type: "group" },
      protectable: { type: "organization", id: emulator.orgs.primary.id },
    });
  });

  it("requires the names, the e-mail and defaultRoleId", async () => {
    const errors = validationErrors(await admin.post("/users", {}));
    expect(errors).toEqual({
      firstName: ["The first name field is required."],
      lastName: ["The last name field is required."],
      email: ["The email field is required."],
      defaultRoleId: ["The default role id field is required."],
    });
  });

  it("validates e-mail, uuid and lengths", async () => {
    const errors = validationErrors(
      await admin.post(
        "/users",
        userBody({ email: "not-an-email", defaultRoleId: "nope", firstName: "x".repeat(256) }),
      ),
    );
    expect(errors.email).toEqual(["The email field must be a valid email address."]);
    expect(errors.defaultRoleId).toEqual(["The default role id field must be a valid UUID."]);
    expect(errors.firstName).toEqual(["The first name field must not be greater than 255 characters."]);
  });

  it("refuses an e-mail already used in the organization, whatever its case", async () => {
    const body = userBody();
    expect((await admin.post("/users", body)).status).toBe(201);
    const errors = validationErrors(await admin.post("/users", { ...body, email: body.email.toUpperCase() }));
    expect(errors).toEqual({ email: ["The email has already been taken."] });
    expect(
      validationErrors(await admin.post("/users", userBody({ email: "Ada.Admin@acme.example" }))),
    ).toHaveProperty("email");
  });

  it("allows the same e-mail in another organization", async () => {
    const staging = client(emulator, emulator.tokens.multiOrgAdminSecondary);
    const stagingRoles = (await staging.get("/roles")).body.data;
    const readOnly = stagingRoles.find((r: Json) => r.name === "Read Only").id;
    const response = await staging.post(
      "/users",
      userBody({ email: "ada.admin@acme.example", defaultRoleId: readOnly }),
    );
    expect(response.status).toBe(201);
  });

  it("refuses unknown roles and groups, organization roles as group roles, and more than 100 group roles", async () => {
    const errors = validationErrors(
      await admin.post(
        "/users",
        userBody({
          defaultRoleId: MISSING_ID,
          groupRoles: [
            { roleId: roles["Admin"], groupId: leafId },
            { roleId: MISSING_ID, groupId: MISSING_ID },
          ],
        }),
      ),
    );
    expect(errors).toEqual({
      defaultRoleId: ["The selected default role id is invalid."],
      "groupRoles.0.roleId": ["The role must be a group role."],
      "groupRoles.1.roleId": ["The selected groupRoles.1.roleId is invalid."],
      "groupRoles.1.groupId": ["The selected groupRoles.1.groupId is invalid."],
    });
    const tooMany = Array.from({ length: 101 }, () => ({ roleId: roles["Group Viewer"], groupId: leafId }));
    expect(validationErrors(await admin.post("/users", userBody({ groupRoles: tooMany })))).toEqual({
      groupRoles: ["The group roles field must not have more than 100 items."],
    });
    const missingFields = validationErrors(await admin.post("/users", userBody({ groupRoles: [{}] })));
    expect(missingFields).toEqual({
      "groupRoles.0.roleId": ["The groupRoles.0.roleId field is required."],
      "groupRoles.0.groupId": ["The groupRoles.0.groupId field is required."],
    });
  });

  it("needs USER__MANAGE", async () => {
    expect((await client(emulator, emulator.tokens.readOnly).post("/users", userBody())).status).toBe(403);
  });
});

describe("POST /user-invites", () => {
  it("answers 204 and creates the user, who is then found by e-mail", async () => {
    const email = "invited.person@acme.example";
    const response = await admin.post("/user-invites", {
      email,
      isSsoEnforced: false,
      defaultRoleId: roles["Device Manager"],
      groupRoles: [{ roleId: roles["Group Viewer"], groupId: folderId }],
    });
    expect(response.status).toBe(204);
    expect(response.body).toBeUndefined();
    const users = (await admin.get("/users", { query: { per_page: 100 } })).body.data;
    const invited = users.find((u: Json) => u.email === email);
    expect(invited.accessControls.map((c: Json) => c.role.name)).toEqual(["Device Manager", "Group Viewer"]);
    expect(
      validationErrors(await admin.post("/user-invites", { email, defaultRoleId: roles["Admin"] })),
    ).toEqual({
      email: ["The email has already been taken."],
    });
  });

  it("validates like POST /users", async () => {
    const errors = validationErrors(
      await admin.post("/user-invites", { email: "nope", isSsoEnforced: "yes" }),
    );
    expect(errors).toEqual({
      email: ["The email field must be a valid email address."],
      isSsoEnforced: ["The is sso enforced field must be true or false."],
      defaultRoleId: ["The default role id field is required."],
    });
  });
});

describe("PUT /users/{id}", () => {
  let userId: string;
  beforeEach(async () => {
    userId = (
      await admin.post(
        "/users",
        userBody({ groupRoles: [{ roleId: roles["Group Viewer"], groupId: folderId }] }),
      )
    ).body.id;
  });

  it("changes names and the default role, and moves updatedAt only on a real change", async () => {
    const before = (await admin.get(`/users/${userId}`)).body;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const same = await admin.put(`/users/${userId}`, {
      firstName: before.firstName,
      defaultRoleId: roles["Read Only"],
    });
    expect(same.status).toBe(200);
    expect(same.body.updatedAt).toBe(before.updatedAt);

    const changed = await admin.put(`/users/${userId}`, {
      lastName: "Murray Hopper",
      defaultRoleId: roles["Admin"],
    });
    expect(changed.status).toBe(200);
    expect(changed.body.lastName).toBe("Murray Hopper");
    expect(changed.body.updatedAt > before.updatedAt).toBe(true);
    expect(changed.body.createdAt).toBe(before.createdAt);
    const orgControls = changed.body.accessControls.filter(
      (c: Json) => c.protectable.type === "organization",
    );
    expect(orgControls).toHaveLength(1);
    expect(orgControls[0].role.name).toBe("Admin");
    // The e-mail is not part of the update body.
    expect(changed.body.email).toBe(before.email);
  });

  it("attaches and detaches group roles in order; attaching an assigned pair is a no-op", async () => {
    const response = await admin.put(`/users/${userId}`, {
      groupRoles: [
        { roleId: roles["Group Admin"], groupId: leafId, action: "attach" },
        { roleId: roles["Group Viewer"], groupId: folderId, action: "attach" },
        { roleId: roles["Group Viewer"], groupId: folderId, action: "detach" },
      ],
    });
    expect(response.status).toBe(200);
    expect(emulator.snapshot().users.find((u) => u.id === userId)?.groupRoles).toEqual([
      { roleId: roles["Group Admin"], groupId: leafId },
    ]);
  });

  it("refuses to detach a pair that is not assigned, and then changes nothing", async () => {
    const before = emulator.snapshot().users.find((u) => u.id === userId);
    const response = await admin.put(`/users/${userId}`, {
      firstName: "Changed",
      groupRoles: [
        { roleId: roles["Group Admin"], groupId: leafId, action: "attach" },
        { roleId: roles["Group Admin"], groupId: folderId, action: "detach" },
      ],
    });
    expect(validationErrors(response)).toEqual({
      "groupRoles.1": ["The role is not assigned to the user on this group."],
    });
    expect(emulator.snapshot().users.find((u) => u.id === userId)).toEqual(before);
  });

  it("requires an action on each group role and validates references", async () => {
    const errors = validationErrors(
      await admin.put(`/users/${userId}`, {
        defaultRoleId: MISSING_ID,
        groupRoles: [
          { roleId: roles["Group Admin"], groupId: leafId },
          { roleId: roles["Group Admin"], groupId: leafId, action: "toggle" },
        ],
      }),
    );
    expect(errors).toEqual({
      "groupRoles.0.action": ["The groupRoles.0.action field is required."],
      "groupRoles.1.action": ["The selected groupRoles.1.action is invalid."],
    });
    expect(validationErrors(await admin.put(`/users/${userId}`, { defaultRoleId: MISSING_ID }))).toEqual({
      defaultRoleId: ["The selected default role id is invalid."],
    });
  });

  it("404s for an unknown user and 403s without USER__MANAGE", async () => {
    expect((await admin.put(`/users/${MISSING_ID}`, { firstName: "X" })).status).toBe(404);
    expect(
      (await client(emulator, emulator.tokens.readOnly).put(`/users/${userId}`, { firstName: "X" })).status,
    ).toBe(403);
  });
});

describe("DELETE /users/{id}", () => {
  it("deletes a user (204), after which it is 404", async () => {
    const id = (await admin.post("/users", userBody())).body.id;
    const response = await admin.delete(`/users/${id}`);
    expect(response.status).toBe(204);
    expect((await admin.get(`/users/${id}`)).status).toBe(404);
    expect((await admin.delete(`/users/${id}`)).status).toBe(404);
  });

  it("refuses to delete the caller's own user", async () => {
    const me = (await admin.get("/current-user")).body;
    expect(validationErrors(await admin.delete(`/users/${me.id}`))).toEqual({
      userId: ["You cannot delete your own user."],
    });
  });

  it("a deleted token owner's token stops working", async () => {
    const noMigrate = client(emulator, emulator.tokens.noMigrate);
    const me = (await noMigrate.get("/current-user")).body;
    expect((await admin.delete(`/users/${me.id}`)).status).toBe(204);
    expect((await noMigrate.get("/current-user")).status).toBe(401);
  });
});

describe("group roles grant on the group and its descendants", () => {
  it("Group Admin on a folder lets a read-only user manage inside that folder and nowhere else", async () => {
    // The seeded read-only user gets Group Admin on the Europe folder.
    const reader = client(emulator, emulator.tokens.readOnly);
    const me = (await reader.get("/current-user")).body;
    const granted = await admin.put(`/users/${me.id}`, {
      groupRoles: [{ roleId: roles["Group Admin"], groupId: folderId, action: "attach" }],
    });
    expect(granted.status).toBe(200);
    const child = await reader.post("/groups", { name: "Munich", parentId: folderId });
    expect(child.status).toBe(201);
    expect((await reader.put(`/groups/${leafId}`, { name: "Berlin Mitte", parentId: folderId })).status).toBe(
      200,
    );
    expect((await reader.post("/groups", { name: "Elsewhere", parentId: null })).status).toBe(403);
    const other = await createGroup(admin, "Asia", null);
    expect((await reader.post("/groups", { name: "Tokyo", parentId: other })).status).toBe(403);
  });
});
