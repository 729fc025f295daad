// Where the real engine (the Pulumi CLI v3.274.1 with @pulumi/pulumi 3.270, test/engine) does something a
// re-implementation of it got wrong (issue 33): each probe runs this provider's resources, or a minimal dynamic
// resource where none of its kinds can answer that way, against the emulator, and asserts what the engine does
// and the organization afterwards. Citations are to pulumi/pulumi at v3.274.1 (pkg/...).
import * as pulumi from "@pulumi/pulumi";
import { Group, GroupReleaseChannel, User } from "../../provider";
import { DeviceMgmtClient } from "../../provider/client";
import type { ResourceKind } from "../../provider/kindKeys";
import { KINDS } from "../../provider/kinds";
import { pluginHandler } from "../../provider/framework";
import { useFlagStack } from "../harness/flagStack";

const stack = useFlagStack();
const org = () => stack.org();
const groupsNamed = (name: string) =>
  org()
    .groups.filter((g) => g.name === name)
    .map((g) => g.id);

/**
 * A dynamic resource whose Diff answers only `replaces`, without `changes`: the dynamic provider of
 * @pulumi/pulumi 3.270 (cmd/dynamic-provider/index.js, diff) then answers DIFF_UNKNOWN with those replaces. Its
 * object is a group made through the API. It takes the URL and token as inputs so that the serialized provider
 * captures nothing.
 */
