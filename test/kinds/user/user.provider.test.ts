// User through the real dynamic-provider plugin against the emulator.
import { UNKNOWN, type PropertyMap } from "../../harness/providerPlugin";
import { failure, Managed, sortedRoles, startStack, type Stack } from "../../harness/providerStack";

let stack: Stack;
let roleIds: Record<string, string>;
/** Groups to hang group roles on (unconfigured is enough for a role). */
let groups: string[];

beforeAll(async () => {
  stack = await startStack();
  roleIds = Object.fromEntries((await stack.admin.roles.all()).map((r) => [r.name, r.id]));
  groups = [];
  for (const name of ["North", "South", "East"]) {
    groups.push((await stack.admin.groups.create({ name, parentId: null })).id);
  }
});
afterAll(() => stack.close());

const role = (name: string) => {
  const id = roleIds[name];
  if (!id) throw new Error(`no seeded role ${name}`);
  return id;
};
const live = (id: string) => stack.emulator.snapshot().users.find((u) => u.id === id);
const usersWithEmail = (email: string) =>
  stack.emulator.snapshot().users.filter((u) => u.email.toLowerCase() === email.toLowerCase());
const routeCount = (route: string) => stack.emulator.stats().byRoute[route] ?? 0;
function declared(email: string, extra: PropertyMap = {}): PropertyMap {
  return {
    firstName: "Lee",
    lastName: "Lane",
    email,
    defaultRoleId: role("Member"),
    groupRoles: [
      { roleId: role("Group Admin"), groupId: groups[0] },
      { roleId: role("Group Viewer"), groupId: groups[1] },
    ],
    ...extra,
  };
}

