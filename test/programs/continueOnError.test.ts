// `pulumi up --continue-on-error` with a resource renamed in code without `aliases` (issue 22): the renamed
// resource's create is refused (the object exists and this resource did not make it), the engine goes on, and
// the old name is "no longer declared". Whatever the engine then does, the live object the program still
// declares must survive. The real engine (the Pulumi CLI with the Node.js SDK 3.270) does run its deletes in
// that run: the refused resource's outputs reject and the program fails, but the SDK reports those rejections
// only after it has signalled the end of the program (pulumi/pulumi pkg/resource/deploy/source_eval.go,
// SignalAndWaitForShutdown), by when the engine has generated its deletes. It deletes the old name and, when the
// group was renamed, its attachment too (the new attachment's input is the refused group's id, so the SDK never
// registers it). The provider refuses, in the same run, to delete an object a create was refused for, or one
// that refers to such an object (provider/framework/runLedger.ts). Each test asserts the organization afterwards.
import { Group, GroupReleaseChannel, User } from "../../provider";
import { ClaimedDependentDeleteError, ClaimedObjectDeleteError, RunLedger } from "../../provider/framework";
import { Managed, startStack, type Stack } from "../harness/providerStack";
import { useFlagStack } from "../harness/flagStack";

describe("the run ledger (provider/framework/runLedger.ts)", () => {
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

  test("refuses to delete what refers to such an object (an attachment, a role on it), naming the refused id", () => {
    const ledger = new RunLedger();
    ledger.recordRefusedCreate("g-1");
    const attachment = { groupId: "g-1", releaseChannelId: "rc-1", connection: { baseUrl: "g-1" } };
    expect(() => ledger.assertDeletable("GroupReleaseChannel", "g-1/rc-1", attachment)).toThrow(
      ClaimedDependentDeleteError,
    );
    expect(() => ledger.assertDeletable("GroupReleaseChannel", "g-1/rc-1", attachment)).toThrow(
      /refers to g-1, .*adoptId: "g-1"/,
    );
    const user = { email: "a@b.example", groupRoles: [{ roleId: "r-1", groupId: "g-1" }] };
    expect(() => ledger.assertDeletable("User", "u-1", user)).toThrow(ClaimedDependentDeleteError);
    // Other objects, and the connection (never an object id), do not count.
    expect(() => ledger.assertDeletable("GroupReleaseChannel", "g-2/rc-1", { groupId: "g-2" })).not.toThrow();
    expect(() =>
      ledger.assertDeletable("User", "u-2", { email: "c@d.example", connection: { apiToken: "g-1" } }),
    ).not.toThrow();
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
    // The engine asks for the old name's delete, and the provider refuses it. For a renamed group it first asks
    // for its attachment's (the new attachment was never registered), which the provider refuses too; the group's
    // delete is then not even asked for: a failed delete keeps what it depends on (pulumi/pulumi
    // pkg/resource/deploy/deployment_executor.go, performPostSteps, erroredDeps).
    const refusedDeletes = result.errors
      .filter((e) => e.op === "delete")
      .map((e) => e.urn!.split("::").pop());
    expect(refusedDeletes).toEqual([renamed === "site" ? "site-production" : renamed]);
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
