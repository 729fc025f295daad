// `pulumi up --continue-on-error` with a resource renamed in code without `aliases` (issue 22): the renamed
// resource's create is refused (the object exists and this resource did not make it), the engine goes on, and
// the old name is "no longer declared". Whatever the engine then does, the live object the program still
// declares must survive: the engine stand-in follows the engine and the Node.js SDK 3.270 (the refused
// resource's outputs reject, the program fails, the engine bails before its deletes), and the provider itself
// refuses, in the same run, to delete an object a create was refused for (provider/resources/runLedger.ts).
// Each test asserts the organization afterwards.
import { Group, GroupReleaseChannel, User } from "../../provider";
import { ClaimedObjectDeleteError, RunLedger } from "../../provider/resources/runLedger";
import { Managed, startStack, type Stack } from "../resources/support";
import { useFlagStack } from "./flagStack";

describe("the run ledger (provider/resources/runLedger.ts)", () => {
  test("refuses to delete an object a create of the same run was refused for, naming the fix", () => {
    const ledger = new RunLedger();
    ledger.assertDeletable("Group", "g-1"); // nothing recorded: deletable
    ledger.recordRefusedCreate("g-1");
    expect(ledger.createWasRefusedFor("g-1")).toBe(true);
    expect(ledger.createWasRefusedFor("g-2")).toBe(false);
    expect(() => ledger.assertDeletable("Group", "g-1")).toThrow(ClaimedObjectDeleteError);
    expect(() => ledger.assertDeletable("Group", "g-1")).toThrow(/aliases: \[\{ name: "<old name>" \}\]/);
    expect(() => ledger.assertDeletable("Group", "g-1")).toThrow(/adoptId: "g-1"/);
    expect(() => ledger.assertDeletable("Group", "g-2")).not.toThrow();
  });
});

describe("--continue-on-error after a rename without aliases", () => {
  const flags = useFlagStack();
  const org = () => flags.org();

  /** A group with a release channel attached and a user; `names` renames resources in code. */
  const program = (names: Record<string, string> = {}) => {
    const n = (name: string) => names[name] ?? name;
    return () => {
      const site = new Group(n("site"), { name: "Berlin Lab", configured: true });
      new GroupReleaseChannel(n("site-production"), { groupId: site.id, releaseChannelId: flags.production });
      new User(n("emil"), {
        firstName: "Emil",
        lastName: "Lindqvist",
        email: "emil@acme.example",
        defaultRoleId: flags.adminRole,
      });
    };
  };

  async function expectRenameKeepsTheObject(renamed: string) {
    expect((await flags.engine.up(program())).errors).toEqual([]);
    const before = org();
    const site = before.groups.find((g) => g.name === "Berlin Lab")!;
    const emil = before.users.find((u) => u.email === "emil@acme.example")!;
    expect(site.releaseChannelIds).toEqual([flags.production]);

    const result = await flags.engine.up(program({ [renamed]: `${renamed}-renamed` }), {
      continueOnError: true,
    });

    expect(result.ok).toBe(false);
    expect(result.errors[0]).toMatchObject({ op: "create", message: expect.stringContaining("aliases") });
    expect(result.steps.delete).toEqual([]);
    const after = org();
    expect(after.groups.filter((g) => g.name === "Berlin Lab").map((g) => g.id)).toEqual([site.id]);
    expect(after.groups.find((g) => g.id === site.id)!.releaseChannelIds).toEqual([flags.production]);
    expect(after.users.filter((u) => u.email === "emil@acme.example").map((u) => u.id)).toEqual([emil.id]);
    // The old name stays in the state, so the next up with the alias (or the old name) finds it.
    expect(flags.engine.resource(renamed).id).toBeDefined();
    const again = await flags.engine.up(program());
    expect(again.errors).toEqual([]);
    expect(again.steps.create).toEqual([]);
    expect(again.steps.delete).toEqual([]);
  }

  test("a renamed group keeps its live group", () => expectRenameKeepsTheObject("site"));
  test("a renamed user keeps its live user", () => expectRenameKeepsTheObject("emil"));
  test("a renamed attachment keeps the release channel attached", () =>
    expectRenameKeepsTheObject("site-production"));
});

describe("the provider refuses the delete in the run that refused the create (one plugin process)", () => {
  let stack: Stack;
  beforeEach(async () => {
    stack = await startStack();
  });
  afterEach(() => stack?.close());

  test("a group whose same-named create was refused is not deleted by its old name's removal", async () => {
    // What an engine that goes on after the refused create would ask next: delete the old name's group.
    const old = await Managed.of(stack.plugin, "group", "site");
    await old.create({ name: "Lab Ledger" });
    const renamed = await Managed.of(stack.plugin, "group", "site-renamed");
    await expect(renamed.create({ name: "Lab Ledger" })).rejects.toThrow(/aliases/);

    await expect(old.delete()).rejects.toThrow(/was not deleted: in this run a resource of the program/);
    expect(
      stack.emulator
        .snapshot()
        .groups.filter((g) => g.name === "Lab Ledger")
        .map((g) => g.id),
    ).toEqual([old.id]);
  });
});
