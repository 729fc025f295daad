// Issue 40 items 4 and 5: inputs that used to pass check (and reach the API as its 422, or fail only after a
// write) are refused at check through the real plugin, each failure naming the property and the fix; the
// emulator's write count shows that nothing was written. And a token of another organization is named as that
// at check, before any look-up in the wrong organization can read a good id as missing.
import type { ResourceKind } from "../../provider/kindKeys";
import { startProviderPlugin, type PropertyMap, type ProviderPlugin } from "../harness/providerPlugin";
import { Managed, repoRoot, startStack, type Stack } from "../harness/providerStack";

let stack: Stack;
let folder: string;
let site: string;
let ungrouped: string;
let app: string;
let video: string;
let file: string;
const MISSING = "12121212-1212-4212-8212-121212121212";

beforeAll(async () => {
  stack = await startStack({ emulator: { seed: { devices: 6 } } });
  folder = (await stack.admin.groups.create({ name: "Region", parentId: null })).id;
  site = (
    await stack.admin.groups.configure(
      (await stack.admin.groups.create({ name: "Site", parentId: folder })).id,
    )
  ).id;
  ungrouped = (await stack.admin.devices.all()).find((d) => !d.group)!.id;
  app = (await stack.admin.apps.all())[0].id;
  video = (await stack.admin.videos.all())[0].id;
  file = (await stack.admin.files.all())[0].id;
});
afterAll(() => stack.close());

const writes = () => stack.emulator.stats().writes;

/** The failures of one check (property → reason), and that the check wrote nothing. */
async function checkOf(kind: ResourceKind, news: PropertyMap, olds: PropertyMap = {}) {
  const before = writes();
  const managed = await Managed.of(stack.plugin, kind, `${kind}-${Math.random()}`);
  managed.inputs = olds;
  const result = await managed.check(news);
  expect(writes()).toBe(before);
  return Object.fromEntries(result.failures.map((f) => [f.property, f.reason]));
}

