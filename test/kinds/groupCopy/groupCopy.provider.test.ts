// GroupCopy through the real dynamic-provider plugin against the emulator: the copy is a configured group with
// the original's content, renamed in place, a portal rename seen by refresh, deleted with the resource; a second
// resource declaring the same copy is refused at check.
import { Managed, startStack, type Stack } from "../../harness/providerStack";

let stack: Stack;
let sourceId: string;
let folderId: string;
let fileId: string;
beforeAll(async () => {
  stack = await startStack();
  const folder = await stack.admin.groups.create({ name: "Labs", parentId: null });
  folderId = folder.id;
  const source = await stack.admin.groups.create({ name: "Lab", parentId: folder.id });
  await stack.admin.groups.configure(source.id);
  sourceId = source.id;
  fileId = stack.emulator.snapshot().files[0].id;
  await stack.admin.groups.addFile(sourceId, fileId);
});
afterAll(() => stack.close());

const live = (id: string) => stack.emulator.snapshot().groups.find((g) => g.id === id);

describe("GroupCopy", () => {
  it("copies, reads back without a diff, renames in place, and deletes only the copy", async () => {
    const copy = await Managed.of(stack.plugin, "groupCopy", "lab-b");
    const outs = await copy.create({ sourceGroupId: sourceId, name: "Lab B" });
    expect(copy.id).not.toBe(sourceId);
    // The place is the API's answer, whatever it is (the documents do not say where a copy goes).
    expect(outs).toMatchObject({
      sourceGroupId: sourceId,
      name: "Lab B",
      parentId: folderId,
      configured: true,
    });
    expect(live(copy.id)).toMatchObject({ name: "Lab B", isConfigured: true, fileIds: [fileId] });

    expect(await copy.diff({ sourceGroupId: sourceId, name: "Lab B" })).toMatchObject({ changes: "none" });
    const read = await copy.read();
    expect(read.id).toBe(copy.id);
    expect(read.inputs).toBeUndefined();

    expect(await copy.diff({ sourceGroupId: sourceId, name: "Lab C" })).toMatchObject({
      changes: "some",
      replaces: [],
    });
    await copy.update({ sourceGroupId: sourceId, name: "Lab C" });
    expect(live(copy.id)).toMatchObject({ name: "Lab C", parentId: folderId });

    await copy.delete();
    expect(live(copy.id)).toBeUndefined();
    expect(live(sourceId)).toMatchObject({ name: "Lab" });
    await copy.delete(); // already gone: still succeeds
  });

  it("shows a rename made in the portal on refresh and repairs it on the next update", async () => {
    const copy = await Managed.of(stack.plugin, "groupCopy", "drifting-copy");
    await copy.create({ sourceGroupId: sourceId, name: "Copy" });
    await stack.admin.groups.update(copy.id, { name: "Renamed in the portal", parentId: folderId });
    const read = await copy.read();
    expect(read.properties.name).toBe("Renamed in the portal");
    expect((await copy.diff({ sourceGroupId: sourceId, name: "Copy" })).changes).toBe("some");
    await copy.update({ sourceGroupId: sourceId, name: "Copy" });
    expect(live(copy.id)?.name).toBe("Copy");
    await copy.delete();
  });

  it("refuses an unconfigured source at check, naming sourceGroupId and the fix, before any write", async () => {
    const copy = await Managed.of(stack.plugin, "groupCopy", "of-a-folder");
    const checked = await copy.check({ sourceGroupId: folderId, name: "No" });
    expect(checked.failures).toEqual([
      {
        property: "sourceGroupId",
        reason:
          `sourceGroupId: group ${folderId} ("Labs") is not configured, and only configured groups can be ` +
          `copied. Set configured: true on the Group (configuring is irreversible).`,
      },
    ]);
    expect(stack.emulator.snapshot().groups.filter((g) => g.name === "No")).toEqual([]);
  });

  it("refuses at check a second resource of the run declaring the same copy, naming the first", async () => {
    const one = await Managed.of(stack.plugin, "groupCopy", "twin-one");
    const two = await Managed.of(stack.plugin, "groupCopy", "twin-two");
    const declared = { sourceGroupId: sourceId, name: "Twin" };
    expect((await one.check({ ...declared, __claimant: "twin-one" })).failures).toEqual([]);
    const { failures } = await two.check({ ...declared, __claimant: "twin-two" });
    expect(failures).toEqual([
      {
        property: "name",
        reason: expect.stringMatching(new RegExp(`the copy "Twin" of group ${sourceId}.*twin-one`)),
      },
    ]);
    // Another name from the same source is another copy.
    expect((await two.check({ ...declared, name: "Twin 2", __claimant: "twin-two" })).failures).toEqual([]);
    expect(stack.emulator.snapshot().groups.filter((g) => g.name.startsWith("Twin"))).toEqual([]);
  });
});