describe("User", () => {
  it("creates with POST /users, reads back, and shows no diff after either (group roles order-insensitive)", async () => {
    const user = await Managed.of(stack.plugin, "user", "lee");
    stack.emulator.resetStats();
    const outs = await user.create(declared("lee@acme.example"));
    expect(routeCount("POST /users")).toBe(1);
    expect(routeCount("POST /user-invites")).toBe(0);
    expect(outs).toMatchObject({
      firstName: "Lee",
      lastName: "Lane",
      email: "lee@acme.example",
      defaultRoleId: role("Member"),
      invite: false,
    });
    expect(outs.groupRoles).toEqual(
      sortedRoles([
        { roleId: role("Group Admin"), groupId: groups[0] },
        { roleId: role("Group Viewer"), groupId: groups[1] },
      ]),
    );
    expect(live(user.id)).toMatchObject({ firstName: "Lee", defaultRoleId: role("Member") });
    expect(sortedRoles(live(user.id)!.groupRoles)).toEqual(outs.groupRoles);

    const reordered = declared("lee@acme.example", {
      groupRoles: [
        { roleId: role("Group Viewer"), groupId: groups[1] },
        { roleId: role("Group Admin"), groupId: groups[0] },
      ],
    });
    expect(await user.diff(declared("lee@acme.example"))).toMatchObject({ changes: "none" });
    expect(await user.diff(reordered)).toMatchObject({ changes: "none" });
    expect(await user.diff(declared("LEE@Acme.Example"))).toMatchObject({ changes: "none" });

    const read = await user.read();
    expect(read.id).toBe(user.id);
    // Nothing changed outside: no inputs come back, so the engine keeps the recorded ones (step.go, RefreshStep).
    expect(read.inputs).toBeUndefined();
    const byId = await user.readById(user.id);
    expect(byId.inputs).toMatchObject({
      firstName: "Lee",
      email: "lee@acme.example",
      defaultRoleId: role("Member"),
      invite: false,
    });
    expect(byId.inputs).not.toHaveProperty("createdAt");
    expect(await user.diff(reordered)).toMatchObject({ changes: "none" });
    await user.delete();
  });

  it("updates names and the default role in place, with one PUT each", async () => {
    const user = await Managed.of(stack.plugin, "user", "renamed");
    await user.create(declared("renamed@acme.example"));
    const before = live(user.id)!;

    const renamed = declared("renamed@acme.example", { firstName: "Leigh", lastName: "Lang" });
    expect(await user.diff(renamed)).toMatchObject({ changes: "some", replaces: [] });
    stack.emulator.resetStats();
    await user.update(renamed);
    expect(routeCount("PUT /users/{userId}")).toBe(1);
    expect(live(user.id)).toMatchObject({ firstName: "Leigh", lastName: "Lang" });

    const promoted = { ...renamed, defaultRoleId: role("Device Manager") };
    expect(await user.diff(promoted)).toMatchObject({ changes: "some", replaces: [] });
    stack.emulator.resetStats();
    const outs = await user.update(promoted);
    expect(routeCount("PUT /users/{userId}")).toBe(1);
    expect(outs.defaultRoleId).toBe(role("Device Manager"));
    const after = live(user.id)!;
    expect(after.defaultRoleId).toBe(role("Device Manager"));
    // Group roles were not part of the change: their access controls are the very same.
    expect(after.accessControls.filter((ac) => ac.protectable.type === "group")).toEqual(
      before.accessControls.filter((ac) => ac.protectable.type === "group"),
    );
    expect(await user.diff(promoted)).toMatchObject({ changes: "none" });
    await user.delete();
  });

  it("changes group roles by attaching and detaching only the difference", async () => {
    const user = await Managed.of(stack.plugin, "user", "roles");
    await user.create(declared("roles@acme.example"));
    const kept = { roleId: role("Group Admin"), groupId: groups[0] };
    const dropped = { roleId: role("Group Viewer"), groupId: groups[1] };
    const added = { roleId: role("Group Viewer"), groupId: groups[2] };
    const controlOf = (r: typeof kept) =>
      live(user.id)!.accessControls.find(
        (ac) => ac.roleId === r.roleId && ac.protectable.type === "group" && ac.protectable.id === r.groupId,
      );
    const keptControl = controlOf(kept);
    const orgControl = live(user.id)!.accessControls.find((ac) => ac.protectable.type === "organization");
    expect(keptControl).toBeDefined();

    const want = declared("roles@acme.example", { groupRoles: [added, kept] });
    expect(await user.diff(want)).toMatchObject({ changes: "some", replaces: [] });
    stack.emulator.resetStats();
    const outs = await user.update(want);
    expect(routeCount("PUT /users/{userId}")).toBe(1);
    expect(stack.emulator.stats().writes).toBe(1);
    expect(outs.groupRoles).toEqual(sortedRoles([kept, added]));
    expect(sortedRoles(live(user.id)!.groupRoles)).toEqual(sortedRoles([kept, added]));
    expect(controlOf(dropped)).toBeUndefined();
    // Never detach-all-then-reattach: the untouched roles keep their access controls.
    expect(controlOf(kept)).toEqual(keptControl);
    expect(live(user.id)!.accessControls.find((ac) => ac.protectable.type === "organization")).toEqual(
      orgControl,
    );

    // Down to no group roles at all, then an absent list means the same as an empty one.
    await user.update(declared("roles@acme.example", { groupRoles: [] }));
    expect(live(user.id)!.groupRoles).toEqual([]);
    const { groupRoles: _none, ...withoutList } = declared("roles@acme.example");
    expect(await user.diff(withoutList)).toMatchObject({ changes: "none" });
    await user.delete();
  });

  it("replaces the user when the e-mail changes (create first, then delete the old one)", async () => {
    const user = await Managed.of(stack.plugin, "user", "moving");
    await user.create(declared("old.address@acme.example"));
    const diff = await user.diff(declared("new.address@acme.example"));
    expect(diff).toMatchObject({ changes: "some", replaces: ["email"] });
    const { oldId } = await user.replace(declared("new.address@acme.example"));
    expect(user.id).not.toBe(oldId);
    expect(live(oldId)).toBeUndefined();
    expect(live(user.id)).toMatchObject({ email: "new.address@acme.example", firstName: "Lee" });
    await user.delete();
  });

  it("invites with POST /user-invites, finds the user by e-mail, and sets the names the invite cannot carry", async () => {
    const user = await Managed.of(stack.plugin, "user", "invited");
    stack.emulator.resetStats();
    const outs = await user.create(declared("invitee@acme.example", { invite: true }));
    expect(routeCount("POST /user-invites")).toBe(1);
    expect(routeCount("POST /users")).toBe(0);
    expect(outs).toMatchObject({ invite: true, firstName: "Lee", lastName: "Lane" });
    expect(usersWithEmail("invitee@acme.example")).toHaveLength(1);
    expect(live(user.id)).toMatchObject({
      firstName: "Lee",
      lastName: "Lane",
      defaultRoleId: role("Member"),
    });
    expect(live(user.id)!.groupRoles).toHaveLength(2);
    expect(await user.diff(declared("invitee@acme.example", { invite: true }))).toMatchObject({
      changes: "none",
    });
    expect((await user.read()).inputs).toBeUndefined(); // unchanged: the recorded inputs stay
    expect(user.inputs).toMatchObject({ invite: true });
    expect(await user.diff(declared("invitee@acme.example", { invite: true }))).toMatchObject({
      changes: "none",
    });
    await user.delete();
  });

  it("shows changes made outside Pulumi on refresh and puts them back on the next update", async () => {
    const user = await Managed.of(stack.plugin, "user", "drifting");
    const want = declared("drift@acme.example");
    await user.create(want);
    await stack.admin.users.update(user.id, {
      firstName: "Changed",
      defaultRoleId: role("Read Only"),
      groupRoles: [
        { roleId: role("Group Viewer"), groupId: groups[1], action: "detach" },
        { roleId: role("Group Viewer"), groupId: groups[2], action: "attach" },
      ],
    });

    const read = await user.read();
    expect(read.properties).toMatchObject({ firstName: "Changed", defaultRoleId: role("Read Only") });
    expect(read.properties.groupRoles).toEqual(
      sortedRoles([
        { roleId: role("Group Admin"), groupId: groups[0] },
        { roleId: role("Group Viewer"), groupId: groups[2] },
      ]),
    );
    expect(await user.diff(want)).toMatchObject({ changes: "some", replaces: [] });
    await user.update(want);
    expect(live(user.id)).toMatchObject({ firstName: "Lee", defaultRoleId: role("Member") });
    expect(sortedRoles(live(user.id)!.groupRoles)).toEqual(sortedRoles(want.groupRoles as never));
    expect(await user.diff(want)).toMatchObject({ changes: "none" });
    await user.delete();
  });

  it("updates from stale state without a refresh: a role detached outside is not detached twice", async () => {
    const user = await Managed.of(stack.plugin, "user", "stale");
    await user.create(declared("stale@acme.example"));
    const viewer = { roleId: role("Group Viewer"), groupId: groups[1] };
    await stack.admin.users.update(user.id, { groupRoles: [{ ...viewer, action: "detach" }] });

    const want = declared("stale@acme.example", {
      firstName: "Fresh",
      groupRoles: [{ roleId: role("Group Admin"), groupId: groups[0] }],
    });
    const outs = await user.update(want);
    expect(outs.groupRoles).toEqual([{ roleId: role("Group Admin"), groupId: groups[0] }]);
    expect(live(user.id)).toMatchObject({
      firstName: "Fresh",
      groupRoles: [{ roleId: role("Group Admin"), groupId: groups[0] }],
    });
    await user.delete();
  });

  it("reports a user deleted outside Pulumi as gone on refresh; deleting it again succeeds", async () => {
    const user = await Managed.of(stack.plugin, "user", "vanishing");
    await user.create(declared("vanishing@acme.example"));
    await stack.admin.users.delete(user.id);
    const error = await failure(user.update(declared("vanishing@acme.example", { firstName: "Again" })));
    expect(error.message).toMatch(/no longer exists/);
    expect(error.message).toMatch(/refresh/);
    expect((await user.read()).id).toBe("");
    await user.delete();
  });

  it("adopts an existing user by adoptId, updating it to the declared inputs; adoptId alone changes nothing", async () => {
    const existing = await stack.admin.users.create({
      firstName: "Hand",
      lastName: "Made",
      email: "hand.made@acme.example",
      defaultRoleId: role("Read Only"),
      groupRoles: [{ roleId: role("Group Viewer"), groupId: groups[2] }],
    });
    const count = stack.emulator.snapshot().users.length;
    const user = await Managed.of(stack.plugin, "user", "adopted");
    const want = declared("Hand.Made@acme.example");
    await user.create({ ...want, adoptId: existing.id });
    expect(user.id).toBe(existing.id);
    expect(stack.emulator.snapshot().users.length).toBe(count);
    expect(live(existing.id)).toMatchObject({
      firstName: "Lee",
      lastName: "Lane",
      defaultRoleId: role("Member"),
    });
    expect(sortedRoles(live(existing.id)!.groupRoles)).toEqual(sortedRoles(want.groupRoles as never));
    expect(await user.diff(want)).toMatchObject({ changes: "none" });
    expect(await user.diff({ ...want, adoptId: existing.id })).toMatchObject({ changes: "none" });
    await user.delete();
  });

  it("refuses to adopt a user whose e-mail differs from the declared one, or an id that does not exist", async () => {
    const existing = await stack.admin.users.create({
      firstName: "Other",
      lastName: "Person",
      email: "other.person@acme.example",
      defaultRoleId: role("Member"),
    });
    const user = await Managed.of(stack.plugin, "user", "mismatch");
    const mismatch = await failure(
      user.create({ ...declared("someone@acme.example"), adoptId: existing.id }),
    );
    expect(mismatch.message).toMatch(/other\.person@acme\.example/);
    expect(mismatch.message).toMatch(/someone@acme\.example/);
    expect(live(existing.id)).toMatchObject({ firstName: "Other" });

    const count = stack.emulator.snapshot().users.length;
    const ghost = await failure(
      user.create({ ...declared("ghost@acme.example"), adoptId: "77777777-7777-4777-8777-777777777777" }),
    );
    expect(ghost.message).toMatch(/no user with id 77777777-7777-4777-8777-777777777777/);
    expect(stack.emulator.snapshot().users.length).toBe(count);
  });

  it("names the existing user's id for adoptId when the e-mail is already taken (any case)", async () => {
    const existing = await stack.admin.users.create({
      firstName: "Taken",
      lastName: "Address",
      email: "taken@acme.example",
      defaultRoleId: role("Member"),
    });
    for (const invite of [false, true]) {
      const user = await Managed.of(stack.plugin, "user", `taken-${invite}`);
      const error = await failure(user.create(declared("TAKEN@acme.example", { invite })));
      expect(error.message).toContain(existing.id);
      expect(error.message).toMatch(/adoptId/);
    }
    expect(usersWithEmail("taken@acme.example")).toHaveLength(1);
  });

  it("after a create whose answer was lost, finds the user by e-mail instead of creating a second one", async () => {
    const user = await Managed.of(stack.plugin, "user", "lost-answer");
    stack.emulator.setFaults({ dropAfterWriteRate: 1 });
    try {
      await user.create(declared("lost.answer@acme.example"));
    } finally {
      stack.emulator.setFaults({ dropAfterWriteRate: 0 });
    }
    expect(stack.emulator.stats().faults.droppedAfterWrite).toBeGreaterThan(0);
    const found = usersWithEmail("lost.answer@acme.example");
    expect(found).toHaveLength(1);
    expect(user.id).toBe(found[0].id);
    expect(user.outputs).toMatchObject({ firstName: "Lee", email: "lost.answer@acme.example" });
    await user.delete();
  });

  it("after a lost answer, does not take over a user that existed before the request (it was refused as taken)", async () => {
    const rory = stack.emulator.snapshot().users.find((u) => u.email === "rory.reader@acme.example");
    expect(rory).toBeDefined();
    const user = await Managed.of(stack.plugin, "user", "not-rory");
    stack.emulator.setFaults({ dropBeforeWriteRate: 1 });
    let error: Error;
    try {
      error = await failure(user.create(declared("Rory.Reader@acme.example")));
    } finally {
      stack.emulator.setFaults({ dropBeforeWriteRate: 0 });
    }
    expect(error.message).toContain(rory!.id);
    expect(error.message).toMatch(/adoptId/);
    expect(usersWithEmail("rory.reader@acme.example")).toEqual([rory]);
  });

  it("takes ids in capitals but records them as the API returns them, so nothing shows as changed", async () => {
    const user = await Managed.of(stack.plugin, "user", "capitals");
    const shouting = declared("capitals@acme.example", {
      defaultRoleId: role("Member").toUpperCase(),
      groupRoles: [{ roleId: role("Group Admin").toUpperCase(), groupId: groups[0].toUpperCase() }],
    });
    await user.create(shouting);
    expect(await user.diff(shouting)).toMatchObject({ changes: "none" });
    await user.read();
    expect(await user.diff(shouting)).toMatchObject({ changes: "none" });
    await user.delete();
  });

  it("reports every bad input in check, one failure per property, before any API call", async () => {
    const user = await Managed.of(stack.plugin, "user", "bad");
    stack.emulator.resetStats();
    const { failures } = await user.check({
      firstName: "  ",
      lastName: 7,
      email: "not-an-address",
      defaultRoleId: "admin",
      groupRoles: [
        { roleId: role("Group Admin"), groupId: groups[0] },
        { roleId: role("Group Admin"), groupId: groups[0] },
      ],
      invite: "yes",
      adoptId: "someone",
      connection: { baseUrl: "not a url", apiToken: "" },
      colour: "red",
    });
    expect(failures.map((f) => f.property).sort()).toEqual([
      "adoptId",
      "colour",
      "connection",
      "defaultRoleId",
      "email",
      "firstName",
      "groupRoles",
      "invite",
      "lastName",
    ]);
    expect(failures.find((f) => f.property === "groupRoles")?.reason).toMatch(/duplicate/);

    const tooMany = Array.from({ length: 101 }, (_, i) => ({
      roleId: role("Group Viewer"),
      groupId: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
    }));
    const more = await user.check({
      ...declared("x@acme.example"),
      groupRoles: [...tooMany, { roleId: "r", groupId: groups[0] }, { groupId: groups[0] }],
    });
    expect(more.failures).toHaveLength(1);
    expect(more.failures[0].property).toBe("groupRoles");
    expect(more.failures[0].reason).toMatch(/at most 100/);
    const missing = await user.check({ email: "x@acme.example" });
    expect(missing.failures.map((f) => f.property).sort()).toEqual([
      "defaultRoleId",
      "firstName",
      "lastName",
    ]);
    expect(stack.emulator.stats().requests).toBe(0);
  });

  it("in a preview, lets values not known yet through check, and diff counts them as changes", async () => {
    const user = await Managed.of(stack.plugin, "user", "previewed");
    await user.create(declared("preview@acme.example"));
    const pending = declared("preview@acme.example", {
      groupRoles: [{ roleId: role("Group Admin"), groupId: UNKNOWN }],
    });
    const checked = await user.check(pending);
    expect(checked.failures).toEqual([]);
    expect(checked.inputs.groupRoles).toEqual([{ roleId: role("Group Admin"), groupId: UNKNOWN }]);
    expect(await user.diff(pending)).toMatchObject({ changes: "some", replaces: [] });
    expect(await user.diff(declared(UNKNOWN))).toMatchObject({ changes: "some", replaces: ["email"] });
    await user.delete();
  });

  it("passes the server's 422 through with its field errors", async () => {
    const user = await Managed.of(stack.plugin, "user", "refused");
    const unknownRole = await failure(
      user.create(
        declared("refused@acme.example", { defaultRoleId: "88888888-8888-4888-8888-888888888888" }),
      ),
    );
    expect(unknownRole.message).toMatch(/422/);
    expect(unknownRole.message).toMatch(/defaultRoleId/);
    const orgRoleOnGroup = await failure(
      user.create(
        declared("refused@acme.example", { groupRoles: [{ roleId: role("Admin"), groupId: groups[0] }] }),
      ),
    );
    expect(orgRoleOnGroup.message).toMatch(/422/);
    expect(orgRoleOnGroup.message).toMatch(/groupRoles\.0\.roleId/);
    expect(usersWithEmail("refused@acme.example")).toHaveLength(0);
  });

  it("records an adoption whose update was refused, so the next update finishes it", async () => {
    const existing = await stack.admin.users.create({
      firstName: "Half",
      lastName: "Way",
      email: "half.way@acme.example",
      defaultRoleId: role("Member"),
    });
    const user = await Managed.of(stack.plugin, "user", "half-adopted");
    const broken = {
      ...declared("half.way@acme.example", {
        groupRoles: [{ roleId: role("Group Viewer"), groupId: "99999999-9999-4999-8999-999999999999" }],
      }),
      adoptId: existing.id,
    };
    const error = await failure(user.create(broken));
    expect(error.message).toMatch(/422/);
    expect(error.id).toBe(existing.id);
    expect(error.properties).toMatchObject({ firstName: "Half", email: "half.way@acme.example" });
    await user.recordPartialFailure(error, broken);

    const fixed = { ...declared("half.way@acme.example"), adoptId: existing.id };
    expect(await user.diff(fixed)).toMatchObject({ changes: "some", replaces: [] });
    await user.update(fixed);
    expect(live(existing.id)).toMatchObject({ firstName: "Lee", lastName: "Lane" });
    expect(live(existing.id)!.groupRoles).toHaveLength(2);
    await user.delete();
  });
});

