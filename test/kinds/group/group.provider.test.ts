// Group through the real dynamic-provider plugin against the emulator.
import { providerText } from "../../../provider/dynamic";
import { failure, Managed, startStack, type Stack } from "../../harness/providerStack";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const live = (id: string) => stack.emulator.snapshot().groups.find((g) => g.id === id);

describe("Group", () => {
  it("creates, reads back without a diff, updates in place, and deletes", async () => {
    const parent = await Managed.of(stack.plugin, "group", "parent");
    await parent.create({ name: "Region" });
    const group = await Managed.of(stack.plugin, "group", "site");
    const outs = await group.create({ name: "Site", parentId: parent.id });
    expect(outs).toMatchObject({ name: "Site", parentId: parent.id, configured: false });
    // The organization changes the device count by itself (devices moving in): not the group's state.
    expect(outs).not.toHaveProperty("deviceCount");
    expect(outs.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(live(group.id)).toMatchObject({ name: "Site", parentId: parent.id, isConfigured: false });

    expect(await group.diff({ name: "Site", parentId: parent.id })).toMatchObject({ changes: "none" });
    const read = await group.read();
    expect(read.id).toBe(group.id);
    // Nothing changed outside: no inputs come back, so the engine keeps the recorded ones (step.go, RefreshStep).
    expect(read.inputs).toBeUndefined();
    expect(group.inputs).toMatchObject({ name: "Site", parentId: parent.id });
    // Known by its id alone (nothing recorded), the inputs are read from the live group.
    expect((await group.readById(group.id)).inputs).toMatchObject({
      name: "Site",
      parentId: parent.id,
      configured: false,
    });
    expect(await group.diff({ name: "Site", parentId: parent.id })).toMatchObject({ changes: "none" });

    // Rename and re-parent to the root: in place.
    expect(await group.diff({ name: "Site 2", parentId: null })).toMatchObject({
      changes: "some",
      replaces: [],
    });
    await group.update({ name: "Site 2", parentId: null });
    expect(live(group.id)).toMatchObject({ name: "Site 2", parentId: null });

    // Configure: in place, irreversible.
    await group.update({ name: "Site 2", configured: true });
    expect(live(group.id)?.isConfigured).toBe(true);
    const refused = await group.check({ name: "Site 2", configured: false });
    expect(refused.failures).toEqual([
      { property: "configured", reason: expect.stringMatching(/irreversible/) },
    ]);

    await group.delete();
    expect(live(group.id)).toBeUndefined();
    await group.delete(); // already gone: still succeeds
    await parent.delete();
  });

  it("shows drift on refresh and repairs it on the next update", async () => {
    const group = await Managed.of(stack.plugin, "group", "drifting");
    await group.create({ name: "Original" });
    await stack.admin.groups.update(group.id, { name: "Renamed in the portal", parentId: null });

    const read = await group.read();
    expect(read.properties.name).toBe("Renamed in the portal");
    const diff = await group.diff({ name: "Original" });
    expect(diff.changes).toBe("some");
    await group.update({ name: "Original" });
    expect(live(group.id)?.name).toBe("Original");
    expect(await group.diff({ name: "Original" })).toMatchObject({ changes: "none" });
    await group.delete();
  });

  it("reports a group deleted outside Pulumi as gone on refresh", async () => {
    const group = await Managed.of(stack.plugin, "group", "vanishing");
    await group.create({ name: "Short-lived" });
    await stack.admin.groups.delete(group.id);
    const read = await group.read();
    expect(read.id).toBe("");
  });

  it("adopts an existing group by adoptId and updates it to the declared inputs; adoptId alone changes nothing", async () => {
    const existing = await stack.admin.groups.create({ name: "Made by hand", parentId: null });
    const before = stack.emulator.snapshot().groups.length;
    const group = await Managed.of(stack.plugin, "group", "adopted");
    await group.create({ name: "Now managed", configured: true, adoptId: existing.id });
    expect(group.id).toBe(existing.id);
    expect(stack.emulator.snapshot().groups.length).toBe(before);
    expect(live(existing.id)).toMatchObject({ name: "Now managed", isConfigured: true });
    expect(await group.diff({ name: "Now managed", configured: true })).toMatchObject({ changes: "none" });
    expect(
      await group.diff({
        name: "Now managed",
        configured: true,
        adoptId: "55555555-5555-4555-8555-555555555555",
      }),
    ).toMatchObject({
      changes: "none",
    });
    await group.delete();
  });

  it("fails adoption of an id that does not exist, without creating anything", async () => {
    const before = stack.emulator.snapshot().groups.length;
    const group = await Managed.of(stack.plugin, "group", "ghost");
    const error = await failure(group.create({ name: "x", adoptId: "66666666-6666-4666-8666-666666666666" }));
    expect(error.message).toMatch(/no group with id 66666666-6666-4666-8666-666666666666/);
    expect(stack.emulator.snapshot().groups.length).toBe(before);
  });

  it("reports every bad input in check, one failure per property, before any API call", async () => {
    const group = await Managed.of(stack.plugin, "group", "bad");
    stack.emulator.resetStats();
    const { failures } = await group.check({ name: "", parentId: "nope", configured: "yes", colour: "red" });
    expect(failures.map((f) => f.property).sort()).toEqual(["colour", "configured", "name", "parentId"]);
    expect(stack.emulator.stats().requests).toBe(0);
  });

  it("refuses a configured parent at check, and passes the server's 422 through with its field errors", async () => {
    const leaf = await Managed.of(stack.plugin, "group", "leaf");
    await leaf.create({ name: "Leaf", configured: true });
    const child = await Managed.of(stack.plugin, "group", "child-of-leaf");
    expect((await child.check({ name: "Child", parentId: leaf.id })).failures).toEqual([
      {
        property: "parentId",
        reason: expect.stringMatching(/"Leaf"\) is configured, .*unconfigured parent/),
      },
    ]);
    // A create that check did not stop (the parent configured since the preview): the API's 422, as it is.
    const error = await failure(
      stack.plugin.create({
        urn: child.urn,
        properties: { name: "Child", parentId: leaf.id, __provider: providerText("group") },
      }),
    );
    expect(error.message).toMatch(/422/);
    expect(error.message).toMatch(/parentId/);
    await leaf.delete();
  });

  it("records a group whose configure step failed, so the next update finishes it", async () => {
    // No retries, so the injected 500 on the configure PATCH fails the create at once.
    const strict = await startStack({ config: { "devicemgmt:maxRetries": "0" } });
    try {
      const snapshot = () => strict.emulator.snapshot().groups;
      const group = await Managed.of(strict.plugin, "group", "half-done");
      const checked = await group.check({ name: "Half", configured: true });
      // Break the server right after the POST that creates the group lands.
      const created = strict.plugin.create({ urn: group.urn, properties: checked.inputs });
      while (snapshot().length === 0) await new Promise((r) => setTimeout(r, 1));
      strict.emulator.setFaults({ errorRate: 1 });
      const error = await failure(created);
      strict.emulator.setFaults({ errorRate: 0 });
      expect(error.message).toMatch(/500|502|503/);
      expect(error.id).toBe(snapshot()[0].id);
      expect(error.properties).toMatchObject({ name: "Half", configured: false });
      expect(error.properties?.__provider).toBeTruthy();
      // The engine records what exists; the next up diffs against it and configures.
      group.id = error.id as string;
      group.outputs = error.properties!;
      group.inputs = checked.inputs;
      expect(await group.diff({ name: "Half", configured: true })).toMatchObject({ changes: "some" });
      await group.update({ name: "Half", configured: true });
      expect(snapshot()[0].isConfigured).toBe(true);
    } finally {
      strict.emulator.setFaults({ errorRate: 0 });
      await strict.close();
    }
  });
});

