// The `deletedWith` option with the real provider against the emulator (issue 22): a group's release-channel
// attachment declared `deletedWith` its group. A rename without aliases or a --replace must not delete, detach
// or duplicate a live object the program still declares. The engine (pulumi/pulumi step.go, isDeletedWith: no
// Delete call for a resource deleted with another the run deletes; step_generator.go, diff(): replaced with its
// deletedWith resource). Each test asserts the organization afterwards.
import {
  expectNoChanges,
  expectSiteUnchanged,
  firstSiteUp,
  siteProgram,
  useFlagStack,
  type SiteIds,
} from "../harness/flagStack";

const stack = useFlagStack();
const org = () => stack.org();

/** The site program with the attachment deleted with its group; `names` renames in code. */
const program = (names: Record<string, string> = {}, { withGroup = true } = {}) =>
  siteProgram(stack, { names, withGroup, deletedWith: true });
const firstUp = () => firstSiteUp(stack, program());
const expectUnchanged = (ids: SiteIds) => expectSiteUnchanged(stack, ids);
const expectQuietUp = () => expectNoChanges(stack, program());

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
    stack.emulator.resetStats();
    const result = await stack.engine.up(program({}, { withGroup: false }));
    expect(result.errors).toEqual([]);
    // The engine reports a delete step for both (its events do not say that the attachment's skipped the
    // provider's Delete), so the one write is read from the emulator: the group's delete, no detach.
    expect(result.steps.delete.map((s) => s.name).sort()).toEqual(["site", "site-production"]);
    const writes = Object.keys(stack.emulator.stats().byRoute).filter((route) => !route.startsWith("GET "));
    expect(writes).toEqual(["DELETE /groups/{groupId}"]);
    expect(stack.emulator.stats().byRoute["DELETE /groups/{groupId}"]).toBe(1);
    expect(org().groups.filter((g) => g.name === "Berlin Lab")).toEqual([]);
    expect(
      org()
        .users.filter((u) => u.email === "emil@acme.example")
        .map((u) => u.id),
    ).toEqual([ids.emil]);
  });
});
