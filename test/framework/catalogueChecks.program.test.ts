// Issue #32 item 4 on the real Pulumi CLI: a misspelt tag name, a custom field named `__proto__` and a tag name
// with an unpaired surrogate fail `pulumi preview` (and `up` before any write) with the property and the fix,
// and the organization is unchanged afterwards; a tag name that a Tag of the program declares passes.
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { DeviceMgmtClient } from "../../provider/client";
import { createEngine, type Engine } from "../engine";
import * as dm from "../../provider";

const repoRoot = path.resolve(__dirname, "../..");

let emulator: RunningEmulator;
let engine: Engine;
let admin: DeviceMgmtClient;
let serial: string;
let deviceId: string;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, seed: { devices: 2 } });
  admin = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
  const device = (await admin.devices.all()).find((d) => !d.group)!;
  serial = device.serialNumber;
  deviceId = device.id;
  engine = await createEngine({
    cwd: repoRoot,
    project: "devicemgmt-catalogue-checks",
    config: { "devicemgmt:baseUrl": emulator.baseUrl },
    secretConfig: { "devicemgmt:apiToken": emulator.tokens.admin },
  });
});

afterAll(async () => {
  await engine?.close();
  await emulator?.close();
});

/** What an outside reader sees of the organization: the catalogue and the device. */
const organization = () => {
  const snapshot = emulator.snapshot();
  const device = snapshot.devices.find((d) => d.id === deviceId)!;
  return {
    tags: snapshot.tags.map((t) => t.name).sort(),
    deviceTags: [...device.tags].sort(),
    customFields: device.customFields,
    name: device.name,
  };
};

const checkFailures = (result: {
  errors: { op: string; failures?: { property: string; reason: string }[] }[];
}) => result.errors.flatMap((e) => (e.op === "check" ? (e.failures ?? []) : []));

describe("check knows the catalogue, on the Pulumi CLI", () => {
  it("a misspelt tag fails preview and up with the closest name; no tag is created", async () => {
    const before = organization();
    const program = () => {
      new dm.Device("headset", { serialNumber: serial, name: "Typo", tags: ["trainig"] });
    };
    for (const result of [await engine.preview(program), await engine.up(program)]) {
      expect(result.ok).toBe(false);
      expect(checkFailures(result)).toEqual([
        {
          property: "tags",
          reason: expect.stringMatching(/no tag named "trainig" .*closest existing name is "training"/),
        },
      ]);
    }
    expect(organization()).toEqual(before);
    expect(organization().tags).not.toContain("trainig");
  });

  it("a custom field named __proto__ and a tag with an unpaired surrogate fail preview; nothing is altered", async () => {
    const before = organization();
    // As from a JSON file: JSON.parse makes "__proto__" an own key, which the SDK would drop silently.
    const fields = JSON.parse('{"__proto__": "x", "Room": "Atrium"}') as Record<string, string>;
    const reserved = () => {
      new dm.Device("headset", { serialNumber: serial, customFields: fields });
    };
    // Half of an emoji (a high surrogate without its pair): the protocol's UTF-8 would drop it.
    const cut = () => {
      new dm.Tag("cut", { name: "site \ud83c" });
    };
    const cases: [() => void, string, RegExp][] = [
      [reserved, "customFields", /customFields has the key "__proto__", which is reserved .*rename it/],
      [cut, "name", /name has an unpaired UTF-16 surrogate at position 5.*correct the text/],
    ];
    for (const [program, property, reason] of cases) {
      for (const result of [await engine.preview(program), await engine.up(program)]) {
        expect(result.ok).toBe(false);
        expect(checkFailures(result)).toEqual([{ property, reason: expect.stringMatching(reason) }]);
      }
    }
    expect(organization()).toEqual(before);
  });

  it("a group configured in the same change takes a GroupFile: preview and up pass", async () => {
    const manual = (await admin.files.all())[0];
    const program = (configured: boolean) => () => {
      const site = new dm.Group("late", { name: "Late site", configured });
      if (configured) new dm.GroupFile("late-manual", { groupId: site.id, fileId: manual.id });
    };
    expect((await engine.up(program(false))).errors).toEqual([]);
    expect((await engine.preview(program(true))).errors).toEqual([]);
    expect((await engine.up(program(true))).errors).toEqual([]);
    const site = emulator.snapshot().groups.find((g) => g.name === "Late site")!;
    expect(site).toMatchObject({ isConfigured: true, fileIds: [manual.id] });
    await engine.destroy();
  });

  it("a name a Tag of the program declares passes, and up creates it before attaching it", async () => {
    const program = () => {
      const tag = new dm.Tag("east", { name: "site-east" });
      new dm.Device("headset", { serialNumber: serial, tags: [tag.name, "training"] });
    };
    const preview = await engine.preview(program);
    expect(preview.errors).toEqual([]);
    const up = await engine.up(program);
    expect(up.errors).toEqual([]);
    expect(organization().deviceTags.map((t) => t.toLowerCase())).toEqual(["site-east", "training"]);
    expect((await engine.up(program)).steps.update ?? []).toEqual([]);
    await engine.destroy();
    expect(organization().tags).not.toContain("site-east");
  });
});