describe("a token of another organization", () => {
  let staging: ProviderPlugin;
  beforeAll(async () => {
    staging = await startProviderPlugin({
      cwd: repoRoot,
      env: { DEVICEMGMT_API_TOKEN: "", DEVICEMGMT_BASE_URL: "" },
    });
    await staging.configure(
      {
        "devicemgmt:baseUrl": stack.emulator.baseUrl,
        "devicemgmt:apiToken": stack.emulator.tokens.multiOrgAdminSecondary,
      },
      ["devicemgmt:apiToken"],
    );
  });
  afterAll(() => staging.close());

  const otherFile = async () => (await stack.admin.files.all())[1].id;
  const cases: Array<[ResourceKind, () => Promise<[PropertyMap, PropertyMap]>]> = [
    [
      "groupFile",
      async () => [
        { groupId: site, fileId: file },
        { groupId: site, fileId: await otherFile() },
      ],
    ],
    [
      "headsetExperience",
      async () => {
        const launcher = (apps: string[]) => ({
          groupId: site,
          mode: "in-house-launcher",
          launcherContent: { type: "app", id: apps[0] },
          visibleContents: apps.map((id) => ({ type: "app", id })),
          returnToLauncherViaHomeButton: true,
          sharedModeSettings: {
            enableOfflineMode: false,
            requireManagedMetaLogin: false,
            enableControllerFree: true,
            adjustDeviceFit: false,
            defaultToStationaryBoundary: false,
          },
        });
        const apps = (await stack.admin.apps.all()).map((a) => a.id);
        return [launcher([apps[0]]), launcher([apps[0], apps[1]])];
      },
    ],
    [
      "deviceExperience",
      async () => {
        const apps = (await stack.admin.apps.all()).map((a) => a.id);
        const lock = (ids: string[]) => ({
          deviceId: ungrouped,
          mode: "lock-task",
          visibleContents: ids.map((id) => ({ type: "app", id })),
        });
        return [lock([apps[0]]), lock([apps[0], apps[2]])];
      },
    ],
  ];

  it.each(cases)(
    "a changed %s is refused at check as living in the other organization, not as a missing id",
    async (kind, declarations) => {
      const [declared, changed] = await declarations();
      const managed = await Managed.of(stack.plugin, kind, `pinned-${kind}`);
      await managed.create(declared);
      expect(managed.inputs.__organization).toBe(stack.emulator.orgs.primary.id);

      // The next run's plugin, with the stack's token switched to acme-staging's.
      const next = await Managed.of(staging, kind, `pinned-${kind}`);
      next.inputs = managed.inputs;
      stack.emulator.resetStats();
      const result = await next.check(changed);
      expect(result.failures).toHaveLength(1);
      expect(result.failures[0].reason).toMatch(
        new RegExp(
          `lives in organization ${stack.emulator.orgs.primary.id}, but the API token in use reaches ` +
            `organization ${stack.emulator.orgs.secondary.id}.*Use a token of organization ` +
            `${stack.emulator.orgs.primary.id} \\(devicemgmt:apiToken`,
        ),
      );
      expect(result.failures[0].reason).not.toMatch(/no (file|app) with id/);
      expect(stack.emulator.stats().writes).toBe(0);
      // The same check with the right token passes: the pin is the organization's, not the token's.
      expect((await managed.check(changed)).failures).toEqual([]);
    },
  );

  it("state written before the pin was kept in inputs is pinned by check, and diff refuses a wrong pin", async () => {
    const managed = await Managed.of(stack.plugin, "groupFile", "old-state");
    await managed.create({ groupId: site, fileId: await otherFile() });
    const { __organization: _pin, ...olderInputs } = managed.inputs;
    const next = await Managed.of(staging, "groupFile", "old-state");
    Object.assign(next, { id: managed.id, outputs: managed.outputs, inputs: olderInputs });
    const error = await next.diff({ groupId: site, fileId: await otherFile() }).catch((e: Error) => e);
    expect(String(error)).toMatch(/lives in organization .*reaches organization/);
    // With the right token, the first check pins the organization it lives in.
    managed.inputs = olderInputs;
    const checked = await managed.check({ groupId: site, fileId: await otherFile() });
    expect(checked.inputs.__organization).toBe(stack.emulator.orgs.primary.id);
  });
});

describe("inputs that reached the API as its 422", () => {
  it("a Device's groupId naming no group, or an unconfigured one, is refused at check", async () => {
    expect(await checkOf("device", { deviceId: ungrouped, groupId: MISSING })).toEqual({
      groupId: `groupId: group ${MISSING} does not exist in the organization (see getGroup).`,
    });
    expect(await checkOf("device", { deviceId: ungrouped, groupId: folder })).toEqual({
      groupId:
        `groupId: group ${folder} ("Region") is not configured, and devices sit only in configured groups. ` +
        `Set configured: true on the Group (configuring is irreversible).`,
    });
    expect(await checkOf("device", { deviceId: ungrouped, groupId: site })).toEqual({});
  });

  it("a video as launcherContent, and a video in lock-task, are refused at check", async () => {
    const launcher = await checkOf("headsetExperience", {
      groupId: site,
      mode: "in-house-launcher",
      launcherContent: { type: "video", id: video },
      visibleContents: [{ type: "app", id: app }],
      returnToLauncherViaHomeButton: true,
    });
    expect(launcher.launcherContent).toBe(
      `launcherContent: HeadsetExperience mode "in-house-launcher" takes app items only here, and this lists ` +
        `video ${video}. Remove it, or show it elsewhere (HeadsetExperience modes "arborxr-home" and ` +
        `"arborxr-kiosk" show videos).`,
    );
    const lock = await checkOf("deviceExperience", {
      deviceId: ungrouped,
      mode: "lock-task",
      visibleContents: [
        { type: "app", id: app },
        { type: "video", id: video },
      ],
    });
    expect(lock).toEqual({
      visibleContents:
        `visibleContents: DeviceExperience mode "lock-task" takes app and unmanaged-app items only here, and ` +
        `this lists video ${video}. Remove it, or show it elsewhere (HeadsetExperience modes "arborxr-home" ` +
        `and "arborxr-kiosk" show videos).`,
    });
  });
});

