// Delete-first replacements with dependents, and taint, with the real provider against the emulator (issue 22).
// The engine (step_generator.go, calculateDependentReplacements) deletes, ahead of a delete-first replacement,
// the dependents whose Diff replaces them once the replaced resource's outputs are unknown, then creates them
// again; dependents that only update are updated after. `pulumi state taint` replaces at the next up, create-first
// unless the deleteBeforeReplace option is set. None of this may lose, detach or duplicate what the program
// still declares; a second up changes nothing. Each test asserts the organization afterwards.
import { Device, Group, GroupReleaseChannel, TagSet, User } from "../../provider";
import { DeviceMgmtClient } from "../../provider/client";
import { useFlagStack } from "../harness/flagStack";

const stack = useFlagStack();
const org = () => stack.org();
/** The "Group Admin" role: a role held on a group. */
let groupAdmin: string;
/** An enrolled headset the program places in the group. */
let headset: { id: string; serialNumber: string };
beforeEach(async () => {
  headset = org().devices[0];
  const admin = new DeviceMgmtClient({
    baseUrl: stack.emulator.baseUrl,
    apiToken: stack.emulator.tokens.admin,
  });
  groupAdmin = (await admin.roles.all()).find((r) => r.name === "Group Admin")!.id;
});

/**
 * A configured group replaced delete-first when tainted (the deleteBeforeReplace option), with dependents: a
 * release channel attachment and a tag set on it (both replaced delete-first: their groupId / ownerId), and a
 * user holding a role on it and a headset placed in it (groupRoles, groupId: updates in place).
 */
const program =
  ({ groupDeleteFirst = true, adoptId }: { groupDeleteFirst?: boolean; adoptId?: string } = {}) =>
  () => {
    const site = new Group(
      "site",
      { name: "Berlin Lab", configured: true, ...(adoptId ? { adoptId } : {}) },
      groupDeleteFirst ? { deleteBeforeReplace: true } : {},
    );
    new GroupReleaseChannel("site-production", { groupId: site.id, releaseChannelId: stack.production });
    new TagSet("site-tags", { ownerType: "group", ownerId: site.id, tags: ["training"] });
    new User("emil", {
      firstName: "Emil",
      lastName: "Lindqvist",
      email: "emil@acme.example",
      defaultRoleId: stack.adminRole,
      groupRoles: [{ roleId: groupAdmin, groupId: site.id }],
    });
    new Device("headset", { serialNumber: headset.serialNumber, groupId: site.id });
  };

/** What the program declares, as the organization holds it: one of each, attached and holding the role. */
function expectDeclared() {
  const groups = org().groups.filter((g) => g.name === "Berlin Lab");
  expect(groups).toHaveLength(1);
  const site = groups[0];
  expect(site.releaseChannelIds).toEqual([stack.production]);
  expect(site.tags).toEqual(["training"]);
  const users = org().users.filter((u) => u.email === "emil@acme.example");
  expect(users).toHaveLength(1);
  expect(users[0].groupRoles).toEqual([{ roleId: groupAdmin, groupId: site.id }]);
  expect(
    org()
      .devices.filter((d) => d.groupId === site.id)
      .map((d) => d.id),
  ).toEqual([headset.id]);
  return { site: site.id, emil: users[0].id };
}

async function expectQuietUp(run = program()) {
  const again = await stack.engine.up(run);
  expect(again.errors).toEqual([]);
  expect(again.operations).toEqual([]);
}

