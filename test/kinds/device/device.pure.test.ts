// Pure rules of Device: check and diff by its declaration, a create refused before any request, and the tag
// difference its writes attach and detach.
import { deviceKind } from "../../../provider/kinds/device/definition";
import { tagDifference } from "../../../provider/kinds/device/tags";
import { deviceHandler } from "../../../provider/kinds/device/handler";
import { NotPossibleError } from "../../../provider/errors";
import { diffKind } from "../../../provider/framework";

const ID = "3f2504e0-4f89-41d3-9a0c-0305e82c3301";
const OTHER = "9a2504e0-4f89-41d3-9a0c-0305e82c3302";

describe("Device check and diff", () => {
  it("needs deviceId or serialNumber, and names each bad property", async () => {
    const none = await deviceKind.handler.check({}, { name: "x" });
    expect((none.failures ?? []).map((f) => f.property)).toEqual(["deviceId"]);
    const bad = await deviceKind.handler.check(
      {},
      { deviceId: "nope", tags: "lobby", customFields: { a: 1 } },
    );
    expect((bad.failures ?? []).map((f) => f.property).sort()).toEqual(["customFields", "deviceId", "tags"]);
  });

  it("shows no change for what is not declared, for tags in another case or order, and for a serial in another case", () => {
    const recorded = {
      deviceId: ID,
      serialNumber: "ACM0001",
      name: "Lobby 01",
      groupId: null,
      tags: ["Lobby", "training"],
      customFields: { Site: "North" },
    };
    expect(diffKind(deviceKind, recorded, { serialNumber: "acm0001" }).changes).toBe(false);
    expect(diffKind(deviceKind, recorded, { deviceId: ID, tags: ["TRAINING", "lobby"] }).changes).toBe(false);
    const moved = diffKind(deviceKind, recorded, { deviceId: ID, groupId: OTHER, customFields: {} });
    expect(moved).toMatchObject({ changes: true, replaces: [] });
    expect(diffKind(deviceKind, recorded, { deviceId: OTHER }).replaces).toEqual(["deviceId"]);
  });

  it("a create that names no device (past check) is refused naming deviceId, before any request", async () => {
    // Nothing listens on port 9: a request would fail as a connection error, not as this refusal.
    const connection = { baseUrl: "http://127.0.0.1:9/api/v3", apiToken: "1|token" };
    const error = await deviceHandler.create({ connection, name: "Lobby 01" }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(NotPossibleError);
    expect(error).toMatchObject({
      kind: "Device",
      property: "deviceId",
      fix: "give deviceId or serialNumber",
    });
  });

  it("tagDifference attaches and detaches only the difference, without case", () => {
    expect(tagDifference(["Lobby", "old"], ["lobby", "new", "NEW"])).toEqual({
      attach: ["new"],
      detach: ["old"],
    });
    expect(tagDifference([], [])).toEqual({ attach: [], detach: [] });
  });
});
