// `pulumi refresh` after a delete outside Pulumi, `refresh --target`, and `up --target` with a URN glob, with the
// real provider against the emulator (issue 22). The engine (pulumi/pulumi): a refresh removes what it
// finds gone and repairs what pointed at it (deployment_executor.go, rebuildBaseState), reads only its targets
// (refresh), and targets may be globs (deployment.go, UrnTargets). No such run may delete, detach or duplicate a
// live object the program still declares. Each test asserts the organization afterwards, read from the emulator.
import { DeviceMgmtClient } from "../../provider/client";
import { expectNoChanges, firstSiteUp, siteProgram, useFlagStack } from "../harness/flagStack";

const stack = useFlagStack();
const org = () => stack.org();

/** The site program: a configured group with a release channel attached, and a user. */
const program = () => siteProgram(stack);
const firstUp = () => firstSiteUp(stack, program());

const admin = () =>
  new DeviceMgmtClient({ baseUrl: stack.emulator.baseUrl, apiToken: stack.emulator.tokens.admin });

/** The organization is what the program declares: one group with the channel, one user (with that id). */
function expectDeclared(emilId: string) {
  const groups = org().groups.filter((g) => g.name === "Berlin Lab");
  expect(groups).toHaveLength(1);
  expect(groups[0].releaseChannelIds).toEqual([stack.production]);
  expect(org().groupReleaseChannels.filter((a) => a.releaseChannelId === stack.production)).toEqual([
    { groupId: groups[0].id, releaseChannelId: stack.production },
  ]);
  expect(
    org()
      .users.filter((u) => u.email === "emil@acme.example")
      .map((u) => u.id),
  ).toEqual([emilId]);
  return groups[0].id;
}

const expectQuietUp = () => expectNoChanges(stack, program());

describe("a group deleted outside Pulumi", () => {
  test("refresh finds the group and its attachment gone; up makes them again, once each", async () => {
    const ids = await firstUp();
    await admin().groups.delete(ids.site);
    expect(org().groups.filter((g) => g.name === "Berlin Lab")).toEqual([]);

    const refresh = await stack.engine.refresh();
    expect(refresh.errors).toEqual([]);
    expect(refresh.steps.delete.map((s) => s.name).sort()).toEqual(["site", "site-production"]);
    expect(stack.engine.resource("emil").id).toBe(ids.emil);

    const up = await stack.engine.up(program());
    expect(up.errors).toEqual([]);
    expect(up.steps.create.map((s) => s.name).sort()).toEqual(["site", "site-production"]);
    expect(expectDeclared(ids.emil)).not.toBe(ids.site);
    await expectQuietUp();
  });

  test("refresh --target of the group alone: the attachment stays in the state, pointing at nothing; up replaces it onto the new group without a duplicate", async () => {
    const ids = await firstUp();
    await admin().groups.delete(ids.site);
    const groupUrn = stack.engine.resource("site").urn;
    expect(stack.engine.resource("site-production").dependencies).toContain(groupUrn);

    const refresh = await stack.engine.refresh({ target: [groupUrn] });
    expect(refresh.errors).toEqual([]);
    expect(refresh.steps.delete.map((s) => s.name)).toEqual(["site"]);
    // The attachment was not read: it stays, its dependency on the gone group repaired away.
    expect(stack.engine.resource("site-production").dependencies).not.toContain(groupUrn);

    const up = await stack.engine.up(program());
    expect(up.errors).toEqual([]);
    expect(up.steps.create.map((s) => s.name)).toEqual(["site"]);
    expect(up.steps.replace.map((s) => s.name)).toEqual(["site-production"]);
    expectDeclared(ids.emil);
    await expectQuietUp();
  });

  test("up --refresh does the same in one run", async () => {
    const ids = await firstUp();
    await admin().groups.delete(ids.site);
    const up = await stack.engine.up(program(), { refresh: true });
    expect(up.errors).toEqual([]);
    expect(up.refreshSteps!.delete.map((s) => s.name).sort()).toEqual(["site", "site-production"]);
    expect(up.steps.create.map((s) => s.name).sort()).toEqual(["site", "site-production"]);
    expectDeclared(ids.emil);
    await expectQuietUp();
  });
});

describe("refresh --target, then up --target with a glob", () => {
  test("a portal rename read by a targeted refresh is reverted by a glob-targeted up; nothing else moves", async () => {
    const ids = await firstUp();
    await admin().groups.update(ids.site, { name: "Berlin Lab (portal)", parentId: null });
    await admin().users.update(ids.emil, { firstName: "Emilia" });

    const refresh = await stack.engine.refresh({ target: ["site"] });
    expect(refresh.errors).toEqual([]);
    expect(refresh.steps.update.map((s) => s.name)).toEqual(["site"]);
    // The user was not read: its drift is not in the state, so the glob-targeted up below cannot see it either.
    expect(stack.engine.resource("emil").outputs.firstName).toBe("Emil");

    const up = await stack.engine.up(program(), { target: ["**::site*"] });
    expect(up.errors).toEqual([]);
    expect(up.steps.update.map((s) => s.name)).toEqual(["site"]);
    expect(up.steps.same.map((s) => s.name).sort()).toEqual(
      expect.arrayContaining(["emil", "site-production"]),
    );
    expect(up.steps.delete).toEqual([]);
    expect(up.steps.replace).toEqual([]);
    expect(expectDeclared(ids.emil)).toBe(ids.site);
    expect(org().users.find((u) => u.id === ids.emil)!.firstName).toBe("Emilia");

    // A full refresh and up then put the user right as well.
    expect((await stack.engine.refresh()).steps.update.map((s) => s.name)).toEqual(["emil"]);
    expect((await stack.engine.up(program())).steps.update.map((s) => s.name)).toEqual(["emil"]);
    expect(org().users.find((u) => u.id === ids.emil)!.firstName).toBe("Emil");
    await expectQuietUp();
  });

  test("a glob-targeted up after the group was deleted and refreshed by target makes the pair again, once", async () => {
    const ids = await firstUp();
    await admin().groups.delete(ids.site);
    expect((await stack.engine.refresh({ target: ["**::site"] })).errors).toEqual([]);

    const up = await stack.engine.up(program(), { target: ["**::site*"] });
    expect(up.errors).toEqual([]);
    expect(up.steps.create.map((s) => s.name)).toEqual(["site"]);
    expect(up.steps.replace.map((s) => s.name)).toEqual(["site-production"]);
    expect(up.steps.delete).toEqual([]);
    expectDeclared(ids.emil);
    await expectQuietUp();
  });

  test("a glob that matches nothing changes nothing, and is no error", async () => {
    const ids = await firstUp();
    const up = await stack.engine.up(program(), { target: ["**::nothing-*"] });
    expect(up.errors).toEqual([]);
    expect(up.operations).toEqual([]);
    expect(expectDeclared(ids.emil)).toBe(ids.site);
  });
});
