// Pure rules of TagSet: check by its declaration (the owners it takes) and a diff that ignores the tags' case and
// order.
import { tagSetKind } from "../../../provider/kinds/tagSet/definition";
import { diffKind } from "../../../provider/framework";

const ID = "3f2504e0-4f89-41d3-9a0c-0305e82c3301";

describe("TagSet check", () => {
  it("TagSet takes a group, app, file or video", async () => {
    const checked = await tagSetKind.handler.check({}, { ownerType: "device", ownerId: ID, tags: ["a"] });
    expect((checked.failures ?? []).map((f) => f.property)).toEqual(["ownerType"]);
    expect(
      diffKind(
        tagSetKind,
        { ownerType: "app", ownerId: ID, tags: ["A", "b"] },
        {
          ownerType: "app",
          ownerId: ID,
          tags: ["b", "a"],
        },
      ).changes,
    ).toBe(false);
  });
});
