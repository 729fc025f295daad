// GroupReleaseChannel and DeviceReleaseChannel through the real dynamic-provider plugin against the emulator.
import type { ResourceKind } from "../../../provider/kindKeys";
import type { PropertyMap } from "../../harness/providerPlugin";
import { failure, Managed, startStack, type Stack } from "../../harness/providerStack";

let stack: Stack;
/** Release channel ids by "App/Channel". */
let channels: Record<string, string>;
let deviceIds: string[];

beforeAll(async () => {
  // Every device test takes its own ungrouped device.
  stack = await startStack({ emulator: { seed: { devices: 16 } } });
  channels = {};
  for (const app of await stack.admin.apps.all()) {
    for await (const channel of stack.admin.apps.releaseChannels(app.id)) {
      channels[`${app.name}/${channel.name}`] = channel.id;
    }
  }
  deviceIds = (await stack.admin.devices.all()).map((d) => d.id);
});
afterAll(() => stack.close());

const channel = (name: string) => {
  const id = channels[name];
  if (!id) throw new Error(`no seeded release channel ${name}`);
  return id;
};
const PRODUCTION = () => channel("Training Simulator/Production");
const BETA = () => channel("Training Simulator/Beta");
const MISSING = "12121212-1212-4212-8212-121212121212";
const withoutProvider = (props: PropertyMap | undefined) => {
  const { __provider: _provider, ...rest } = props ?? {};
  return rest;
};

async function configuredGroup(name: string): Promise<string> {
  const group = await stack.admin.groups.create({ name, parentId: null });
  await stack.admin.groups.configure(group.id);
  return group.id;
}

/** What differs between the two kinds; everything else is the same contract. */
interface Owner {
  kind: ResourceKind;
  ownerKey: "groupId" | "deviceId";
  /** A fresh owner that accepts release channels. */
  make(name: string): Promise<string>;
  attachedIds(ownerId: string): string[];
  attachOutside(ownerId: string, rcId: string): Promise<void>;
  detachOutside(ownerId: string, rcId: string): Promise<void>;
}

let nextDevice = 0;
const owners: Owner[] = [
  {
    kind: "groupReleaseChannel",
    ownerKey: "groupId",
    make: configuredGroup,
    attachedIds: (groupId) =>
      stack.emulator
        .snapshot()
        .groupReleaseChannels.filter((a) => a.groupId === groupId)
        .map((a) => a.releaseChannelId),
    attachOutside: (groupId, rcId) => stack.admin.groups.addReleaseChannel(groupId, rcId),
    detachOutside: (groupId, rcId) => stack.admin.groups.removeReleaseChannel(groupId, rcId),
  },
  {
    kind: "deviceReleaseChannel",
    ownerKey: "deviceId",
    // Seeded devices are ungrouped; each test takes its own.
    make: async () => deviceIds[nextDevice++],
    attachedIds: (deviceId) =>
      stack.emulator.snapshot().devices.find((d) => d.id === deviceId)?.releaseChannelIds ?? [],
    attachOutside: (deviceId, rcId) => stack.admin.devices.addReleaseChannel(deviceId, rcId),
    detachOutside: (deviceId, rcId) => stack.admin.devices.removeReleaseChannel(deviceId, rcId),
  },
];

