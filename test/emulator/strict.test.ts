/**
 * Strictness switches (`strict` option, `--strict*` flags): behaviour the documentation leaves open, read the
 * strict way. The lenient defaults are covered in users.test.ts and pagination.test.ts.
 */
import { optionsFromArgs } from "../../emulator/cli";
import type { RunningEmulator } from "../../emulator";
import {
  call,
  client,
  type Client,
  createConfiguredGroup,
  type Json,
  start,
  validationErrors,
} from "./helpers";

let emulator: RunningEmulator;
let admin: Client;
let roles: Record<string, string>;
let groupId: string;

const control = (method: string, path: string, body?: unknown, token = emulator.adminToken) =>
  call(method, `${emulator.url}/_emulator${path}`, { token, body });

beforeAll(async () => {
  emulator = await start({ strict: { pendingInvitations: true, rejectRepeatedRoleAttach: true } });
  admin = client(emulator, emulator.tokens.admin);
  const list = await admin.get("/roles", { query: { per_page: 100 } });
  roles = Object.fromEntries(list.body.data.map((r: Json) => [r.name, r.id]));
  groupId = await createConfiguredGroup(admin, "Strict Lab", null);
});
afterAll(() => emulator.close());

const usersByEmail = async (email: string) =>
  (await admin.get("/users", { query: { per_page: 100 } })).body.data.filter((u: Json) => u.email === email);

describe("strict.pendingInvitations", () => {
  const email = "pending.person@acme.example";

  it("an invitation creates no user until it is accepted through the control endpoint", async () => {
    const invite = await admin.post("/user-invites", {
      email,
      defaultRoleId: roles["Read Only"],
      groupRoles: [{ roleId: roles["Group Viewer"], groupId }],
    });
    expect(invite.status).toBe(204);
    expect(await usersByEmail(email)).toEqual([]);

    const pending = await control("GET", "/invitations");
    expect(pending.status).toBe(200);
    expect(pending.body.data.map((i: Json) => i.email)).toEqual([email]);
    // Inviting the same e-mail again while it is pending is refused, as a taken e-mail would be.
    expect(
      validationErrors(await admin.post("/user-invites", { email, defaultRoleId: roles["Read Only"] })),
    ).toEqual({ email: ["The email has already been invited."] });

    const accepted = await control("POST", "/invitations/accept", {
      email,
      firstName: "Pat",
      lastName: "Ending",
    });
    expect(accepted.status).toBe(201);
    expect(accepted.body).toMatchObject({ email, firstName: "Pat", lastName: "Ending" });
    const [user] = await usersByEmail(email);
    expect(user.accessControls.map((c: Json) => c.role.name)).toEqual(["Read Only", "Group Viewer"]);
    expect((await control("GET", "/invitations")).body.data).toEqual([]);
  });

  it("accepting needs the admin token and a pending invitation", async () => {
    expect((await control("POST", "/invitations/accept", { email }, "wrong")).status).toBe(401);
    expect((await control("POST", "/invitations/accept", { email: "nobody@acme.example" })).status).toBe(404);
    expect((await control("POST", "/invitations/accept", { mail: email })).status).toBe(422);
  });
});

describe("strict.rejectRepeatedRoleAttach", () => {
  it("attaching a group role the user already has is 422 and changes nothing", async () => {
    const created = await admin.post("/users", {
      firstName: "Re",
      lastName: "Attach",
      email: "re.attach@acme.example",
      defaultRoleId: roles["Member"],
      groupRoles: [{ roleId: roles["Group Viewer"], groupId }],
    });
    expect(created.status).toBe(201);
    const response = await admin.put(`/users/${created.body.id}`, {
      firstName: "Changed",
      groupRoles: [{ roleId: roles["Group Viewer"], groupId, action: "attach" }],
    });
    expect(response.status).toBe(422);
    expect(validationErrors(response)).toEqual({
      "groupRoles.0": ["The role is already assigned to the user on this group."],
    });
    const after = await admin.get(`/users/${created.body.id}`);
    expect(after.body.firstName).toBe("Re");
    expect(after.body.updatedAt).toBe(created.body.updatedAt);
  });
});

describe("CLI flags", () => {
  it("--strict turns on every switch and a maximum page size of 25; single flags turn on one", () => {
    expect(optionsFromArgs(["--strict"])).toMatchObject({
      maxPerPage: 25,
      strict: { pendingInvitations: true, rejectRepeatedRoleAttach: true },
    });
    expect(optionsFromArgs(["--strict", "--max-per-page", "50"])).toMatchObject({ maxPerPage: 50 });
    expect(optionsFromArgs(["--strict-invitations"])).toMatchObject({
      maxPerPage: undefined,
      strict: { pendingInvitations: true, rejectRepeatedRoleAttach: false },
    });
    expect(optionsFromArgs([])).toMatchObject({
      strict: { pendingInvitations: false, rejectRepeatedRoleAttach: false },
    });
  });

  it("a page size above the maximum is a 422 naming the maximum", async () => {
    const small = await start({ maxPerPage: 25 });
    try {
      const response = await client(small, small.tokens.admin).get("/devices", { query: { per_page: 26 } });
      expect(response.status).toBe(422);
      expect(validationErrors(response)).toEqual({
        per_page: ["The per page field must not be greater than 25."],
      });
    } finally {
      await small.close();
    }
  });
});
