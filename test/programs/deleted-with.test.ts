// The `deletedWith` option with the real provider against the emulator (issue 22): a group's release-channel
// attachment declared `deletedWith` its group. A rename without aliases or a --replace must not delete, detach
// or duplicate a live object the program still declares. The engine stand-in follows the engine (step.go,
// isDeletedWith: no Delete call for a resource deleted with another the run deletes; step_generator.go, diff():
// replaced with its deletedWith resource). Each test asserts the organization afterwards.
import { Group, GroupReleaseChannel, User } from "../../provider";
import { useFlagStack } from "./flagStack";

const stack = useFlagStack();
const org = () => stack.org();

/** A group with a release channel attached (deleted with the group) and a user; `names` renames in code. */
const program = (names: Record<string, string> = {}, { withGroup = true } = {}) => {
  const n = (name: string) => names[name] ?? name;
  return () => {
    if (withGroup) {
      const site = new Group(n("site"), { name: "Berlin Lab", configured: true });
      new GroupReleaseChannel(
        n("site-production"),
        { groupId: site.id, releaseChannelId: stack.production },
        { deletedWith: site },
      );
    }
    new User(n("emil"), {
      firstName: "Emil",
      lastName: "Lindqvist",
      email: "emil@acme.example",
      defaultRoleId: stack.adminRole,
    });
  };
};

/** The organization the program declares, with the ids it had after the first up. */
async function firstUp() {
  expect((await stack.engine.up(program())).errors).toEqual([]);
  const site = org().groups.find((g) => g.name === "Berlin Lab")!;
  const emil = org().users.find((u) => u.email === "emil@acme.example")!;
  return { site: site.id, emil: emil.id };
}

function expectUnchanged(ids: { site: string; emil: string }) {
  const after = org();
  expect(after.groups.filter((g) => g.name === "Berlin Lab").map((g) => g.id)).toEqual([ids.site]);
  expect(after.groups.find((g) => g.id === ids.site)!.releaseChannelIds).toEqual([stack.production]);
  expect(after.users.filter((u) => u.email === "emil@acme.example").map((u) => u.id)).toEqual([ids.emil]);
}

async function expectQuietUp() {
  const again = await stack.engine.up(program());
  expect(again.errors).toEqual([]);
  expect(again.operations).toEqual([]);
}

describe("deletedWith", () => {
  test.each(["site", "site-production"])(
    "%s renamed without aliases: the create is refused, nothing is deleted or detached",
    async (renamed) => {
      const ids = await firstUp();
      const result = await stack.engine.up(program({ [renamed]: `${renamed}-renamed` }));
      expect(result.ok).toBe(false);
      expect(result.errors[0]).toMatchObject({ op: "create", message: expect.stringContaining("aliases") });
      expect(result.steps.delete).toEqual([]);
      expectUnchanged(ids);
      await expectQuietUp();
    },
  );

  test("--replace of the group plans the attachment's replacement too; the group refuses before any write", async () => {
    const ids = await firstUp();
    const preview = await stack.engine.preview(program(), { replace: ["site"] });
    expect(preview.steps.replace.map((s) => [s.name, s.replaceKeys])).toEqual([
      ["site", ["id"]],
      ["site-production", ["deletedWith"]],
    ]);
    const result = await stack.engine.up(program(), { replace: ["site"] });
    expect(result.ok).toBe(false);
    expect(result.errors[0]).toMatchObject({ op: "create", message: expect.stringContaining("adoptId") });
    expect(result.operations).toEqual([]);
    expectUnchanged(ids);
    await expectQuietUp();
  });

  test("the group and its attachment dropped together: one Delete, the group's; the user stays", async () => {
    const ids = await firstUp();
    const result = await stack.engine.up(program({}, { withGroup: false }));
    expect(result.errors).toEqual([]);
    expect(result.operations.map((o) => [o.op, o.urn.split("::").pop()])).toEqual([["delete", "site"]]);
    expect(org().groups.filter((g) => g.name === "Berlin Lab")).toEqual([]);
    expect(
      org()
        .users.filter((u) => u.email === "emil@acme.example")
        .map((u) => u.id),
    ).toEqual([ids.emil]);
  });
});
