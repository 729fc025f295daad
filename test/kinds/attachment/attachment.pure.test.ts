// Pure rules of the attachments, without Pulumi or HTTP: their ids, and the diff that replaces on any change.
import { attachmentId, parseAttachmentId } from "../../../provider/kinds/attachment/properties";
import { groupReleaseChannelHandler } from "../../../provider/kinds/attachment/definitions";

const A = "11111111-1111-4111-8111-111111111111";
const B = "22222222-2222-4222-8222-222222222222";
const C = "33333333-3333-4333-8333-333333333333";

describe("attachments", () => {
  it("ids are owner/releaseChannel and parse back", () => {
    expect(attachmentId(A, B)).toBe(`${A}/${B}`);
    expect(parseAttachmentId(`${A}/${B}`)).toEqual({ ownerId: A, attachedId: B });
    expect(parseAttachmentId("just-one")).toBeUndefined();
    expect(parseAttachmentId(`${A}/${B}/x`)).toBeUndefined();
  });

  it("any change of group or channel replaces", async () => {
    const olds = { groupId: A, releaseChannelId: B };
    expect(
      await groupReleaseChannelHandler.diff("", olds, { groupId: A, releaseChannelId: B }),
    ).toMatchObject({ changes: false });
    expect(
      await groupReleaseChannelHandler.diff("", olds, { groupId: C, releaseChannelId: B }),
    ).toMatchObject({
      replaces: ["groupId"],
    });
    expect(
      await groupReleaseChannelHandler.diff("", olds, { groupId: A, releaseChannelId: C }),
    ).toMatchObject({
      replaces: ["releaseChannelId"],
    });
  });
});