interface UnknownDiffGroupArgs {
  name: pulumi.Input<string>;
  baseUrl: pulumi.Input<string>;
  token: pulumi.Input<string>;
}
const unknownDiffProvider: pulumi.dynamic.ResourceProvider = {
  async create(inputs) {
    const response = await fetch(`${inputs.baseUrl}/groups`, {
      method: "POST",
      headers: {
        accept: "application/json",
        authorization: `Bearer ${inputs.token}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ name: inputs.name, parentId: null }),
    });
    if (!response.ok) throw new Error(`POST /groups answered ${response.status}: ${await response.text()}`);
    return { id: ((await response.json()) as { id: string }).id, outs: inputs };
  },
  async diff() {
    return { replaces: ["name"] };
  },
  async delete(id, props) {
    const response = await fetch(`${props.baseUrl}/groups/${id}`, {
      method: "DELETE",
      headers: { accept: "application/json", authorization: `Bearer ${props.token}` },
    });
    if (!response.ok) throw new Error(`DELETE /groups answered ${response.status}`);
  },
};
class UnknownDiffGroup extends pulumi.dynamic.Resource {
  constructor(name: string, args: UnknownDiffGroupArgs, opts?: pulumi.CustomResourceOptions) {
    super(unknownDiffProvider, name, args, opts, "devicemgmt-tests", "UnknownDiffGroup");
  }
}

describe('1. a Diff answering "changes unknown" with replaces', () => {
  // The engine (pkg/resource/deploy/step_generator.go, diffResource) turns DIFF_UNKNOWN into its own comparison of
  // the old and new inputs: no input changed means DiffNone, and the replaces are then ignored; a changed input
  // means DiffSome, and the replaces stand. So such a resource is replaced only when its inputs change, not on
  // every run. What a user of this provider should know: none of its kinds answers like that (every kind's Diff
  // says `changes` explicitly, tested below), so a replacement always comes from the provider's own answer.
  const program = (name: string) => () =>
    void new UnknownDiffGroup("probe", {
      name,
      baseUrl: stack.emulator.baseUrl,
      token: pulumi.secret(stack.emulator.tokens.admin),
    });

  test("unchanged inputs: same in preview and up, the object stays; a changed input: replaced, once", async () => {
    expect((await stack.engine.up(program("Probe Lab"))).errors).toEqual([]);
    const [first] = groupsNamed("Probe Lab");
    expect(first).toBeDefined();

    const preview = await stack.engine.preview(program("Probe Lab"));
    expect(preview.errors).toEqual([]);
    expect(preview.steps.replace).toEqual([]);
    expect(preview.steps.same.map((s) => s.name)).toContain("probe");
    const again = await stack.engine.up(program("Probe Lab"));
    expect(again.errors).toEqual([]);
    expect(again.operations).toEqual([]);
    expect(groupsNamed("Probe Lab")).toEqual([first]);

    const renamed = await stack.engine.up(program("Probe Lab 2"));
    expect(renamed.errors).toEqual([]);
    expect(renamed.steps.replace.map((s) => [s.name, s.replaceKeys])).toEqual([["probe", ["name"]]]);
    expect(groupsNamed("Probe Lab")).toEqual([]);
    expect(groupsNamed("Probe Lab 2")).toHaveLength(1);
    expect(groupsNamed("Probe Lab 2")).not.toEqual([first]);
  });

  test("every kind of this provider answers `changes` explicitly, and true whenever it lists replaces", async () => {
    // Two different values of each property (the set-like ones as lists); a tag set always has its tags.
    const values: Record<string, [unknown, unknown]> = {
      groupRoles: [[{ roleId: "r-1", groupId: "g-1" }], [{ roleId: "r-2", groupId: "g-1" }]],
      tags: [["a"], ["b"]],
    };
    const base = { tags: ["t"] };
    // What a kind records beside its inputs that its diff reads: a rollout gate recorded as passed is not judged
    // again (one not passed would be, on purpose: a change).
    const recorded: Partial<Record<ResourceKind, Record<string, unknown>>> = {
      releaseChannelVersion: { rolloutStatus: "passed" },
    };
    for (const kind of Object.keys(KINDS) as ResourceKind[]) {
      const definition = KINDS[kind];
      for (const [key, spec] of Object.entries(definition.properties as Record<string, { change: string }>)) {
        if (key === "connection") continue;
        const [a, b] = values[key] ?? ["a", "b"];
        const olds = { ...base, ...recorded[kind], [key]: a };
        const same = await pluginHandler(definition).diff("id-1", olds, { ...base, [key]: a });
        expect([kind, key, same.changes, same.replaces]).toEqual([kind, key, false, []]);
        const result = await pluginHandler(definition).diff("id-1", olds, { ...base, [key]: b });
        expect([kind, key, typeof result.changes]).toEqual([kind, key, "boolean"]);
        if (result.replaces?.length) expect([kind, key, result.changes]).toEqual([kind, key, true]);
        if (spec.change === "update")
          expect([kind, key, result.changes, result.replaces]).toEqual([kind, key, true, []]);
        if (spec.change === "replace")
          expect([kind, key, result.changes, result.replaces]).toEqual([kind, key, true, [key]]);
      }
    }
  });
});

describe("2. removing `protect` and replacing in the same run", () => {
  // pkg/resource/deploy/step_generator.go (continueStepsFromDiff: a replacement is refused only when the resource
  // is protected both before and after, "we do allow unprotecting and replacing to happen in a single update"),
  // and step.go (DeleteStep.Apply checks protect only when it is not replacing). Mirrors TestProtect, step "4",
  // in pkg/engine/lifecycletest/pulumi_test.go. What a user should know: removing `protect` in the same change
  // that replaces is enough; no separate `up` or `pulumi state unprotect` is needed, and the old object is
  // deleted in that run.
  const emil = (email: string, protect: boolean) => () =>
    void new User(
      "emil",
      { firstName: "Emil", lastName: "Lindqvist", email, defaultRoleId: stack.adminRole },
      { protect },
    );

  test("a user whose e-mail changes (delete-first): one user afterwards, the new one", async () => {
    expect((await stack.engine.up(emil("emil@acme.example", true))).errors).toEqual([]);
    const before = org().users.find((u) => u.email === "emil@acme.example")!;
    expect(stack.engine.resource("emil").protect).toBe(true);

    const refused = await stack.engine.up(emil("emil.lindqvist@acme.example", true));
    expect(refused.ok).toBe(false);
    expect(refused.output).toContain("currently marked for protection");

    const preview = await stack.engine.preview(emil("emil.lindqvist@acme.example", false));
    expect(preview.errors).toEqual([]);
    expect(preview.steps.replace.map((s) => s.name)).toEqual(["emil"]);
    const result = await stack.engine.up(emil("emil.lindqvist@acme.example", false));
    expect(result.errors).toEqual([]);
    const emils = org().users.filter((u) => u.firstName === "Emil");
    expect(emils.map((u) => u.email)).toEqual(["emil.lindqvist@acme.example"]);
    expect(emils[0].id).not.toBe(before.id);
    expect(stack.engine.resource("emil")).toMatchObject({ id: emils[0].id, protect: false });
    expect((await stack.engine.up(emil("emil.lindqvist@acme.example", false))).operations).toEqual([]);
  });

  test("a group replaced create-first (--replace, renamed): one group afterwards, the new one", async () => {
    const lab = (name: string, protect: boolean) => () => void new Group("lab", { name }, { protect });
    expect((await stack.engine.up(lab("Munich Lab", true))).errors).toEqual([]);
    const [before] = groupsNamed("Munich Lab");

    const result = await stack.engine.up(lab("Munich Lab East", false), { replace: ["lab"] });
    expect(result.errors).toEqual([]);
    expect(result.steps.replace.map((s) => [s.name, s.deleteBeforeReplace ?? false])).toEqual([
      ["lab", false],
    ]);
    expect(groupsNamed("Munich Lab")).toEqual([]);
    const [after] = groupsNamed("Munich Lab East");
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    expect(stack.engine.resources().filter((r) => r.name === "lab")).toEqual([
      expect.objectContaining({ id: after, protect: false }),
    ]);
    expect((await stack.engine.up(lab("Munich Lab East", false))).operations).toEqual([]);
  });
});

describe("3. registrations after an unhandled rejection", () => {
  // The language host (for an inline program, @pulumi/pulumi 3.270 automation/server.js, run) catches the
  // program's unhandled rejections, logs each as an error and lets the program go on; only when the program has
  // finished does the run fail ("One or more errors occurred"). What a user should know: an unhandled rejection
  // (a helper called without `await`, a failed lookup nobody catches) does not stop the resources registered
  // after it: they are created, in preview as in up, and the run fails at the end.
  const program = async () => {
    new Group("before", { name: "Before Lab" });
    void Promise.reject(new Error("inventory lookup failed"));
    await new Promise((resolve) => setTimeout(resolve, 200));
    new Group("after", { name: "After Lab" });
  };

  test("the resources registered after it are created, and the run fails", async () => {
    const preview = await stack.engine.preview(program);
    expect(preview.ok).toBe(false);
    expect(preview.steps.create.map((s) => s.name).sort()).toEqual(["after", "before"]);

    const result = await stack.engine.up(program);
    expect(result.ok).toBe(false);
    expect(result.errors.map((e) => e.message).join("\n")).toContain("inventory lookup failed");
    expect(result.steps.create.map((s) => s.name).sort()).toEqual(["after", "before"]);
    expect(groupsNamed("Before Lab")).toHaveLength(1);
    expect(groupsNamed("After Lab")).toHaveLength(1);
  });
});

describe("4. registrations after a failed create under --continue-on-error", () => {
  // pkg/resource/deploy/step_executor.go (cancelDueToError: with ContinueOnError the failed step is recorded and
  // the deployment goes on). Mirrors TestUpContinueOnErrorCreate in
  // pkg/engine/lifecycletest/continue_on_error_test.go: independent resources registered after the failure are
  // created; a resource whose input is the failed one's output is never registered (the SDK rejects its
  // inputs). What a user should know: under --continue-on-error a refused create stops only what depends on it.
  const program = () => {
    const taken = new Group("taken", { name: "Taken Lab" });
    new GroupReleaseChannel("taken-production", { groupId: taken.id, releaseChannelId: stack.production });
    new Group("after", { name: "After Lab" });
    new User("emil", {
      firstName: "Emil",
      lastName: "Lindqvist",
      email: "emil@acme.example",
      defaultRoleId: stack.adminRole,
    });
  };

  test("the independent resources are created, the failed one's dependent is not", async () => {
    // A group of that name exists and the program did not make it: the create is refused.
    const admin = new DeviceMgmtClient({
      baseUrl: stack.emulator.baseUrl,
      apiToken: stack.emulator.tokens.admin,
    });
    const existing = (await admin.groups.create({ name: "Taken Lab", parentId: null })).id;

    const result = await stack.engine.up(program, { continueOnError: true });
    expect(result.ok).toBe(false);
    expect(result.errors[0]).toMatchObject({ op: "create", urn: expect.stringContaining("::taken") });
    expect(result.steps.create.map((s) => s.name).sort()).toEqual(["after", "emil"]);
    expect(groupsNamed("Taken Lab")).toEqual([existing]);
    expect(org().groups.find((g) => g.id === existing)!.releaseChannelIds).toEqual([]);
    expect(groupsNamed("After Lab")).toHaveLength(1);
    expect(org().users.filter((u) => u.email === "emil@acme.example")).toHaveLength(1);
  });
});

describe("5. deletes after an unhandled rejection", () => {
  // The SDK signals the end of the program (SignalAndWaitForShutdown) once the program's own promise settles,
  // before it reports the unhandled rejections it logged; the engine then generates and runs its deletes
  // (pkg/resource/deploy/source_eval.go, SignalAndWaitForShutdown; deployment_executor.go, performPostSteps), and
  // the program's error comes after. Mirrors TestSignalAndWaitForShutdownErrorAfterWait in
  // pkg/engine/lifecycletest/signal_and_wait_for_shutdown_test.go. What a user should know: an unhandled
  // rejection does not protect what the program no longer declares; it is deleted in that same failing run.
  test("a resource the program dropped is deleted although the run fails", async () => {
    const both = () => {
      new Group("kept", { name: "Kept Lab" });
      new Group("dropped", { name: "Dropped Lab" });
    };
    expect((await stack.engine.up(both)).errors).toEqual([]);
    const [kept] = groupsNamed("Kept Lab");

    const result = await stack.engine.up(async () => {
      new Group("kept", { name: "Kept Lab" });
      void Promise.reject(new Error("inventory lookup failed"));
      await new Promise((resolve) => setTimeout(resolve, 200));
    });
    expect(result.ok).toBe(false);
    expect(result.errors.map((e) => e.message).join("\n")).toContain("inventory lookup failed");
    expect(result.steps.delete.map((s) => s.name)).toEqual(["dropped"]);
    expect(groupsNamed("Dropped Lab")).toEqual([]);
    expect(groupsNamed("Kept Lab")).toEqual([kept]);
  });
});

describe("6. deletes under --continue-on-error after a failed create", () => {
  // As in 5, the engine runs its deletes although the program fails: here the program's error is the SDK's
  // rejection of the inputs of every resource that takes an output of the refused resource, so those resources
  // are never registered and their old names are "no longer declared" (pkg/resource/deploy/deployment_executor.go,
  // performPostSteps; mirrors TestSignalAndWaitForShutdownContinueOnError in
  // pkg/engine/lifecycletest/signal_and_wait_for_shutdown_test.go). What a user should know: a group renamed in
  // code without `aliases` and run with --continue-on-error would lose its attachments and the roles held on it;
  // this provider refuses those deletes (provider/framework/runLedger.ts), so the organization keeps them.
  let groupAdmin: string;
  beforeEach(async () => {
    const admin = new DeviceMgmtClient({
      baseUrl: stack.emulator.baseUrl,
      apiToken: stack.emulator.tokens.admin,
    });
    groupAdmin = (await admin.roles.all()).find((r) => r.name === "Group Admin")!.id;
  });
  const program = (siteName: string) => () => {
    const site = new Group(siteName, { name: "Berlin Lab", configured: true });
    new GroupReleaseChannel("site-production", { groupId: site.id, releaseChannelId: stack.production });
    new User("emil", {
      firstName: "Emil",
      lastName: "Lindqvist",
      email: "emil@acme.example",
      defaultRoleId: stack.adminRole,
      groupRoles: [{ roleId: groupAdmin, groupId: site.id }],
    });
  };

  test("the dependents the SDK could not register are asked to be deleted; the provider refuses each", async () => {
    expect((await stack.engine.up(program("site"))).errors).toEqual([]);
    const [site] = groupsNamed("Berlin Lab");
    const emil = org().users.find((u) => u.email === "emil@acme.example")!;

    const result = await stack.engine.up(program("site-renamed"), { continueOnError: true });
    expect(result.ok).toBe(false);
    expect(result.errors[0]).toMatchObject({ op: "create", urn: expect.stringContaining("::site-renamed") });
    const refused = result.errors.filter((e) => e.op === "delete").map((e) => e.urn!.split("::").pop());
    // The group's own delete is not asked for: its dependents' deletes failed, and a failed delete keeps what it
    // depends on (deployment_executor.go, performPostSteps, erroredDeps).
    expect(refused.sort()).toEqual(["emil", "site-production"]);
    expect(result.steps.delete).toEqual([]);

    expect(groupsNamed("Berlin Lab")).toEqual([site]);
    expect(org().groups.find((g) => g.id === site)!.releaseChannelIds).toEqual([stack.production]);
    expect(org().users.filter((u) => u.email === "emil@acme.example")).toEqual([
      expect.objectContaining({ id: emil.id, groupRoles: [{ roleId: groupAdmin, groupId: site }] }),
    ]);
    // The old names are still in the state: the program as it was is quiet again.
    const again = await stack.engine.up(program("site"));
    expect(again.errors).toEqual([]);
    expect(again.operations).toEqual([]);
  });
});
