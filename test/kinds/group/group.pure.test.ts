// Pure rules of Group, without Pulumi or HTTP: check and diff.
import { UNKNOWN } from "../../../provider/framework";
import { diffGroup, groupHandler, unconfigureFailure } from "../../../provider/kinds/group/handler";

const A = "11111111-1111-4111-8111-111111111111";

describe("Group check and diff", () => {
  it("defaults parentId to null and configured to false, and trims the name", async () => {
    const { inputs, failures } = await groupHandler.check({}, { name: "  Lab  " });
    expect(failures).toEqual([]);
    expect(inputs).toEqual({ name: "Lab", parentId: null, configured: false });
  });

  it("refuses configured true -> false with a message saying configuring is irreversible", async () => {
    const { failures } = await groupHandler.check(
      { name: "x", configured: true },
      { name: "x", configured: false },
    );
    expect(failures).toHaveLength(1);
    expect(failures![0].property).toBe("configured");
    expect(failures![0].reason).toMatch(/irreversible/);
    expect(unconfigureFailure({ configured: false }, { configured: true })).toBeUndefined();
  });

  it("reports a rename, a re-parent and configuring as in-place updates", () => {
    const olds = { name: "a", parentId: null, configured: false, deviceCount: 3 };
    expect(diffGroup(olds, { name: "a", parentId: null, configured: false })).toMatchObject({
      changes: false,
      replaces: [],
    });
    expect(diffGroup(olds, { name: "b", parentId: null, configured: false })).toMatchObject({
      changes: true,
      replaces: [],
    });
    expect(diffGroup(olds, { name: "a", parentId: A, configured: false })).toMatchObject({
      changes: true,
      replaces: [],
    });
    expect(diffGroup(olds, { name: "a", parentId: null, configured: true })).toMatchObject({
      changes: true,
      replaces: [],
    });
  });

  it("treats an absent parentId as root and ignores adoptId and output-only properties", () => {
    expect(
      diffGroup({ name: "a", parentId: null, configured: false, deviceCount: 9 }, { name: "a", adoptId: A }),
    ).toMatchObject({
      changes: false,
    });
  });

  it("counts an unknown new value as a change", () => {
    expect(diffGroup({ name: "a", parentId: A }, { name: "a", parentId: UNKNOWN })).toMatchObject({
      changes: true,
    });
  });

  it("replaces when the connection moves to another organization; a new token alone updates in place", () => {
    const olds = { name: "a", connection: { baseUrl: "http://x/api/v3", apiToken: "1|old" } };
    // In place, so the new token reaches the recorded outputs that a later delete uses.
    expect(
      diffGroup(olds, { name: "a", connection: { baseUrl: "http://x/api/v3", apiToken: "2|new" } }),
    ).toMatchObject({
      changes: true,
      replaces: [],
    });
    // The API said the new token belongs to another organization: a replacement.
    expect(
      diffGroup(olds, { name: "a", connection: { baseUrl: "http://x/api/v3", apiToken: "2|new" } }, false),
    ).toMatchObject({ replaces: ["connection"] });
    expect(
      diffGroup(olds, { name: "a", connection: { baseUrl: "http://y/api/v3", apiToken: "1|old" } }),
    ).toMatchObject({
      changes: true,
      replaces: ["connection"],
    });
  });
});