describe("User permissions and tokens", () => {
  // Each token goes through the resource's connection, so one plugin serves them all.
  const withToken = (token: string, email: string): PropertyMap =>
    declared(email, { connection: { baseUrl: stack.emulator.baseUrl, apiToken: token } });

  it("a read-only token gets a 403 naming the request, and nothing is created", async () => {
    const user = await Managed.of(stack.plugin, "user", "read-only");
    const error = await failure(user.create(withToken(stack.emulator.tokens.readOnly, "ro@acme.example")));
    expect(error.message).toMatch(/403/);
    expect(error.message).toMatch(/POST/);
    expect(usersWithEmail("ro@acme.example")).toHaveLength(0);
  });

  it("a read-only token cannot delete a managed user: 403, and the user stays", async () => {
    const user = await Managed.of(stack.plugin, "user", "undeletable");
    await user.create(declared("undeletable@acme.example"));
    user.outputs = {
      ...user.outputs,
      connection: { baseUrl: stack.emulator.baseUrl, apiToken: stack.emulator.tokens.readOnly },
    };
    const error = await failure(user.delete());
    expect(error.message).toMatch(/403/);
    expect(live(user.id)).toBeDefined();
    expect(error.message).not.toContain(stack.emulator.tokens.readOnly.split("|")[1]);
  });

  it("an unknown token gets a 401 that does not print the token", async () => {
    const user = await Managed.of(stack.plugin, "user", "unknown-token");
    const token = "98|NotAValidUserToken00000000000000000000000";
    const error = await failure(user.create(withToken(token, "nobody@acme.example")));
    expect(error.message).toMatch(/401/);
    expect(error.message).not.toContain("NotAValidUserToken");
    expect(stack.plugin.stderr()).not.toContain("NotAValidUserToken");
  });
});

