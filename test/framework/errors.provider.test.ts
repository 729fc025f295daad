// Errors a user can act on are classes with fields (kind, property, fix, the ids involved): asserted here by
// class and field, through the handlers against the emulator, so a program or test needs no message matching.
import { startEmulator, type RunningEmulator } from "../../emulator";
import { resolveConnection } from "../../provider/connection";
import {
  AdoptionError,
  ConnectionSettingError,
  DeviceMgmtProblem,
  MalformedIdError,
  NotCreatedHereError,
  ObjectGoneError,
  UnknownKindError,
} from "../../provider/errors";
import { handler } from "../../provider/runtime";
import { groupHandler } from "../../provider/kinds/group/handler";
import { groupReleaseChannelKind } from "../../provider/kinds/attachment/definitions";
import { pluginHandler, type Props } from "../../provider/framework";

const MISSING = "34343434-3434-4343-8343-343434343434";

let emulator: RunningEmulator;
let connection: Props;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  connection = { baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin };
});
afterAll(() => emulator.close());

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (error: unknown) => error,
  );

describe("actionable errors carry their kind, property and fix", () => {
  it("a create that meets a same-named group: NotCreatedHereError naming the existing id for adoptId", async () => {
    const checked = await groupHandler.check({}, { name: "Errors Lab", connection });
    const existing = await groupHandler.create(checked.inputs!);
    const error = await failureOf(groupHandler.create(checked.inputs!));
    expect(error).toBeInstanceOf(NotCreatedHereError);
    expect(error).toBeInstanceOf(DeviceMgmtProblem);
    expect(error).toMatchObject({ existingId: existing.id, property: "adoptId" });
    expect((error as NotCreatedHereError).fix).toContain(existing.id);
  });

  it("adoptId naming nothing: AdoptionError with the id", async () => {
    const error = await failureOf(
      groupHandler.create({
        name: "Adopted",
        parentId: null,
        configured: false,
        adoptId: MISSING,
        connection,
      }),
    );
    expect(error).toBeInstanceOf(AdoptionError);
    expect(error).toMatchObject({ adoptId: MISSING, property: "adoptId" });
  });

  it("an update of a group deleted outside Pulumi: ObjectGoneError with kind and id", async () => {
    const olds = { name: "Gone", parentId: null, configured: false, connection };
    const error = await failureOf(groupHandler.update(MISSING, olds, { ...olds, name: "Renamed" }));
    expect(error).toBeInstanceOf(ObjectGoneError);
    expect(error).toMatchObject({ kind: "Group", id: MISSING });
  });

  it("an attachment id of another shape: MalformedIdError", async () => {
    const error = await failureOf(
      pluginHandler(groupReleaseChannelKind).read("not-an-attachment-id", { connection }),
    );
    expect(error).toBeInstanceOf(MalformedIdError);
    expect(error).toMatchObject({ kind: "GroupReleaseChannel", id: "not-an-attachment-id" });
  });

  it("a kind state names that this version does not know: UnknownKindError", () => {
    expect(() => handler("hologram")).toThrow(UnknownKindError);
    try {
      handler("hologram");
    } catch (error) {
      expect(error).toMatchObject({ kind: "hologram", name: "UnknownKindError" });
    }
  });

  it("no token anywhere: ConnectionSettingError naming the stack setting", () => {
    try {
      resolveConnection(undefined, { baseUrl: emulator.baseUrl }, {});
      throw new Error("expected a failure");
    } catch (error) {
      expect(error).toBeInstanceOf(ConnectionSettingError);
      expect(error).toMatchObject({ property: "devicemgmt:apiToken" });
    }
  });
});
