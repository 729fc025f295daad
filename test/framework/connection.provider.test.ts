// A resource's own `connection` through the real plugin: stack config points at the primary organization (acme);
// resources that carry a connection to the secondary organization (acme-staging) must land there, and later
// operations must use the connection recorded in state.
import { DeviceMgmtClient } from "../../provider/client";
import type { PropertyMap } from "../harness/providerPlugin";
import { failure, Managed, startStack, type Stack } from "../harness/providerStack";

let stack: Stack;
let staging: DeviceMgmtClient;
let toStaging: PropertyMap;
const SECONDARY = "acme-staging";

beforeAll(async () => {
  stack = await startStack();
  staging = new DeviceMgmtClient({
    baseUrl: stack.emulator.baseUrl,
    apiToken: stack.emulator.tokens.multiOrgAdminSecondary,
  });
  toStaging = { baseUrl: stack.emulator.baseUrl, apiToken: stack.emulator.tokens.multiOrgAdminSecondary };
});
afterAll(() => stack.close());

const primary = () => stack.emulator.snapshot();
const secondary = () => stack.emulator.snapshot(SECONDARY);

describe("per-resource connection", () => {
  it("a Group with a connection is made, read and deleted in the other organization", async () => {
    const group = await Managed.of(stack.plugin, "group", "staging-group");
    await group.create({ name: "Staging Only", configured: true, connection: toStaging });
    expect(secondary().groups.map((g) => g.id)).toContain(group.id);
    expect(primary().groups.map((g) => g.id)).not.toContain(group.id);

    const read = await group.read();
    expect(read.id).toBe(group.id);
    expect(await group.diff({ name: "Staging Only", configured: true, connection: toStaging })).toMatchObject(
      {
        changes: "none",
      },
    );
    // Delete sees only the recorded state; the stack's token (acme) would not even find the group.
    await group.delete();
    expect(secondary().groups.map((g) => g.id)).not.toContain(group.id);
  });

  it("a User, and release channels on a group and on a device, land in the other organization", async () => {
    const roles = Object.fromEntries((await staging.roles.all()).map((r) => [r.name, r.id]));
    const stagingGroup = (await staging.groups.create({ name: "Staging Lab", parentId: null })).id;
    await staging.groups.configure(stagingGroup);
    const channel = (await staging.apps.all()).find((a) => a.name === "Safety Briefing")!;
    let stable = "";
    for await (const c of staging.apps.releaseChannels(channel.id)) if (c.name === "Stable") stable = c.id;
    const device = (await staging.devices.all())[0];

    const user = await Managed.of(stack.plugin, "user", "staging-user");
    await user.create({
      firstName: "Sam",
      lastName: "Stage",
      email: "sam.stage@acme.example",
      defaultRoleId: roles["Member"],
      groupRoles: [{ roleId: roles["Group Viewer"], groupId: stagingGroup }],
      connection: toStaging,
    });
    const groupChannel = await Managed.of(stack.plugin, "groupReleaseChannel", "staging-grc");
    await groupChannel.create({ groupId: stagingGroup, releaseChannelId: stable, connection: toStaging });
    const deviceChannel = await Managed.of(stack.plugin, "deviceReleaseChannel", "staging-drc");
    await deviceChannel.create({ deviceId: device.id, releaseChannelId: stable, connection: toStaging });

    expect(secondary().users.find((u) => u.id === user.id)).toMatchObject({ firstName: "Sam" });
    expect(primary().users.find((u) => u.email === "sam.stage@acme.example")).toBeUndefined();
    expect(secondary().groupReleaseChannels).toContainEqual({
      groupId: stagingGroup,
      releaseChannelId: stable,
    });
    expect(secondary().devices.find((d) => d.id === device.id)?.releaseChannelIds).toEqual([stable]);
    for (const resource of [user, groupChannel, deviceChannel])
      expect((await resource.read()).id).toBe(resource.id);

    for (const resource of [user, groupChannel, deviceChannel]) await resource.delete();
    expect(secondary().users.find((u) => u.id === user.id)).toBeUndefined();
    expect(secondary().groupReleaseChannels).toEqual([]);
    expect(secondary().devices.find((d) => d.id === device.id)?.releaseChannelIds).toEqual([]);
  });

  it("a DeviceMigration with a connection migrates out of that organization", async () => {
    // Morgan is in both organizations; the connection makes acme-staging the source.
    const device = (await staging.devices.all())[1];
    const moved = await Managed.of(stack.plugin, "deviceMigration", "staging-to-acme");
    await moved.create({ deviceId: device.id, organizationSlug: "acme", connection: toStaging });
    expect(primary().devices.map((d) => d.id)).toContain(device.id);
    expect(secondary().devices.map((d) => d.id)).not.toContain(device.id);
    expect((await moved.read()).id).toBe(moved.id);
  });

  it("a new token for the same organization is an in-place update that reaches the state a delete uses", async () => {
    // Dana's token makes the user; the program then moves to Morgan's token, and Dana leaves the company.
    const dana = { baseUrl: stack.emulator.baseUrl, apiToken: stack.emulator.tokens.noMigrate };
    const morgan = { baseUrl: stack.emulator.baseUrl, apiToken: stack.emulator.tokens.multiOrgAdmin };
    const member = (await stack.admin.roles.all()).find((r) => r.name === "Member")!.id;
    const declared = {
      firstName: "Rota",
      lastName: "Ted",
      email: "rota.ted@acme.example",
      defaultRoleId: member,
    };
    const user = await Managed.of(stack.plugin, "user", "rotated");
    await user.create({ ...declared, connection: dana });

    expect(await user.diff({ ...declared, connection: morgan })).toMatchObject({
      changes: "some",
      replaces: [],
    });
    stack.emulator.resetStats();
    const outs = await user.update({ ...declared, connection: morgan });
    expect(stack.emulator.stats().writes).toBe(0);
    expect(outs.connection).toEqual(morgan);
    expect(await user.diff({ ...declared, connection: morgan })).toMatchObject({ changes: "none" });

    const danaUser = primary().users.find((u) => u.email === "dana.manager@acme.example")!;
    await stack.admin.users.delete(danaUser.id);
    // Dana's token is dead now; the token of a connection that cannot answer is still only an update.
    expect(await user.diff({ ...declared, connection: dana })).toMatchObject({
      changes: "some",
      replaces: [],
    });
    await user.delete();
    expect(primary().users.find((u) => u.id === user.id)).toBeUndefined();
  });

  it("a User whose connection now reaches another organization is refused at diff, whatever its URL", async () => {
    const roles = Object.fromEntries((await staging.roles.all()).map((r) => [r.name, r.id]));
    const declared = { firstName: "Mo", lastName: "Ving", email: "mo.ving@acme.example" };
    const user = await Managed.of(stack.plugin, "user", "moving");
    await user.create({ ...declared, defaultRoleId: roles["Member"], connection: toStaging });

    const acmeToken = { baseUrl: stack.emulator.baseUrl, apiToken: stack.emulator.tokens.multiOrgAdmin };
    const acmeMember = (await stack.admin.roles.all()).find((r) => r.name === "Member")!.id;
    const inAcme = { ...declared, defaultRoleId: acmeMember };
    // A user's replacement is delete-first (an e-mail exists once), which across organizations would delete the
    // user in acme-staging before anything is made in acme: refused at diff (preview), naming the fix.
    const moveRefused = /User: connection now reaches another organization.*new resource name/s;
    expect((await failure(user.diff({ ...inAcme, connection: acmeToken }))).message).toMatch(moveRefused);
    // Dropping the connection falls back to the stack's organization (acme): also another organization.
    expect((await failure(user.diff(inAcme))).message).toMatch(moveRefused);
    expect(secondary().users.find((u) => u.id === user.id)).toMatchObject({ email: "mo.ving@acme.example" });
    expect(primary().users.find((u) => u.email === "mo.ving@acme.example")).toBeUndefined();
    await user.delete();
  });

  it("never shows a connection's token in errors or the plugin's output", async () => {
    const user = await Managed.of(stack.plugin, "user", "refused-in-staging");
    const error = await failure(
      user.create({
        firstName: "No",
        lastName: "Role",
        email: "no.role@acme.example",
        defaultRoleId: "90909090-9090-4909-8909-909090909090",
        connection: toStaging,
      }),
    );
    expect(error.message).toMatch(/422/);
    const secret = stack.emulator.tokens.multiOrgAdminSecondary.split("|")[1];
    expect(error.message).not.toContain(secret);
    expect(stack.plugin.stderr()).not.toContain(secret);
    expect(stack.plugin.stdout()).not.toContain(secret);
  });
});
