// A v2 token is refused before any write, for every kind: the client's writes assert the token (and a v3 read
// with a v2 token is explained as the same refusal), so no handler asserts it again on its own. The handlers
// run in-process against the emulator, so the refusal is asserted by class and fields.
import { startEmulator, type RunningEmulator } from "../../emulator";
import { configure, handler } from "../../provider/runtime";
import { DeviceMgmtClient, UnsupportedTokenError } from "../../provider/client";
import type { Props } from "../../provider/framework";
import { THEME_COLOURS as colours } from "../fixtures/declarations";

let emulator: RunningEmulator;
let admin: DeviceMgmtClient;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  admin = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
  const config = new Map([
    ["devicemgmt:baseUrl", emulator.baseUrl],
    ["devicemgmt:apiToken", emulator.tokens.v2],
  ]);
  await configure({ config: { get: (key: string) => config.get(key) } } as never);
});
afterAll(() => emulator.close());

async function refused(operation: Promise<unknown>): Promise<void> {
  const error = await operation.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UnsupportedTokenError);
  expect(error).toMatchObject({ method: "GET", path: expect.stringMatching(/token-info$/) });
  expect((error as Error).message).not.toContain(emulator.tokens.v2.split("|")[1]);
}

async function checked(kind: string, news: Props): Promise<Props> {
  const result = await handler(kind).check({}, news);
  expect(result.failures ?? []).toEqual([]);
  return result.inputs!;
}

test("creates that read first (Group, Theme, Tag) and a create that only writes (a group's TagSet) refuse a v2 token, writing nothing", async () => {
  const group = await admin.groups.create({ name: "Tagged", parentId: null });
  const writesBefore = emulator.stats().writes;
  await refused(handler("group").create(await checked("group", { name: "Nope", __claimant: "g" })));
  await refused(
    handler("theme").create(await checked("theme", { name: "Nope", ...colours, __claimant: "t" })),
  );
  await refused(handler("tag").create(await checked("tag", { name: "Nope", __claimant: "tag" })));
  await refused(
    handler("tagSet").create(
      await checked("tagSet", { ownerType: "group", ownerId: group.id, tags: ["Nope"], __claimant: "ts" }),
    ),
  );
  expect(emulator.stats().writes).toBe(writesBefore);
  expect((await admin.tags.all()).map((t) => t.name)).not.toContain("Nope");
});

test("updates and deletes refuse a v2 token before writing", async () => {
  const tag = await admin.tags.create("Kept");
  const props = await checked("tag", { name: "Kept", __claimant: "kept" });
  const writesBefore = emulator.stats().writes;
  await refused(handler("tag").update(tag.id, props, { ...props, name: "Renamed" }));
  await refused(handler("tag").delete(tag.id, props));
  expect(emulator.stats().writes).toBe(writesBefore);
  expect((await admin.tags.all()).find((t) => t.id === tag.id)?.name).toBe("Kept");
});
