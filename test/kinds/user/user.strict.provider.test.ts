// User against the emulator's strict readings of undocumented behaviour (emulator/README.md, "Strictness switches").
import type { PropertyMap } from "../../harness/providerPlugin";
import { Managed, sortedRoles, startStack, type Stack } from "../../harness/providerStack";

describe("strict.rejectRepeatedRoleAttach", () => {
  let stack: Stack;
  let roles: Record<string, string>;
  let groups: string[];

  beforeAll(async () => {
    stack = await startStack({ emulator: { strict: { rejectRepeatedRoleAttach: true } } });
    roles = Object.fromEntries((await stack.admin.roles.all()).map((r) => [r.name, r.id]));
    groups = [];
    for (const name of ["North", "South"])
      groups.push((await stack.admin.groups.create({ name, parentId: null })).id);
  });
  afterAll(() => stack.close());

  const live = (id: string) => stack.emulator.snapshot().users.find((u) => u.id === id);

  it("an update whose attach is answered 422 'already assigned' re-plans from a fresh read and succeeds", async () => {
    const declared = (groupRoles: PropertyMap[]): PropertyMap => ({
      firstName: "Rae",
      lastName: "Strict",
      email: "rae.strict@acme.example",
      defaultRoleId: roles["Member"],
      groupRoles,
    });
    const user = await Managed.of(stack.plugin, "user", "rae");
    await user.create(declared([{ roleId: roles["Group Admin"], groupId: groups[0] }]));

    // Someone (or an earlier run whose answer was lost) already attached the role the program now adds:
    // the recorded outputs do not show it, so the first PUT attaches it again and the server refuses (422).
    await stack.admin.users.update(user.id, {
      groupRoles: [{ roleId: roles["Group Viewer"], groupId: groups[1], action: "attach" }],
    });
    await expect(
      stack.admin.users.update(user.id, {
        groupRoles: [{ roleId: roles["Group Viewer"], groupId: groups[1], action: "attach" }],
      }),
    ).rejects.toThrow(/already assigned/);

    const want = [
      { roleId: roles["Group Admin"], groupId: groups[0] },
      { roleId: roles["Group Viewer"], groupId: groups[1] },
    ];
    stack.emulator.resetStats();
    const outs = await user.update(declared(want));
    expect(stack.emulator.stats().byStatus["422"]).toBe(1);
    expect(sortedRoles(outs.groupRoles as { roleId: string; groupId: string }[])).toEqual(sortedRoles(want));
    expect(sortedRoles(live(user.id)!.groupRoles)).toEqual(sortedRoles(want));
    expect(await user.diff(declared(want))).toMatchObject({ changes: "none" });
    await user.delete();
  });
});