describe("inputs that passed check", () => {
  it("a rollout gate over a group that does not exist or holds no device is refused before the channel moves", async () => {
    const channel = (await stack.admin.apps.releaseChannels(app).all())[0];
    const version = (await stack.admin.releases.versions(app).all())[0];
    const gate = (groupIds: string[]) => ({
      appId: app,
      releaseChannelId: channel.id,
      versionId: version.id,
      rollout: { share: 1, timeoutSeconds: 60, groupIds },
    });
    const failures = await checkOf("releaseChannelVersion", gate([site, MISSING, folder]));
    expect(failures).toEqual({
      rollout:
        `rollout.groupIds[1]: group ${MISSING} does not exist in the organization (see getGroup). ` +
        `rollout.groupIds[2]: group ${folder} ("Region") is not configured, and only configured groups hold ` +
        `devices, so the rollout gate would count none there (it fails once the channel has moved). Set ` +
        `configured: true on the Group (configuring is irreversible).`,
    });
    expect(await checkOf("releaseChannelVersion", gate([site]))).toEqual({});
  });

  it("a group under a configured group is refused, also when a Group of this run configures the parent", async () => {
    expect(await checkOf("group", { name: "Room", parentId: site })).toEqual({
      parentId:
        `parentId: group ${site} ("Site") is configured, and configured groups are leaves (they hold devices ` +
        `and content, not groups): a group's parent must be an unconfigured group. Choose an unconfigured ` +
        `parent (or none: a root-level group).`,
    });
    expect(await checkOf("group", { name: "Room", parentId: MISSING })).toEqual({
      parentId: `parentId: group ${MISSING} does not exist in the organization (see getGroup).`,
    });
    const parent = await Managed.of(stack.plugin, "group", "becomes-site");
    await parent.create({ name: "Becomes site" });
    expect(await checkOf("group", { name: "Room", parentId: parent.id })).toEqual({});
    // The parent's diff (configured: true in this change) runs before the check of a group that takes its id.
    expect((await parent.diff({ name: "Becomes site", configured: true })).changes).toBe("some");
    expect((await checkOf("group", { name: "Room", parentId: parent.id })).parentId).toMatch(
      /parentId: group .* \("Becomes site"\) is declared configured, and configured groups are leaves/,
    );
    // Unchanged since the last check: not looked up again.
    expect(
      await checkOf("group", { name: "Room", parentId: parent.id }, { name: "Room", parentId: parent.id }),
    ).toEqual({});
  });

  it("control characters in tag names, and names that differ only in case, are refused", async () => {
    expect(await checkOf("tag", { name: "safety\u0000" })).toEqual({
      name: "name: name must not contain control characters (NUL, tab, line breaks, …): found U+0000 at position 7. Remove it",
    });
    expect((await checkOf("tagSet", { ownerType: "app", ownerId: app, tags: ["a\nb"] })).tags).toBe(
      "tags[0]: tags[] must not contain control characters (NUL, tab, line breaks, …): found U+000A at position 2. Remove it",
    );
    expect(
      (await checkOf("tagSet", { ownerType: "app", ownerId: app, tags: ["VR", "safety", "vr"] })).tags,
    ).toBe(
      'tags: tags[2] ("vr") and tags[0] ("VR") name one tag: tag names are compared without case. Keep one ' +
        "spelling of each name",
    );
    expect((await checkOf("device", { deviceId: ungrouped, tags: ["Lobby", "lobby"] })).tags).toMatch(
      /tags\[1\] \("lobby"\) and tags\[0\] \("Lobby"\) name one tag/,
    );
  });
});
