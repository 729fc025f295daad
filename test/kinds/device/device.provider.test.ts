// Device, Tag and TagSet through the real dynamic-provider plugin against the emulator; the organization is
// read afterwards from the emulator's snapshot.
import { Managed, startStack, type Stack } from "../../harness/providerStack";

let stack: Stack;
let devices: { id: string; serialNumber: string; name: string }[];
let berlin: string;

beforeAll(async () => {
  stack = await startStack({ emulator: { seed: { devices: 8 } } });
  devices = await stack.admin.devices.all();
  const group = await stack.admin.groups.create({ name: "Berlin", parentId: null });
  berlin = (await stack.admin.groups.configure(group.id)).id;
});
afterAll(() => stack.close());

const liveDevice = (id: string) => {
  const found = stack.emulator.snapshot().devices.find((d) => d.id === id);
  if (!found) throw new Error(`no device ${id}`);
  return found;
};
const lower = (names: string[]) => names.map((n) => n.toLowerCase()).sort();

describe("Device", () => {
  it("adopts by serial number, places, tags and sets custom fields; up twice changes nothing; destroy leaves it", async () => {
    const device = devices[0];
    const managed = await Managed.of(stack.plugin, "device", "headset-1");
    const declared = {
      serialNumber: device.serialNumber.toLowerCase(),
      name: "Lobby 01",
      groupId: berlin,
      tags: ["Lobby", "training"],
      customFields: { "Asset tag": "AT-9", Room: "Atrium" },
    };
    const outputs = await managed.create(declared);
    expect(managed.id).toBe(device.id);
    expect(outputs.deviceId).toBe(device.id);
    const live = liveDevice(device.id);
    expect(live).toMatchObject({ name: "Lobby 01", groupId: berlin });
    expect(lower(live.tags)).toEqual(["lobby", "training"]);
    expect(live.customFields).toEqual(
      expect.arrayContaining([
        { name: "Asset tag", value: "AT-9" },
        { name: "Room", value: "Atrium" },
      ]),
    );
    expect(live.customFields).toHaveLength(2);

    // Up again (and after a refresh that finds nothing changed): no diff.
    expect((await managed.diff(declared)).changes).not.toBe("some");
    await managed.read();
    expect((await managed.diff(declared)).changes).not.toBe("some");

    // A portal-style change shows in refresh, and up puts it back touching only the difference.
    await stack.admin.devices.update(device.id, { name: "Renamed in portal" });
    await stack.admin.tags.detach("devices", device.id, ["training"]);
    await stack.admin.tags.attach("devices", device.id, ["safety"]);
    await managed.read();
    expect(managed.outputs.name).toBe("Renamed in portal");
    expect((await managed.diff(declared)).changes).toBe("some");
    await managed.update(declared);
    const repaired = liveDevice(device.id);
    expect(repaired.name).toBe("Lobby 01");
    expect(lower(repaired.tags)).toEqual(["lobby", "training"]);

    // Ungrouping by null; then destroy forgets the device and leaves it where it is.
    await managed.update({ ...declared, groupId: null });
    expect(liveDevice(device.id).groupId).toBeNull();
    await managed.delete();
    expect(liveDevice(device.id)).toMatchObject({ name: "Lobby 01", groupId: null });
  });

  it("leaves undeclared properties alone and adopts by id", async () => {
    const device = devices[1];
    const before = liveDevice(device.id);
    const managed = await Managed.of(stack.plugin, "device", "headset-2");
    await managed.create({ deviceId: device.id, name: "Only the name" });
    const after = liveDevice(device.id);
    expect(after.name).toBe("Only the name");
    expect(after.tags).toEqual(before.tags);
    expect(after.customFields).toEqual(before.customFields);
    expect((await managed.diff({ deviceId: device.id, name: "Only the name" })).changes).not.toBe("some");
  });

  it("refuses a device that is not enrolled, naming the property and the fix, before any write", async () => {
    const managed = await Managed.of(stack.plugin, "device", "ghost");
    await expect(managed.create({ serialNumber: "NO-SUCH-SERIAL" })).rejects.toThrow(
      /serialNumber: no device with serial number "NO-SUCH-SERIAL".*never created by Pulumi/,
    );
    const folder = await stack.admin.groups.create({ name: "A folder", parentId: null });
    const device = devices[2];
    await expect(
      managed.create({ deviceId: device.id, serialNumber: devices[3].serialNumber }),
    ).rejects.toThrow(/serialNumber: device .* has serial number/);
    await expect(managed.create({ deviceId: device.id, groupId: folder.id })).rejects.toThrow(
      /groupId: group .* \("A folder"\) is not configured.*configured: true/,
    );
    expect(liveDevice(device.id).groupId).toBeNull();
    const check = await managed.check({ name: "x" });
    expect(check.failures.map((f) => f.property)).toEqual(["deviceId"]);
  });
});

