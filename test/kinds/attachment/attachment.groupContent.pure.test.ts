// A group's file or video cannot be listed, so its attach meets "already assigned" in two cases that must end
// differently: the repeat of this process's own attach whose answer was lost (success: the first did it), and a
// first attempt over someone else's attachment (refused, nothing changed). Driven with a client whose answers
// are scripted, through the same untilApplied loop the attachment handler uses.
import { AmbiguousWriteError, ValidationError, type DeviceMgmtClient } from "../../../provider/client";
import { NotCreatedHereError } from "../../../provider/errors";
import { contentOnGroup } from "../../../provider/kinds/attachment/groupContent";
import { untilApplied } from "../../../provider/framework";

const GROUP = "3f2504e0-4f89-41d3-9a0c-0305e82c3301";
const FILE = "9a2504e0-4f89-41d3-9a0c-0305e82c3302";
const path = `/groups/${GROUP}/files`;
const lost = () => new AmbiguousWriteError({ method: "POST", path, cause: new Error("socket hang up") });
const assigned = (afterAmbiguousAttempt = false) =>
  new ValidationError({
    method: "POST",
    path,
    status: 422,
    fieldErrors: { fileId: ["The file is already assigned to this group."] },
    afterAmbiguousAttempt,
  });

/** A client whose addFile answers with the scripted outcomes in turn (undefined: 204). */
function scripted(outcomes: (Error | undefined)[]) {
  const calls: string[] = [];
  const client = {
    // The file exists: "already assigned" is then about the attachment, not an unknown id.
    files: { get: async (fileId: string) => ({ id: fileId }) },
    groups: {
      addFile: async (groupId: string, fileId: string) => {
        calls.push(`${groupId}/${fileId}`);
        const outcome = outcomes.shift();
        if (outcome) throw outcome;
      },
    },
  } as unknown as DeviceMgmtClient;
  return { client, calls };
}

/** The create's write loop, as the attachment handler (kinds/attachment/handler.ts) runs it. */
function attach(client: DeviceMgmtClient) {
  const spec = contentOnGroup("fileId");
  return untilApplied(
    async () => (await spec.attach(client, GROUP, FILE), true),
    async () => (await spec.attached()) || undefined,
  );
}

describe("a group file's attach", () => {
  it("takes 'already assigned' after its own lost answer as done (no failure, one attachment)", async () => {
    const { client, calls } = scripted([lost(), assigned()]);
    await expect(attach(client)).resolves.toBe(true);
    expect(calls).toHaveLength(2);
  });

  it("takes 'already assigned' flagged by the client as after an ambiguous attempt as done", async () => {
    const { client } = scripted([assigned(true)]);
    await expect(attach(client)).resolves.toBe(true);
  });

  it("refuses 'already assigned' on a first attempt: someone else attached it, nothing was changed", async () => {
    const { client, calls } = scripted([assigned()]);
    const error = await attach(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotCreatedHereError);
    expect((error as Error).message).toMatch(
      /already attached to group .* and this GroupFile did not attach it/,
    );
    // The way to take it over: adoptId names the attachment.
    expect(error).toMatchObject({ property: "adoptId", existingId: `${GROUP}/${FILE}` });
    expect((error as Error).message).toContain(`adoptId: "${GROUP}/${FILE}"`);
    expect(calls).toHaveLength(1);
  });

  it("takes 'already assigned' as done when the attachment is the resource's own (adopted, or its killed run's)", async () => {
    const { client, calls } = scripted([assigned()]);
    await expect(contentOnGroup("fileId").attach(client, GROUP, FILE, true)).resolves.toBeUndefined();
    expect(calls).toHaveLength(1);
  });

  it("passes other refusals through (an unconfigured group is explained by the handler)", async () => {
    const other = new ValidationError({ method: "POST", path, status: 422, fieldErrors: { groupId: ["x"] } });
    const { client } = scripted([other]);
    await expect(attach(client)).rejects.toBe(other);
  });
});
