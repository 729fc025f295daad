// The GroupCopy kind without Pulumi or HTTP: check names the bad property and the fix; the diff replaces the copy
// for another source (the API does not show a copy's origin) and renames it in place; the claim names a copy by
// its source and its name, so two resources declaring one copy are refused and a killed create is found again.
import { diffKind } from "../../../provider/framework";
import { groupCopyHandler } from "../../../provider/kinds/groupCopy/handler";
import { groupCopyIdentity } from "../../../provider/kinds/groupCopy/properties";

const SOURCE = "3f2b8c1e-1111-4aaa-8bbb-000000000001";
const OTHER = "3f2b8c1e-1111-4aaa-8bbb-000000000002";

const reasons = async (news: Record<string, unknown>) =>
  Object.fromEntries((await groupCopyHandler.check({}, news)).failures.map((f) => [f.property, f.reason]));

describe("GroupCopy check", () => {
  it("takes a source group id and a name, the id in lower case", async () => {
    const { inputs, failures } = await groupCopyHandler.check(
      {},
      { sourceGroupId: SOURCE.toUpperCase(), name: "Lab B" },
    );
    expect(failures).toEqual([]);
    expect(inputs).toEqual({ sourceGroupId: SOURCE, name: "Lab B" });
  });

  it("refuses a source that is not an id and a missing name, each on its property", async () => {
    expect(await reasons({ sourceGroupId: "lab", name: "" })).toEqual({
      sourceGroupId: expect.stringMatching(/^sourceGroupId: sourceGroupId must be an id/),
      name: expect.stringMatching(/name/),
    });
    expect(await reasons({ name: "Lab B" })).toEqual({
      sourceGroupId: expect.stringMatching(/sourceGroupId/),
    });
  });
});

describe("GroupCopy diff", () => {
  const olds = { sourceGroupId: SOURCE, name: "Lab B" };

  it("replaces the copy for another source", () => {
    expect(diffKind(groupCopyIdentity, olds, { ...olds, sourceGroupId: OTHER })).toMatchObject({
      changes: true,
      replaces: ["sourceGroupId"],
    });
  });

  it("renames in place, and sees no change in the same inputs", () => {
    expect(diffKind(groupCopyIdentity, olds, { ...olds, name: "Lab C" })).toMatchObject({
      changes: true,
      replaces: [],
    });
    expect(diffKind(groupCopyIdentity, olds, olds)).toMatchObject({ changes: false });
  });
});

describe("GroupCopy claim", () => {
  const claim = groupCopyIdentity.claim;
  if (claim === null) throw new Error("GroupCopy declares no claim: a killed create would copy again");

  it("names a copy by its source and its name (ids without case), refusing a second resource of that key", () => {
    expect(claim.keys({ sourceGroupId: SOURCE.toUpperCase(), name: "Lab B" })).toEqual([`${SOURCE}/lab b`]);
    expect(claim.keys({ sourceGroupId: OTHER, name: "Lab B" })).not.toEqual(
      claim.keys({ sourceGroupId: SOURCE, name: "Lab B" }),
    );
    expect("refuses" in claim).toBe(false);
    expect(claim.describe({ sourceGroupId: SOURCE, name: "Lab B" })).toBe(
      `the copy "Lab B" of group ${SOURCE}`,
    );
  });

  it("has no key while the source is unknown (a Group of the same run not created yet)", () => {
    expect(claim.keys({ sourceGroupId: undefined, name: "Lab B" })).toBeUndefined();
  });
});