describe.each(owners)("$kind", (owner) => {
  const { kind, ownerKey } = owner;
  const inputs = (ownerId: string, rcId: string, extra: PropertyMap = {}): PropertyMap => ({
    [ownerKey]: ownerId,
    releaseChannelId: rcId,
    ...extra,
  });

  it("attaches, reads back without a diff, detaches, and detaching again succeeds", async () => {
    const ownerId = await owner.make("Lifecycle");
    const attachment = await Managed.of(stack.plugin, kind, `${kind}-lifecycle`);
    const outs = await attachment.create(inputs(ownerId, PRODUCTION()));
    expect(attachment.id).toBe(`${ownerId}/${PRODUCTION()}`);
    expect(withoutProvider(outs)).toEqual({
      [ownerKey]: ownerId,
      releaseChannelId: PRODUCTION(),
      organizationId: stack.emulator.orgs.primary.id,
    });
    expect(owner.attachedIds(ownerId)).toEqual([PRODUCTION()]);

    expect(await attachment.diff(inputs(ownerId, PRODUCTION()))).toMatchObject({ changes: "none" });
    const read = await attachment.read();
    expect(read.id).toBe(attachment.id);
    // Nothing changed outside: no inputs come back, so the engine keeps the recorded ones (step.go, RefreshStep).
    expect(read.inputs).toBeUndefined();
    expect(withoutProvider(attachment.inputs)).toEqual({
      [ownerKey]: ownerId,
      releaseChannelId: PRODUCTION(),
      __organization: stack.emulator.orgs.primary.id, // where it lives, for the next check (organization.ts)
    });
    expect(await attachment.diff(inputs(ownerId, PRODUCTION()))).toMatchObject({ changes: "none" });

    await attachment.delete();
    expect(owner.attachedIds(ownerId)).toEqual([]);
    await attachment.delete();
  });

  it("replaces on a change of release channel and on a change of owner", async () => {
    const first = await owner.make("First");
    const second = await owner.make("Second");
    const attachment = await Managed.of(stack.plugin, kind, `${kind}-replaced`);
    await attachment.create(inputs(first, PRODUCTION()));

    expect(await attachment.diff(inputs(first, BETA()))).toMatchObject({
      changes: "some",
      replaces: ["releaseChannelId"],
    });
    await attachment.replace(inputs(first, BETA()));
    expect(attachment.id).toBe(`${first}/${BETA()}`);
    expect(owner.attachedIds(first)).toEqual([BETA()]);

    expect(await attachment.diff(inputs(second, BETA()))).toMatchObject({
      changes: "some",
      replaces: [ownerKey],
    });
    await attachment.replace(inputs(second, BETA()));
    expect(owner.attachedIds(first)).toEqual([]);
    expect(owner.attachedIds(second)).toEqual([BETA()]);
    await attachment.delete();
  });

  it("reports an attachment removed outside Pulumi as gone on refresh, and the next up attaches it again", async () => {
    const ownerId = await owner.make("Drift");
    const attachment = await Managed.of(stack.plugin, kind, `${kind}-drift`);
    await attachment.create(inputs(ownerId, PRODUCTION()));
    await owner.detachOutside(ownerId, PRODUCTION());
    expect((await attachment.read()).id).toBe("");
    await attachment.delete(); // a destroy without refresh: already gone is fine

    const again = await Managed.of(stack.plugin, kind, `${kind}-drift`);
    await again.create(inputs(ownerId, PRODUCTION()));
    expect(owner.attachedIds(ownerId)).toEqual([PRODUCTION()]);
    await again.delete();
  });

  it("refuses to take over an attachment that exists unless adoptId names it", async () => {
    const ownerId = await owner.make("Adopt");
    await owner.attachOutside(ownerId, PRODUCTION());
    const silent = await Managed.of(stack.plugin, kind, `${kind}-silent`);
    const refusal = await failure(silent.create(inputs(ownerId, PRODUCTION())));
    expect(refusal.message).toContain(`adoptId: "${ownerId}/${PRODUCTION()}"`);
    expect(refusal.message).toContain("aliases");
    expect(owner.attachedIds(ownerId)).toEqual([PRODUCTION()]);

    const attachment = await Managed.of(stack.plugin, kind, `${kind}-adopt`);
    await attachment.create({ ...inputs(ownerId, PRODUCTION()), adoptId: `${ownerId}/${PRODUCTION()}` });
    expect(attachment.id).toBe(`${ownerId}/${PRODUCTION()}`);
    expect(owner.attachedIds(ownerId)).toEqual([PRODUCTION()]);
  });

  it("reads an attachment known by its id only (<owner>/<releaseChannelId>), refusing an id of another shape", async () => {
    const ownerId = await owner.make("Import");
    await owner.attachOutside(ownerId, BETA());
    const imported = await Managed.of(stack.plugin, kind, `${kind}-import`);
    const read = await imported.readById(`${ownerId}/${BETA()}`);
    expect(read.id).toBe(`${ownerId}/${BETA()}`);
    expect(withoutProvider(read.inputs)).toEqual({
      [ownerKey]: ownerId,
      releaseChannelId: BETA(),
      __organization: stack.emulator.orgs.primary.id,
    });
    expect(await imported.diff(inputs(ownerId, BETA()))).toMatchObject({ changes: "none" });
    const notAttached = await Managed.of(stack.plugin, kind, `${kind}-import-absent`);
    expect((await notAttached.readById(`${ownerId}/${PRODUCTION()}`)).id).toBe("");

    const malformed = await Managed.of(stack.plugin, kind, `${kind}-malformed`);
    const error = await failure(malformed.readById(ownerId));
    expect(error.message).toMatch(new RegExp(`<${ownerKey}>/<releaseChannelId>`));
    await imported.delete();
    expect(owner.attachedIds(ownerId)).toEqual([]);
  });

  it("attaches once when the answer to the attach was lost", async () => {
    const ownerId = await owner.make("Lost");
    const attachment = await Managed.of(stack.plugin, kind, `${kind}-lost`);
    stack.emulator.setFaults({ dropAfterWriteRate: 1 });
    try {
      await attachment.create(inputs(ownerId, PRODUCTION()));
    } finally {
      stack.emulator.setFaults({ dropAfterWriteRate: 0 });
    }
    expect(owner.attachedIds(ownerId)).toEqual([PRODUCTION()]);
    await attachment.delete();
  });

  it("explains an owner or release channel that does not exist", async () => {
    const attachment = await Managed.of(stack.plugin, kind, `${kind}-missing`);
    const noOwner = await failure(attachment.create(inputs(MISSING, PRODUCTION())));
    expect(noOwner.message).toMatch(/does not exist/);
    expect(noOwner.message).toContain(MISSING);

    const ownerId = await owner.make("No channel");
    const noChannel = await failure(attachment.create(inputs(ownerId, MISSING)));
    expect(noChannel.message).toMatch(/422/);
    expect(noChannel.message).toMatch(/releaseChannelId/);
    expect(owner.attachedIds(ownerId)).toEqual([]);
  });

  it("reports every bad input in check, one failure per property, before any API call", async () => {
    const attachment = await Managed.of(stack.plugin, kind, `${kind}-bad`);
    stack.emulator.resetStats();
    const { failures } = await attachment.check({
      [ownerKey]: "first",
      releaseChannelId: 42,
      connection: { apiToken: "" },
      adoptId: MISSING,
    });
    expect(failures.map((f) => f.property).sort()).toEqual(
      ["adoptId", "connection", ownerKey, "releaseChannelId"].sort(),
    );
    const missing = await attachment.check({});
    expect(missing.failures.map((f) => f.property).sort()).toEqual([ownerKey, "releaseChannelId"].sort());
    expect(stack.emulator.stats().requests).toBe(0);
  });

  it("a read-only token gets a 403 and an unknown token a 401, neither printing the token", async () => {
    const ownerId = await owner.make("Tokens");
    const withToken = (apiToken: string) =>
      inputs(ownerId, PRODUCTION(), { connection: { baseUrl: stack.emulator.baseUrl, apiToken } });
    const attachment = await Managed.of(stack.plugin, kind, `${kind}-tokens`);
    const forbidden = await failure(attachment.create(withToken(stack.emulator.tokens.readOnly)));
    expect(forbidden.message).toMatch(/403/);
    const unknown = await failure(
      attachment.create(withToken("97|NotAnAttachmentToken000000000000000000000")),
    );
    expect(unknown.message).toMatch(/401/);
    expect(unknown.message + stack.plugin.stderr()).not.toContain("NotAnAttachmentToken");
    expect(owner.attachedIds(ownerId)).toEqual([]);
  });
});