describe("Group permissions and tokens", () => {
  it("a read-only token gets a 403 that names the operation", async () => {
    const readOnly = await startStack({ token: (e) => e.tokens.readOnly });
    try {
      const group = await Managed.of(readOnly.plugin, "group", "ro");
      const error = await failure(group.create({ name: "Nope" }));
      expect(error.message).toMatch(/403/);
      expect(error.message).toMatch(/POST/);
      expect(readOnly.emulator.snapshot().groups).toHaveLength(0);
    } finally {
      await readOnly.close();
    }
  });

  it("a v2 token is refused before any change, saying how to get a v3 token, and the token is not printed", async () => {
    const v2 = await startStack({ token: (e) => e.tokens.v2 });
    try {
      const group = await Managed.of(v2.plugin, "group", "v2");
      const error = await failure(group.create({ name: "Nope" }));
      expect(error.message).toMatch(/v2/);
      expect(error.message).toMatch(/Access Tokens/);
      expect(error.message).not.toContain(v2.emulator.tokens.v2);
      expect(v2.plugin.stderr()).not.toContain(v2.emulator.tokens.v2.split("|")[1]);
      expect(v2.emulator.stats().writes).toBe(0);
    } finally {
      await v2.close();
    }
  });

  it("an unknown token gets a 401 explaining where v3 tokens are made", async () => {
    const bad = await startStack({ token: () => "99|NotAValidToken000000000000000000000000000" });
    try {
      const group = await Managed.of(bad.plugin, "group", "bad-token");
      const error = await failure(group.create({ name: "Nope" }));
      expect(error.message).toMatch(/401/);
      expect(error.message).not.toContain("NotAValidToken");
    } finally {
      await bad.close();
    }
  });

  it("a missing token is an error naming all three ways to give one", async () => {
    const none = await startStack({ token: () => "" });
    try {
      const group = await Managed.of(none.plugin, "group", "no-token");
      const error = await failure(group.create({ name: "Nope" }));
      expect(error.message).toMatch(/devicemgmt:apiToken/);
      expect(error.message).toMatch(/DEVICEMGMT_API_TOKEN/);
      expect(error.message).toMatch(/connection/);
    } finally {
      await none.close();
    }
  });
});