describe("dependent replacements and taint", () => {
  test("a tainted group replaced delete-first takes its attachment and tag set along and keeps the user's role", async () => {
    expect((await stack.engine.up(program())).errors).toEqual([]);
    const before = expectDeclared();

    await stack.engine.taint("site");
    const plan = await stack.engine.preview(program());
    expect(plan.errors).toEqual([]);
    const result = await stack.engine.up(program());
    expect(result.errors).toEqual([]);
    // In the order of the names: the engine reports the dependents' replacements as their registrations arrive.
    const replaced = [...plan.steps.replace].sort((a, b) => a.name.localeCompare(b.name));
    expect(replaced.map((s) => [s.name, s.replaceKeys, s.deleteBeforeReplace])).toEqual([
      ["site", ["id"], true],
      ["site-production", ["groupId"], true],
      ["site-tags", ["ownerId"], true],
    ]);
    expect(plan.steps.update.map((s) => s.name).sort()).toEqual(["emil", "headset"]);
    // The chain: the dependents the engine replaces, then the group; then, as the program registers them, the
    // replaced dependents are created again and the others updated.
    const operations = result.operations.map((o) => `${o.op} ${nameOf(o.urn)}`);
    // The two dependents' deletes come in the reverse of their order in the state, which follows the first up's
    // registrations (concurrent): either order.
    expect(operations.slice(0, 2).sort()).toEqual(["delete site-production", "delete site-tags"]);
    expect(operations.slice(2, 4)).toEqual(["delete site", "create site"]);
    expect(operations.slice(4).sort()).toEqual([
      "create site-production",
      "create site-tags",
      "update emil",
      "update headset",
    ]);
    const after = expectDeclared();
    expect(after.site).not.toBe(before.site);
    expect(after.emil).toBe(before.emil);
    expect(stack.engine.resource("site").taint).toBeUndefined();
    await expectQuietUp();
  });

  test("a tainted group replaced create-first is refused before any write; the mark stays until the option is set", async () => {
    expect((await stack.engine.up(program({ groupDeleteFirst: false }))).errors).toEqual([]);
    const before = expectDeclared();
    await stack.engine.taint("site");
    const refused = await stack.engine.up(program({ groupDeleteFirst: false }));
    expect(refused.ok).toBe(false);
    expect(refused.errors[0]).toMatchObject({ op: "create", urn: expect.stringContaining("::site") });
    expect(refused.operations).toEqual([]);
    expect(expectDeclared()).toEqual(before);
    expect(stack.engine.resource("site").taint).toBe(true);

    const replaced = await stack.engine.up(program());
    expect(replaced.errors).toEqual([]);
    expect(expectDeclared().site).not.toBe(before.site);
    await expectQuietUp();
  });

  test("following the refusal's adoptId while tainted keeps the same group: the old object's delete spares it", async () => {
    expect((await stack.engine.up(program({ groupDeleteFirst: false }))).errors).toEqual([]);
    const before = expectDeclared();
    await stack.engine.taint("site");
    const adopting = program({ groupDeleteFirst: false, adoptId: before.site });
    const result = await stack.engine.up(adopting);
    expect(result.errors).toEqual([]);
    // Create-first: the replacement adopts the group, then the replaced state's delete names the same id.
    expect(result.operations.filter((o) => o.urn.endsWith("::site")).map((o) => [o.op, o.id])).toEqual([
      ["create", before.site],
      ["delete", before.site],
    ]);
    expect(expectDeclared()).toEqual(before);
    expect(stack.engine.resource("site")).toMatchObject({ id: before.site });
    await expectQuietUp(adopting);
  });

  test.each([
    [3, "deleting", ["site-production", "site-tags"]],
    [4, "creating", ["site", "site-production", "site-tags"]],
  ])(
    "a run cut off at call %i of the chain (the group's %s) is repaired by the next up, without duplicates",
    async (calls, inFlight, pendingReplacement) => {
      expect((await stack.engine.up(program())).errors).toEqual([]);
      await stack.engine.taint("site");
      stack.emulator.setFaults({ latencyMs: 300 }); // the CLI dies while the call is under way
      const cut = await stack.engine.up(program(), { interruptAfter: calls as number });
      stack.emulator.setFaults({ latencyMs: 0 });
      expect(cut.interrupted).toBe(true);
      expect(stack.engine.pending().map((op) => [op.type, nameOf(op.urn)])).toEqual([[inFlight, "site"]]);
      const marked = stack.engine.resources().filter((r) => r.pendingReplacement);
      expect(marked.map((r) => r.name).sort()).toEqual(pendingReplacement);

      const repaired = await stack.engine.up(program());
      expect(repaired.errors).toEqual([]);
      const creates = repaired.operations.filter((o) => o.op === "create").map((o) => nameOf(o.urn));
      expect(creates.sort()).toEqual(["site", "site-production", "site-tags"]);
      expectDeclared();
      await expectQuietUp();
    },
  );
});

/** The name part of a URN. */
const nameOf = (urn: string) => urn.slice(urn.lastIndexOf("::") + 2);
