// The issue-20 kinds under the emulator's other readings of what the documents leave open: unknown tag names
// refused, repeated tag attach/detach refused, a repeated group content attach a no-op, a repeated share a no-op.
import { Managed, startStack, type Stack } from "../../harness/providerStack";
import { providerText } from "../../../provider/dynamic";

let stack: Stack;
let devices: { id: string; serialNumber: string }[];
let site: string;

beforeAll(async () => {
  stack = await startStack({
    emulator: {
      seed: { devices: 4 },
      strict: {
        rejectUnknownTags: true,
        rejectRepeatedTagAttach: true,
        ignoreRepeatedContentAttach: true,
        repeatShareIsNoOp: true,
        mergeDeviceTagsOnPut: true,
      },
    },
  });
  devices = await stack.admin.devices.all();
  const group = await stack.admin.groups.create({ name: "Strict site", parentId: null });
  site = (await stack.admin.groups.configure(group.id)).id;
});
afterAll(() => stack.close());

const liveTags = (id: string) =>
  (stack.emulator.snapshot().devices.find((d) => d.id === id)?.tags ?? []).map((t) => t.toLowerCase()).sort();

describe("under the strict catalog readings", () => {
  it("a Device's tags change by the difference only (no repeated attach or detach is sent)", async () => {
    const device = devices[0];
    const managed = await Managed.of(stack.plugin, "device", "strict-1");
    await managed.create({ deviceId: device.id, tags: ["lobby", "safety"] });
    expect(liveTags(device.id)).toEqual(["lobby", "safety"]);
    await managed.update({ deviceId: device.id, tags: ["safety", "training"] });
    expect(liveTags(device.id)).toEqual(["safety", "training"]);
  });

  it("a tag name the catalogue lacks is refused with the fix; with the Tag declared first it attaches", async () => {
    const device = devices[1];
    const before = liveTags(device.id);
    const managed = await Managed.of(stack.plugin, "device", "strict-2");
    // Check (so preview) refuses it first ...
    await expect(managed.create({ deviceId: device.id, tags: ["site-east"] })).rejects.toThrow(
      /tags\[0\]: no tag named "site-east" is in the organization's catalogue.*declare the tag/s,
    );
    // ... and a create that check did not stop (a name gone from the catalogue since) still explains the API's refusal.
    const provider = providerText("device");
    await expect(
      stack.plugin.create({
        urn: managed.urn,
        properties: { deviceId: device.id, tags: ["site-east"], __provider: provider },
      }),
    ).rejects.toThrow(/tags: the API refused to attach "site-east".*declare it \(Tag\)/s);
    expect(liveTags(device.id)).toEqual(before);
    const tag = await Managed.of(stack.plugin, "tag", "east");
    await tag.create({ name: "site-east" });
    await managed.create({ deviceId: device.id, tags: ["site-east"] });
    expect(liveTags(device.id)).toEqual(["site-east"]);
  });

  it("a repeated group file attach is a no-op: a second declaration neither fails nor duplicates", async () => {
    const file = (await stack.admin.files.all())[0];
    const first = await Managed.of(stack.plugin, "groupFile", "manual");
    await first.create({ groupId: site, fileId: file.id });
    const second = await Managed.of(stack.plugin, "groupFile", "manual-again");
    await second.create({ groupId: site, fileId: file.id });
    expect(stack.emulator.snapshot().groups.find((g) => g.id === site)?.fileIds).toEqual([file.id]);
  });

  it("a repeated share is a no-op: a second declaration neither fails nor duplicates", async () => {
    const app = (await stack.admin.apps.all())[0];
    const channel = (await stack.admin.apps.releaseChannels(app.id).all())[0];
    const declared = { appId: app.id, releaseChannelId: channel.id, organizationSlug: "acme-staging" };
    await (await Managed.of(stack.plugin, "releaseChannelShare", "share")).create(declared);
    await (await Managed.of(stack.plugin, "releaseChannelShare", "share-again")).create(declared);
    const shared = stack.emulator
      .snapshot()
      .releaseChannels.find((c) => c.id === channel.id)?.sharedWithOrgIds;
    expect(shared).toEqual([stack.emulator.orgs.secondary.id]);
  });
});