describe("GroupReleaseChannel preconditions", () => {
  it("refuses an unconfigured group with a message that says to configure it", async () => {
    const folder = await stack.admin.groups.create({ name: "Folder", parentId: null });
    const attachment = await Managed.of(stack.plugin, "groupReleaseChannel", "on-folder");
    const error = await failure(attachment.create({ groupId: folder.id, releaseChannelId: PRODUCTION() }));
    expect(error.message).toMatch(/not configured/);
    expect(error.message).toMatch(/configured: true/);
    expect(error.message).toContain("Folder");
  });

  it("reports the attachment gone when its group was deleted outside Pulumi; delete still succeeds", async () => {
    const groupId = await configuredGroup("Doomed");
    const attachment = await Managed.of(stack.plugin, "groupReleaseChannel", "doomed");
    await attachment.create({ groupId, releaseChannelId: PRODUCTION() });
    await stack.admin.groups.delete(groupId);
    expect((await attachment.read()).id).toBe("");
    await attachment.delete();
  });
});

describe("DeviceReleaseChannel preconditions", () => {
  it("refuses a device that is in a group, saying to attach to the group instead", async () => {
    const groupId = await configuredGroup("Holding");
    const deviceId = deviceIds[nextDevice++];
    await stack.admin.devices.update(deviceId, { groupId });
    const attachment = await Managed.of(stack.plugin, "deviceReleaseChannel", "grouped");
    const error = await failure(attachment.create({ deviceId, releaseChannelId: PRODUCTION() }));
    expect(error.message).toMatch(/is in group/);
    expect(error.message).toContain(groupId);
    expect(error.message).toMatch(/GroupReleaseChannel/);
  });

  it("a device put into a group outside Pulumi loses its channel: refresh says gone and delete succeeds", async () => {
    const groupId = await configuredGroup("Absorbing");
    const deviceId = deviceIds[nextDevice++];
    const attachment = await Managed.of(stack.plugin, "deviceReleaseChannel", "absorbed");
    await attachment.create({ deviceId, releaseChannelId: PRODUCTION() });
    await stack.admin.devices.update(deviceId, { groupId });
    // A destroy without refresh first: the channel is no longer there to detach.
    await attachment.delete();
    expect((await attachment.read()).id).toBe("");
  });
});