describe("Tag and TagSet", () => {
  it("creates, renames and deletes a tag; refuses a same-named create (adoptId takes it over)", async () => {
    const tag = await Managed.of(stack.plugin, "tag", "quarantine");
    await tag.create({ name: "quarantine" });
    expect(stack.emulator.snapshot().tags.map((t) => t.name)).toContain("quarantine");
    await tag.update({ name: "Quarantine-2" });
    expect(stack.emulator.snapshot().tags.find((t) => t.id === tag.id)?.name).toBe("Quarantine-2");

    const scratch = await Managed.of(stack.plugin, "tag", "scratch");
    await scratch.create({ name: "scratch" });
    await scratch.delete();
    expect(stack.emulator.snapshot().tags.find((t) => t.id === scratch.id)).toBeUndefined();

    const twin = await Managed.of(stack.plugin, "tag", "twin");
    await expect(twin.create({ name: "quarantine-2" })).rejects.toThrow(/already exists.*adoptId/s);
    expect(
      stack.emulator.snapshot().tags.filter((t) => t.name.toLowerCase() === "quarantine-2"),
    ).toHaveLength(1);
    await twin.create({ name: "Quarantine-2", adoptId: tag.id });
    expect(twin.id).toBe(tag.id);
    // The old name's delete in the run that adopted the tag keeps it (the program still declares it).
    await tag.delete();
    expect(stack.emulator.snapshot().tags.find((t) => t.id === tag.id)).toBeDefined();
  });

  it("keeps a group's and a file's tags to the declared set through attach/detach of the difference", async () => {
    const file = (await stack.admin.files.all())[0];
    const set = await Managed.of(stack.plugin, "tagSet", "file-tags");
    const declared = { ownerType: "file", ownerId: file.id, tags: ["safety", "onboarding"] };
    await set.create(declared);
    expect(lower((await stack.admin.files.get(file.id)).tags ?? [])).toEqual(["onboarding", "safety"]);
    expect((await set.diff(declared)).changes).not.toBe("some");

    const imported = await Managed.of(stack.plugin, "tagSet", "file-tags-imported");
    expect((await imported.readById(set.id)).id).toBe(`file/${file.id}`);
    expect(imported.outputs).toMatchObject({ ownerType: "file", ownerId: file.id });

    await stack.admin.tags.attach("files", file.id, ["operations"]);
    await set.read();
    expect((await set.diff(declared)).changes).toBe("some");
    await set.update({ ...declared, tags: ["safety"] });
    expect(lower((await stack.admin.files.get(file.id)).tags ?? [])).toEqual(["safety"]);
    await set.delete();
    expect((await stack.admin.files.get(file.id)).tags ?? []).toEqual([]);

    // Renamed in code without aliases: the new name is created, then the old deleted; the tags stay.
    const app = (await stack.admin.apps.all())[0];
    const appSet = { ownerType: "app", ownerId: app.id, tags: ["training", "lobby"] };
    const oldName = await Managed.of(stack.plugin, "tagSet", "app-tags-old");
    await oldName.create(appSet);
    // The old name's state was written by an earlier run (a rename is a later `up`: another plugin process).
    oldName.outputs = { ...oldName.outputs, createdInRun: "an-earlier-run" };
    const newName = await Managed.of(stack.plugin, "tagSet", "app-tags-new");
    await newName.create(appSet);
    await oldName.delete();
    expect(lower((await stack.admin.apps.get(app.id)).tags ?? [])).toEqual(["lobby", "training"]);

    const groupSet = await Managed.of(stack.plugin, "tagSet", "group-tags");
    await groupSet.create({ ownerType: "group", ownerId: berlin, tags: ["lobby"] });
    expect(lower(stack.emulator.snapshot().groups.find((g) => g.id === berlin)?.tags ?? [])).toEqual([
      "lobby",
    ]);
    await groupSet.read();
    expect((await groupSet.diff({ ownerType: "group", ownerId: berlin, tags: ["lobby"] })).changes).not.toBe(
      "some",
    );
    await groupSet.delete();
    expect(stack.emulator.snapshot().groups.find((g) => g.id === berlin)?.tags ?? []).toEqual([]);
  });

  it("records the tags a set attached (by id); state without that record removes the declared tags", async () => {
    const videos = await stack.admin.videos.all();
    const tagId = async (name: string) =>
      (await stack.admin.tags.all()).find((t) => t.name.toLowerCase() === name)!.id;
    const videoTags = async (id: string) => lower((await stack.admin.videos.get(id)).tags ?? []);
    for (const video of videos.slice(0, 2)) {
      const current = (await stack.admin.videos.get(video.id)).tags ?? [];
      if (current.length) await stack.admin.tags.detach("videos", video.id, current);
      await stack.admin.tags.attach("videos", video.id, ["site-south"]); // the owner's own, before any set
    }
    const declared = (id: string) => ({
      ownerType: "video",
      ownerId: id,
      tags: ["site-south", "site-north"],
    });

    const set = await Managed.of(stack.plugin, "tagSet", "video-tags");
    await set.create(declared(videos[0].id));
    expect(set.outputs.addedTagIds).toEqual([await tagId("site-north")]);
    await set.delete();
    expect(await videoTags(videos[0].id)).toEqual(["site-south"]);

    // Recorded before sets kept addedTagIds: the old rule, every declared tag is removed.
    const old = await Managed.of(stack.plugin, "tagSet", "video-tags-old");
    await old.create(declared(videos[1].id));
    const { addedTagIds: _added, ...recordedBefore } = old.outputs;
    old.outputs = recordedBefore;
    await old.delete();
    expect(await videoTags(videos[1].id)).toEqual([]);
  });
});
