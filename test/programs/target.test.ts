// `pulumi up --target` / `--exclude` with the real provider against the emulator (issue 22): a rename without
// aliases or a --replace under --target must not delete, detach or duplicate a live object the program still
// declares. The engine (pulumi/pulumi step_generator.go, isIncludedInOperation, GenerateDeletes): an untargeted
// resource is neither checked nor changed, an untargeted dropped one is not deleted, an untargeted new one is
// not created. Each test asserts the organization afterwards.
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

/** The site program (a group with a release channel attached, and a user); `names` renames resources in code. */
const program = (names: Record<string, string> = {}) => siteProgram(stack, { names });
const firstUp = () => firstSiteUp(stack, program());
const expectUnchanged = (ids: SiteIds) => expectSiteUnchanged(stack, ids);
const expectQuietUp = () => expectNoChanges(stack, program());

describe("--target after a rename without aliases", () => {
  test.each(["site", "emil", "site-production"])(
    "targeting the new name of %s: its create is refused, nothing is deleted",
    async (renamed) => {
      const ids = await firstUp();
      const newName = `${renamed}-renamed`;
      const result = await stack.engine.up(program({ [renamed]: newName }), { target: [newName] });
      expect(result.ok).toBe(false);
      expect(result.errors[0]).toMatchObject({ op: "create", message: expect.stringContaining("aliases") });
      expect(result.steps.delete).toEqual([]);
      expectUnchanged(ids);
      // The old name is still in the state: the program with the old name (or an alias) is back to no change.
      expect(stack.engine.resource(renamed).id).toBeDefined();
      await expectQuietUp();
      expectUnchanged(ids);
    },
  );

  test("targeting something else: neither name is touched", async () => {
    const ids = await firstUp();
    const result = await stack.engine.up(program({ site: "site-renamed" }), { target: ["emil"] });
    expect(result.errors).toEqual([]);
    expect(result.operations).toEqual([]);
    expectUnchanged(ids);
    expect(stack.engine.resource("site").id).toBe(ids.site);
    await expectQuietUp();
  });

  test("excluding the renamed group: its attachment's check fails (unknown group id), nothing is detached", async () => {
    // The new name is not created, so its id is unknown in the up; the engine leaves unknowns out of Check
    // (provider_plugin.go, KeepUnknowns = DryRun) and the attachment's Check refuses the missing groupId.
    const ids = await firstUp();
    const result = await stack.engine.up(program({ site: "site-renamed" }), {
      exclude: ["site", "site-renamed"],
    });
    expect(result.ok).toBe(false);
    expect(result.errors).toEqual([
      expect.objectContaining({ op: "check", urn: expect.stringContaining("::site-production") }),
    ]);
    expect(result.operations).toEqual([]);
    expectUnchanged(ids);
  });

  test("excluding the renamed group and its dependents: neither name is touched", async () => {
    const ids = await firstUp();
    const result = await stack.engine.up(program({ site: "site-renamed" }), {
      exclude: ["site", "site-renamed"],
      excludeDependents: true,
    });
    expect(result.errors).toEqual([]);
    expect(result.operations).toEqual([]);
    expectUnchanged(ids);
    expect(stack.engine.resource("site").id).toBe(ids.site);
  });
});

describe("--target with --replace", () => {
  test("a targeted group replacement is refused before any write; the attachment stays", async () => {
    const ids = await firstUp();
    const result = await stack.engine.up(program(), { target: ["site"], replace: ["site"] });
    expect(result.ok).toBe(false);
    expect(result.errors[0]).toMatchObject({ op: "create", message: expect.stringContaining("adoptId") });
    expect(result.operations).toEqual([]);
    expectUnchanged(ids);
  });

  test("a --replace outside the targets does nothing", async () => {
    const ids = await firstUp();
    const result = await stack.engine.up(program(), { target: ["emil"], replace: ["site"] });
    expect(result.errors).toEqual([]);
    expect(result.operations).toEqual([]);
    expectUnchanged(ids);
  });

  test("a targeted user replacement (delete-first) ends with one user; the group is untouched", async () => {
    const ids = await firstUp();
    const result = await stack.engine.up(program(), { target: ["emil"], replace: ["emil"] });
    expect(result.errors).toEqual([]);
    expect(result.steps.replace.map((s) => s.name)).toEqual(["emil"]);
    const users = org().users.filter((u) => u.email === "emil@acme.example");
    expect(users).toHaveLength(1);
    expect(
      org()
        .groups.filter((g) => g.name === "Berlin Lab")
        .map((g) => g.id),
    ).toEqual([ids.site]);
    expect(org().groups.find((g) => g.id === ids.site)!.releaseChannelIds).toEqual([stack.production]);
    await expectQuietUp();
  });
});

test("targeting the old name of a renamed group: nothing is deleted, in preview as in up", async () => {
  // The engine sends the provider nothing about the new name (an untargeted new resource is not even checked).
  // The old name is targeted, but the attachment, untargeted, keeps its old state, and the engine keeps what
  // that state depends on (pkg/resource/deploy/step_generator.go: a SameStep for an untargeted resource first
  // emits SameSteps for its old dependencies, "invalid" otherwise), so the targeted old name is "same" and
  // GenerateDeletes skips it (isOperatedOn). Every resource is same; the group stays.
  const ids = await firstUp();
  const renamed = program({ site: "site-renamed" });
  const preview = await stack.engine.preview(renamed, { target: ["site"] });
  expect(preview.errors).toEqual([]);
  expect(preview.steps.delete).toEqual([]);
  expect(preview.steps.create).toEqual([]);
  expect(preview.steps.same.map((s) => s.name)).toEqual(expect.arrayContaining(["site", "site-production"]));
  const result = await stack.engine.up(renamed, { target: ["site"] });
  expect(result.errors).toEqual([]);
  expect(result.operations).toEqual([]);
  expectUnchanged(ids);
  expect(stack.engine.resource("site").id).toBe(ids.site);
});
