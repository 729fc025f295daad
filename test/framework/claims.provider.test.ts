// One live object, one claimant: the runtime's handlers (what the plugin runs), called in-process against the
// emulator, so the refusals are asserted by class and fields. Each call carries `__claimant`, the resource name
// the classes register.
import { startEmulator, type RunningEmulator } from "../../emulator";
import { DuplicateClaimError } from "../../provider/errors";
import { configure, handler } from "../../provider/runtime";
import { DeviceMgmtClient } from "../../provider/client";
import { THEME_COLOURS as colours } from "../fixtures/declarations";

let emulator: RunningEmulator;
let admin: DeviceMgmtClient;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, seed: { devices: 2 } });
  admin = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
  const config = new Map([
    ["devicemgmt:baseUrl", emulator.baseUrl],
    ["devicemgmt:apiToken", emulator.tokens.admin],
  ]);
  await configure({ config: { get: (key: string) => config.get(key) } } as never);
});
afterAll(() => emulator.close());

test("a second Theme of one name is refused at check, naming both resources and the property", async () => {
  const theme = handler("theme");
  const first = await theme.check({}, { name: "Brand", ...colours, __claimant: "brand-a" });
  expect(first.failures ?? []).toEqual([]);
  expect(first.inputs?.__claimant).toBe("brand-a");
  // Checked again (the same resource in a second pass) it still holds its claim.
  expect(
    (await theme.check({}, { name: "Brand", ...colours, __claimant: "brand-a" })).failures ?? [],
  ).toEqual([]);

  const second = await theme.check({}, { name: "Brand", ...colours, __claimant: "brand-b" });
  expect(second.failures).toEqual([
    {
      property: "name",
      reason: expect.stringContaining('Theme "brand-b" declares the custom theme "Brand"'),
    },
  ]);
  expect(second.failures?.[0].reason).toContain('Theme "brand-a" of this stack already declares');
  // A differently named theme is another object.
  expect(
    (await theme.check({}, { name: "Other", ...colours, __claimant: "brand-b" })).failures ?? [],
  ).toEqual([]);
});

test("a create whose key another resource holds is refused before any write (class and fields)", async () => {
  const tag = handler("tag");
  const made = await tag.create({ name: "dup", __claimant: "dup-a" });
  const refused = tag.create({ name: "DUP", __claimant: "dup-b" });
  await expect(refused).rejects.toBeInstanceOf(DuplicateClaimError);
  await expect(refused).rejects.toMatchObject({
    kind: "Tag",
    property: "name",
    claimant: "dup-b",
    holder: "dup-a",
  });
  const tags = (await admin.tags.all()).filter((t) => t.name.toLowerCase() === "dup");
  expect(tags.map((t) => t.id)).toEqual([made.id]);
});

test("a second User of one e-mail (in another case) is refused at check, naming the property", async () => {
  const user = handler("user");
  const roleId = (await admin.roles.all()).find((r) => r.name === "Read Only")!.id;
  const declared = { firstName: "Ula", lastName: "One", defaultRoleId: roleId };
  const first = await user.check({}, { ...declared, email: "ula.one@acme.example", __claimant: "ula" });
  expect(first.failures ?? []).toEqual([]);
  const second = await user.check(
    {},
    { ...declared, email: "Ula.One@Acme.example", __claimant: "ula-again" },
  );
  expect(second.failures).toEqual([
    {
      property: "email",
      reason: expect.stringContaining('User "ula-again" declares the user Ula.One@Acme.example'),
    },
  ]);
});

test("two resources recording one object id: the second is refused at diff", async () => {
  const tag = handler("tag");
  const made = await tag.create({ name: "shared-id", __claimant: "holder-a" });
  const olds = { ...made.outs, name: "shared-id" };
  await expect(tag.diff(made.id, olds, { name: "shared-id", __claimant: "holder-a" })).resolves.toBeDefined();
  await expect(tag.diff(made.id, olds, { name: "shared-id", __claimant: "holder-b" })).rejects.toMatchObject({
    constructor: DuplicateClaimError,
    claimant: "holder-b",
    holder: "holder-a",
  });
});

test("one device named by id in one resource and by serial number in another: refused before any write", async () => {
  const [device] = await admin.devices.all();
  const handlerOf = handler("device");
  await handlerOf.create({ deviceId: device.id, __claimant: "by-id" });
  const before = (await admin.devices.get(device.id)).name;
  const refused = handlerOf.create({
    serialNumber: device.serialNumber,
    name: "Renamed",
    __claimant: "by-serial",
  });
  await expect(refused).rejects.toMatchObject({
    constructor: DuplicateClaimError,
    kind: "Device",
    claimant: "by-serial",
    holder: "by-id",
  });
  expect((await admin.devices.get(device.id)).name).toBe(before);
});

test("calls without a claimant (a harness, a read from state) claim nothing", async () => {
  const theme = handler("theme");
  expect((await theme.check({}, { name: "Brand", ...colours })).failures ?? []).toEqual([]);
});
