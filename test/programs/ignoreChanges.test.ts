// The `ignoreChanges` resource option (issue 22): the engine applies its property paths to the program's inputs
// before Check (step_generator.go), so an ignored change never reaches the provider. Whatever a program then
// changes under it, a live object the program still declares is neither deleted, detached nor duplicated; and a
// `--replace` of such a resource makes its object again from the program's own values. Each test asserts the
// organization afterwards.
import { Group, GroupReleaseChannel, User } from "../../provider";
import { useFlagStack } from "../harness/flagStack";

const stack = useFlagStack();
const org = () => stack.org();

interface Declared {
  siteName: string;
  channel: () => string;
  email: string;
}

/** A site with a channel and a user; the user's e-mail and the attachment's channel are ignored. */
const program =
  ({ siteName, channel, email }: Declared) =>
  () => {
    const site = new Group("site", { name: siteName, configured: true });
    new GroupReleaseChannel(
      "site-channel",
      { groupId: site.id, releaseChannelId: channel() },
      { ignoreChanges: ["releaseChannelId"] },
    );
    new User(
      "emil",
      { firstName: "Emil", lastName: "Lindqvist", email, defaultRoleId: stack.adminRole },
      { ignoreChanges: ["email"] },
    );
  };

const first: Declared = {
  siteName: "Berlin Lab",
  channel: () => stack.production,
  email: "emil@acme.example",
};

test("ignored changes of replacing properties change nothing: no delete, no detach, no second object", async () => {
  expect((await stack.engine.up(program(first))).errors).toEqual([]);
  const before = org();
  const site = before.groups.find((g) => g.name === "Berlin Lab")!;
  const emil = before.users.find((u) => u.email === "emil@acme.example")!;

  // Both changes would replace (delete first); ignored, the engine sends the recorded values instead.
  const changed = { ...first, channel: () => stack.beta, email: "emil.lindqvist@acme.example" };
  const plan = await stack.engine.preview(program(changed));
  expect(plan.errors).toEqual([]);
  expect(plan.steps.replace).toEqual([]);
  const result = await stack.engine.up(program(changed));
  expect(result.errors).toEqual([]);

  const after = org();
  expect(after.users.filter((u) => u.firstName === "Emil").map((u) => [u.id, u.email])).toEqual([
    [emil.id, "emil@acme.example"],
  ]);
  expect(after.groups.find((g) => g.id === site.id)?.releaseChannelIds).toEqual([stack.production]);
  expect((await stack.engine.up(program(changed))).steps.same).toHaveLength(3);
});

test("a rename of the site in place keeps its attachment while the channel stays ignored", async () => {
  expect((await stack.engine.up(program(first))).errors).toEqual([]);
  const site = org().groups.find((g) => g.name === "Berlin Lab")!;
  const result = await stack.engine.up(
    program({ ...first, siteName: "Berlin Campus", channel: () => stack.beta }),
  );
  expect(result.errors).toEqual([]);
  const after = org();
  expect(after.groups.filter((g) => g.name.startsWith("Berlin")).map((g) => [g.id, g.name])).toEqual([
    [site.id, "Berlin Campus"],
  ]);
  expect(after.groups.find((g) => g.id === site.id)?.releaseChannelIds).toEqual([stack.production]);
});

test("--replace of a resource with an ignored property makes it again from the program's values, once", async () => {
  expect((await stack.engine.up(program(first))).errors).toEqual([]);
  const emil = org().users.find((u) => u.email === "emil@acme.example")!;
  const changed = { ...first, email: "emil.lindqvist@acme.example" };
  const result = await stack.engine.up(program(changed), { replace: ["emil"] });
  expect(result.errors).toEqual([]);
  const users = org().users.filter((u) => u.firstName === "Emil");
  // The engine re-checks a replacement with the program's raw values (step_generator.go): the new object has
  // the declared e-mail; the old one is gone (delete first: an e-mail is a natural key), and there is one Emil.
  expect(users.map((u) => u.email)).toEqual(["emil.lindqvist@acme.example"]);
  expect(users[0].id).not.toBe(emil.id);
});