describe("User partial failure", () => {
  it("a group-role change cut off between its batches is finished by the next update", async () => {
    // No retries, so the injected 5xx fails the second PUT at once.
    const strict = await startStack({ config: { "devicemgmt:maxRetries": "0" } });
    try {
      const admin = strict.admin;
      const ids = Object.fromEntries((await admin.roles.all()).map((r) => [r.name, r.id]));
      const many: string[] = [];
      for (let i = 0; i < 100; i++)
        many.push((await admin.groups.create({ name: `G${i}`, parentId: null })).id);
      const pairs = (from: number) =>
        many.slice(from, from + 50).flatMap((groupId) => [
          { roleId: ids["Group Admin"], groupId },
          { roleId: ids["Group Viewer"], groupId },
        ]);
      const base = {
        firstName: "Batch",
        lastName: "User",
        email: "batch@acme.example",
        defaultRoleId: ids["Member"],
      };
      const user = await Managed.of(strict.plugin, "user", "batched");
      await user.create({ ...base, groupRoles: pairs(0) });
      const liveRoles = () => strict.emulator.snapshot().users.find((u) => u.id === user.id)!.groupRoles;
      expect(liveRoles()).toHaveLength(100);

      // 200 actions: two PUTs. Break the server once the first has landed.
      const want = { ...base, groupRoles: pairs(50) };
      const updating = user.update(want);
      while (liveRoles().length === 100) await new Promise((r) => setTimeout(r, 1));
      strict.emulator.setFaults({ errorRate: 1 });
      const error = await failure(updating);
      strict.emulator.setFaults({ errorRate: 0 });
      expect(error.message).toMatch(/500|502|503/);
      expect(sortedRoles(liveRoles())).not.toEqual(sortedRoles(pairs(50)));

      strict.emulator.resetStats();
      await user.update(want);
      expect(sortedRoles(liveRoles())).toEqual(sortedRoles(pairs(50)));
      expect(await user.diff(want)).toMatchObject({ changes: "none" });
    } finally {
      strict.emulator.setFaults({ errorRate: 0 });
      await strict.close();
    }
  });
});
