// Issue #32 item 4: check knows the catalogue. Names and ids that must exist in the organization are checked
// through the real plugin at check (so at preview), each failure naming the property, the value and the closest
// existing name; the organization is read afterwards to show that nothing was written.
import type { ResourceKind } from "../../provider/kindKeys";
import type { PropertyMap } from "../harness/providerPlugin";
import { failure, Managed, startStack, type Stack } from "../harness/providerStack";
import { providerText } from "../../provider/dynamic";
import { SHARED_MODE_SETTINGS as SHARED } from "../fixtures/declarations";

let stack: Stack;
let site: string;
let folder: string;
let grouped: string;
let ungrouped: string;
let metaDevice: string;
let picoDevice: string;
const MISSING = "12121212-1212-4212-8212-121212121212";

beforeAll(async () => {
  stack = await startStack({ emulator: { seed: { devices: 12 } } });
  folder = (await stack.admin.groups.create({ name: "Region", parentId: null })).id;
  site = (
    await stack.admin.groups.configure(
      (await stack.admin.groups.create({ name: "Site", parentId: folder })).id,
    )
  ).id;
  const devices = await stack.admin.devices.all();
  grouped = devices[0].id;
  await stack.admin.devices.update(grouped, { groupId: site });
  const free = devices.slice(1);
  ungrouped = free[0].id;
  metaDevice = free.find((d) => d.deviceModel.manufacturer === "Meta" && d.id !== ungrouped)!.id;
  picoDevice = free.find((d) => d.deviceModel.manufacturer === "Pico")!.id;
});
afterAll(() => stack.close());

/** The failures of one check, as the engine would show them (property → reason). */
async function checkOf(kind: ResourceKind, news: PropertyMap, olds: PropertyMap = {}) {
  const managed = await Managed.of(stack.plugin, kind, `${kind}-${Math.random()}`);
  managed.inputs = olds;
  const result = await managed.check(news);
  return Object.fromEntries(result.failures.map((f) => [f.property, f.reason]));
}

const catalogue = () =>
  stack.emulator
    .snapshot()
    .tags.map((t) => t.name.toLowerCase())
    .sort();

describe("tag names", () => {
  it("a misspelt tag on a Device is refused at check with the closest name; nothing is created", async () => {
    const before = catalogue();
    const failures = await checkOf("device", { deviceId: ungrouped, tags: ["safety", "trainng"] });
    expect(Object.keys(failures)).toEqual(["tags"]);
    expect(failures.tags).toMatch(/tags\[1\]: no tag named "trainng".*closest existing name is "training"/);
    expect(failures.tags).toMatch(/declare the tag .*tags: \[tag\.name\]/);
    expect(catalogue()).toEqual(before);
    expect(catalogue()).not.toContain("trainng");
  });

  it("a misspelt tag on a TagSet is refused; a name unlike any gets no suggestion", async () => {
    const app = (await stack.admin.apps.all())[0];
    const failures = await checkOf("tagSet", {
      ownerType: "app",
      ownerId: app.id,
      tags: ["Safty", "zzqx-unrelated"],
    });
    expect(failures.tags).toMatch(/tags\[0\]: no tag named "Safty".*closest existing name is "safety"/);
    expect(failures.tags).toMatch(/tags\[1\]: no tag named "zzqx-unrelated" /);
    expect(failures.tags).not.toMatch(/"zzqx-unrelated"[^;]*closest/);
    expect(catalogue()).not.toContain("safty");
  });

  it("names in the catalogue (any case), names a Tag of this run declares, and unchanged names pass", async () => {
    expect(await checkOf("device", { deviceId: ungrouped, tags: ["TRAINING", "Lobby"] })).toEqual({});
    // A Tag checked in this process (the engine checks it before a resource that takes its name output).
    const tag = await Managed.of(stack.plugin, "tag", "declared");
    expect((await tag.check({ name: "site-west" })).failures).toEqual([]);
    expect(await checkOf("device", { deviceId: ungrouped, tags: ["Site-West"] })).toEqual({});
    // A name already in the recorded inputs is not looked up again (it may have left the catalogue since).
    expect(
      await checkOf(
        "device",
        { deviceId: ungrouped, tags: ["gone-since"] },
        { deviceId: ungrouped, tags: ["gone-since"] },
      ),
    ).toEqual({});
    expect(catalogue()).not.toContain("site-west");
  });

  it("a name not known yet (preview) passes", async () => {
    const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
    expect(await checkOf("device", { deviceId: ungrouped, tags: [UNKNOWN, "training"] })).toEqual({});
  });
});

describe("owners and attached things", () => {
  it("a TagSet whose ownerId is of another kind says which kind it is", async () => {
    const failures = await checkOf("tagSet", { ownerType: "app", ownerId: site, tags: ["training"] });
    expect(failures).toEqual({
      ownerId: expect.stringMatching(
        /ownerId: .* is the id of a group, not of an app: set ownerType: "group"/,
      ),
    });
    expect(await checkOf("tagSet", { ownerType: "file", ownerId: MISSING, tags: [] })).toEqual({
      ownerId: expect.stringMatching(/no file with id 12121212-.* exists.*getFile/),
    });
  });

  it("a DeviceFile, DeviceVideo or DeviceReleaseChannel on a grouped device is refused at check", async () => {
    const file = (await stack.admin.files.all())[0];
    const video = (await stack.admin.videos.all())[0];
    expect(await checkOf("deviceFile", { deviceId: grouped, fileId: file.id })).toEqual({
      deviceId: expect.stringMatching(
        /is in group .*"Site".*files attach to a device only while it is ungrouped.*GroupFile/,
      ),
    });
    expect(Object.keys(await checkOf("deviceVideo", { deviceId: grouped, videoId: video.id }))).toEqual([
      "deviceId",
    ]);
    const channel = (await stack.admin.apps.releaseChannels((await stack.admin.apps.all())[0].id).all())[0];
    expect(
      Object.keys(await checkOf("deviceReleaseChannel", { deviceId: grouped, releaseChannelId: channel.id })),
    ).toEqual(["deviceId"]);
    expect(await checkOf("deviceFile", { deviceId: ungrouped, fileId: file.id })).toEqual({});
    expect(await checkOf("deviceFile", { deviceId: ungrouped, fileId: MISSING })).toEqual({
      fileId: expect.stringMatching(/fileId: no file with id 12121212-.*getFile/),
    });
    const { snapshot } = stack.emulator;
    expect(snapshot().devices.find((d) => d.id === grouped)?.groupId).toBe(site);
  });

  it("a device that a Device of this run takes out of its group passes", async () => {
    const file = (await stack.admin.files.all())[0];
    const device = await Managed.of(stack.plugin, "device", "leaving");
    expect((await device.check({ deviceId: grouped, groupId: null })).failures).toEqual([]);
    expect(await checkOf("deviceFile", { deviceId: grouped, fileId: file.id })).toEqual({});
  });

  it("a group that a Group of this run configures passes (its diff runs before the dependent's check)", async () => {
    const file = (await stack.admin.files.all())[0];
    const group = await Managed.of(stack.plugin, "group", "later-site");
    await group.create({ name: "Later site" });
    expect(await checkOf("groupFile", { groupId: group.id, fileId: file.id })).toEqual({
      groupId: expect.stringMatching(/is not configured/),
    });
    expect((await group.diff({ name: "Later site", configured: true })).changes).toBe("some");
    expect(await checkOf("groupFile", { groupId: group.id, fileId: file.id })).toEqual({});
    expect(stack.emulator.snapshot().groups.find((g) => g.id === group.id)?.isConfigured).toBe(false);
  });

  it("a GroupFile of an unknown file is refused at check, and at create not as 'already attached'", async () => {
    expect(await checkOf("groupFile", { groupId: site, fileId: MISSING })).toEqual({
      fileId: expect.stringMatching(/no file with id 12121212-/),
    });
    expect(await checkOf("groupVideo", { groupId: folder, videoId: MISSING })).toEqual({
      groupId: expect.stringMatching(/group .*"Region".* is not configured.*configured: true/),
      videoId: expect.stringMatching(/no video with id/),
    });
    // A create that check did not stop (the file deleted since preview) names the file, not someone else's attach.
    const error = await failure(
      stack.plugin.create({
        urn: "urn:pulumi:test::devicemgmt::pulumi-nodejs:dynamic:Resource::manual",
        properties: { groupId: site, fileId: MISSING, __provider: providerText("groupFile") },
      }),
    );
    expect(error.message).toMatch(/fileId: no file with id 12121212-.* cannot be attached/);
    expect(error.message).not.toMatch(/already attached|portal/);
    expect(stack.emulator.snapshot().groups.find((g) => g.id === site)?.fileIds).toEqual([]);
  });

  it("a release channel of another app is named at check (ReleaseChannelVersion, ReleaseChannelShare)", async () => {
    const [first, second] = await stack.admin.apps.all();
    const otherChannel = (await stack.admin.apps.releaseChannels(second.id).all())[0];
    const version = (await stack.admin.releases.versions(first.id).all())[0];
    const reason = new RegExp(
      `releaseChannelId: app ${first.id} \\("${first.name}"\\) has no release channel ${otherChannel.id}.*Its channels: "`,
    );
    expect(
      await checkOf("releaseChannelVersion", {
        appId: first.id,
        releaseChannelId: otherChannel.id,
        versionId: version.id,
      }),
    ).toEqual({ releaseChannelId: expect.stringMatching(reason) });
    expect(
      await checkOf("releaseChannelShare", {
        appId: first.id,
        releaseChannelId: otherChannel.id,
        organizationSlug: "acme-staging",
      }),
    ).toEqual({ releaseChannelId: expect.stringMatching(reason) });
    expect(
      await checkOf("releaseChannelShare", {
        appId: MISSING,
        releaseChannelId: otherChannel.id,
        organizationSlug: "acme-staging",
      }),
    ).toEqual({ appId: expect.stringMatching(/no app with id 12121212-/) });
  });

  it("a create that check did not stop explains the 404 by the property, not as a bare GET … 404", async () => {
    const [first, second] = await stack.admin.apps.all();
    const otherChannel = (await stack.admin.apps.releaseChannels(second.id).all())[0];
    const version = (await stack.admin.releases.versions(first.id).all())[0];
    const createUnchecked = async (kind: ResourceKind, properties: PropertyMap) =>
      failure(
        stack.plugin.create({
          urn: `urn:pulumi:test::devicemgmt::pulumi-nodejs:dynamic:Resource::${kind}-unchecked`,
          properties: { ...properties, __provider: providerText(kind) },
        }),
      );
    const channelReason = new RegExp(
      `releaseChannelId: app ${first.id} .* has no release channel ${otherChannel.id}`,
    );
    expect(
      (
        await createUnchecked("releaseChannelVersion", {
          appId: first.id,
          releaseChannelId: otherChannel.id,
          versionId: version.id,
        })
      ).message,
    ).toMatch(channelReason);
    expect(
      (
        await createUnchecked("releaseChannelShare", {
          appId: first.id,
          releaseChannelId: otherChannel.id,
          organizationSlug: "acme-staging",
        })
      ).message,
    ).toMatch(channelReason);
    expect(
      (await createUnchecked("tagSet", { ownerType: "video", ownerId: site, tags: ["training"] })).message,
    ).toMatch(/ownerId: .* is the id of a group, not of a video: set ownerType: "group"/);
  });

  it("a share's slug: not a slug, or the organization's own, is refused at check", async () => {
    const app = (await stack.admin.apps.all())[0];
    const channel = (await stack.admin.apps.releaseChannels(app.id).all())[0];
    const share = (organizationSlug: string) =>
      checkOf("releaseChannelShare", { appId: app.id, releaseChannelId: channel.id, organizationSlug });
    expect(await share("Acme-Staging")).toEqual({
      organizationSlug: expect.stringMatching(/lower-case: use "acme-staging"/),
    });
    expect(await share("acme")).toEqual({
      organizationSlug: expect.stringMatching(/this organization's own slug/),
    });
    expect(await share("acme-staging")).toEqual({});
  });
});

describe("experiences", () => {
  const kiosk = (deviceId: string, appId: string) => ({
    deviceId,
    mode: "arborxr-kiosk",
    kioskContent: { type: "app", id: appId },
    isMenuEnabled: false,
  });

  it("a kiosk on an ungrouped Meta headset needs sharedModeSettings; on another make it does not", async () => {
    const app = (await stack.admin.apps.all())[0];
    expect(await checkOf("headsetExperience", kiosk(metaDevice, app.id))).toEqual({
      sharedModeSettings: expect.stringMatching(
        /sharedModeSettings is required for mode "arborxr-kiosk" on device .*Quest/,
      ),
    });
    expect(
      await checkOf("headsetExperience", { ...kiosk(metaDevice, app.id), sharedModeSettings: SHARED }),
    ).toEqual({});
    expect(await checkOf("headsetExperience", kiosk(picoDevice, app.id))).toEqual({});
  });

  it("a content id of the wrong type says which type it is", async () => {
    const video = (await stack.admin.videos.all())[0];
    const app = (await stack.admin.apps.all())[0];
    expect(await checkOf("headsetExperience", { ...kiosk(picoDevice, video.id) })).toEqual({
      kioskContent: expect.stringMatching(
        /kioskContent: .* is the id of a video, not of an app: set type: "video"/,
      ),
    });
    expect(
      await checkOf("deviceExperience", {
        deviceId: picoDevice,
        mode: "lock-task",
        visibleContents: [
          { type: "app", id: app.id },
          { type: "app", id: MISSING },
        ],
      }),
    ).toEqual({ visibleContents: expect.stringMatching(/visibleContents\[\d\]: no app with id 12121212-/) });
  });
});
