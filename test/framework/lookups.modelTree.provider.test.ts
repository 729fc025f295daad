// getDeviceModel(s) (for App.deviceModelIds) and getGroupTree against the emulator: what they find, what they
// refuse before any request, and the errors that list what there is.
import * as pulumi from "@pulumi/pulumi";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { DeviceMgmtClient, type DeviceModel } from "../../provider/client";
import {
  getDeviceModel,
  getDeviceModelOutput,
  getDeviceModels,
  getDeviceModelsOutput,
  getGroupTree,
  getGroupTreeOutput,
  type GroupTreeNode,
} from "../../provider";
import { LookupArgumentError, LookupError } from "../../provider/errors";

let emulator: RunningEmulator;
let admin: DeviceMgmtClient;
let models: DeviceModel[];

const valueOf = <T>(output: pulumi.Output<T>): Promise<T> =>
  (output as unknown as { promise(): Promise<T> }).promise();

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  admin = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
  pulumi.runtime.setAllConfig(
    { "devicemgmt:baseUrl": emulator.baseUrl, "devicemgmt:apiToken": emulator.tokens.admin },
    ["devicemgmt:apiToken"],
  );
  models = await admin.deviceModels.all();
});
afterAll(async () => {
  pulumi.runtime.setAllConfig({});
  await emulator.close();
});

const model = (name: string) => models.find((m) => m.name === name)!;

/** A tree by names: a leaf as its name, a folder as { name: children }. */
const names = (nodes: GroupTreeNode[]): unknown =>
  nodes.map((n) => (n.children.length ? { [n.name]: names(n.children) } : n.name));

describe("getDeviceModel", () => {
  it("finds a model by name, by name and manufacturer, and by id", async () => {
    const quest3 = model("Quest 3");
    const expected = { id: quest3.id, name: "Quest 3", manufacturer: "Meta", isSupported: true };
    expect(await getDeviceModel({ name: "Quest 3" })).toEqual(expected);
    expect(await getDeviceModel({ name: "Quest 3", manufacturer: "Meta" })).toEqual(expected);
    expect(await getDeviceModel({ id: quest3.id })).toEqual(expected);
    expect(await getDeviceModel({ id: quest3.id.toUpperCase() })).toEqual(expected);
    expect(await valueOf(getDeviceModelOutput({ name: pulumi.output("Quest 3") }))).toEqual(expected);
  });

  it("finds an unsupported model a device enrolled with, and says it is unsupported", async () => {
    expect(await getDeviceModel({ name: "Mirage Solo" })).toMatchObject({
      manufacturer: "Lenovo",
      isSupported: false,
    });
  });

  it("a name the organization's models lack (or another manufacturer's) is an error listing the models", async () => {
    // "Go" is unsupported and nobody enrolled one: GET /device-models does not list it.
    for (const args of [{ name: "Go" }, { name: "Quest 3", manufacturer: "Pico" }]) {
      const none = getDeviceModel(args);
      await expect(none).rejects.toBeInstanceOf(LookupError);
      await expect(none).rejects.toMatchObject({
        matches: 0,
        available: expect.arrayContaining(["Quest 3 (Meta)", "Pico 4 Enterprise (Pico)"]),
      });
    }
    await expect(getDeviceModel({ name: "Go" })).rejects.toThrow(
      /No device model named "Go"\. Available: .*"Quest 2 \(Meta\)"/,
    );
    const missing = "0000aaaa-0000-4000-8000-000000000000";
    await expect(getDeviceModel({ id: missing })).rejects.toMatchObject({
      what: `device model with id ${missing} in the organization`,
    });
  });

  it("refuses wrong arguments before any request, naming the argument", async () => {
    emulator.resetStats();
    const cases: [unknown, string | undefined, RegExp][] = [
      [{ id: "../users" }, "id", /argument "id" must be the UUID of a device model/],
      [{ id: model("Quest 2").id, name: "Quest 2" }, undefined, /give either "id", or "name"/],
      [{ name: "" }, "name", /argument "name" must be the device model's name/],
      [{ name: "Quest 3", maker: "Meta" }, "maker", /unknown argument "maker"/],
      [{}, undefined, /it needs "id" or "name"/],
    ];
    for (const [args, property, message] of cases) {
      const refused = getDeviceModel(args as never);
      await expect(refused).rejects.toBeInstanceOf(LookupArgumentError);
      await expect(refused).rejects.toMatchObject({ lookup: "getDeviceModel", property });
      await expect(refused).rejects.toThrow(message);
    }
    expect(emulator.stats().requests).toBe(0);
  });
});

describe("getDeviceModels", () => {
  it("lists every model the organization can use, by manufacturer then name, with their ids", async () => {
    const all = await getDeviceModels();
    const expected = [...models].sort(
      (a, b) => a.manufacturer!.localeCompare(b.manufacturer!) || a.name.localeCompare(b.name),
    );
    expect(all.models.map((m) => `${m.manufacturer} ${m.name}`)).toEqual(
      expected.map((m) => `${m.manufacturer} ${m.name}`),
    );
    expect(all.ids).toEqual(expected.map((m) => m.id));
    expect(all.models.map((m) => m.name)).toContain("Mirage Solo");
    expect(all.models.map((m) => m.name)).not.toContain("Go");
    expect((await valueOf(getDeviceModelsOutput())).ids).toEqual(all.ids);
  });

  it("filters by manufacturer and by support; nothing matching is an empty list", async () => {
    expect((await getDeviceModels({ manufacturer: "Meta" })).models.map((m) => m.name)).toEqual([
      "Quest 2",
      "Quest 3",
      "Quest Pro",
    ]);
    const unsupported = await getDeviceModels({ supported: false });
    expect(unsupported.models.map((m) => m.name)).toEqual(["Mirage Solo"]);
    expect(await getDeviceModels({ manufacturer: "Meta", supported: false })).toEqual({
      models: [],
      ids: [],
    });
    expect((await valueOf(getDeviceModelsOutput({ manufacturer: pulumi.output("Pico") }))).ids).toEqual([
      model("Pico 4 Enterprise").id,
      model("Pico Neo 3 Pro").id,
    ]);
  });

  it("refuses wrong arguments before any request", async () => {
    emulator.resetStats();
    await expect(getDeviceModels({ supported: "yes" } as never)).rejects.toMatchObject({
      property: "supported",
      message: expect.stringMatching(/argument "supported" must be true or false/),
    });
    await expect(getDeviceModels({ vendor: "Meta" } as never)).rejects.toBeInstanceOf(LookupArgumentError);
    expect(emulator.stats().requests).toBe(0);
  });
});

describe("getGroupTree", () => {
  let world: string, alpha: string, zulu: string, inner: string;

  beforeAll(async () => {
    world = (await admin.groups.create({ name: "Tree World", parentId: null })).id;
    zulu = (await admin.groups.create({ name: "Zulu", parentId: world })).id;
    alpha = (await admin.groups.create({ name: "alpha", parentId: world })).id;
    await admin.groups.configure(alpha);
    inner = (await admin.groups.create({ name: "Inner", parentId: zulu })).id;
    await admin.groups.configure(inner);
    const [device] = await admin.devices.all();
    await admin.devices.update(device.id, { groupId: alpha });
  });

  it("reads the whole tree in one request, each node with its parent, and lists it parents first", async () => {
    emulator.resetStats();
    const tree = await getGroupTree();
    expect(emulator.stats().byRoute).toEqual({ "GET /group-hierarchy": 1 });
    const worldNode = tree.roots.find((r) => r.id === world)!;
    expect(worldNode).toEqual({
      id: world,
      name: "Tree World",
      parentId: null,
      configured: false,
      deviceCount: 0,
      children: [
        { id: alpha, name: "alpha", parentId: world, configured: true, deviceCount: 1, children: [] },
        {
          id: zulu,
          name: "Zulu",
          parentId: world,
          configured: false,
          deviceCount: 0,
          children: [
            { id: inner, name: "Inner", parentId: zulu, configured: true, deviceCount: 0, children: [] },
          ],
        },
      ],
    });
    // Every group of the organization, once, each after its parent.
    const everyGroup = await admin.groups.all();
    expect(tree.all.map((g) => g.id).sort()).toEqual(everyGroup.map((g) => g.id).sort());
    const position = new Map(tree.all.map((g, i) => [g.id, i]));
    for (const g of tree.all)
      if (g.parentId) expect(position.get(g.parentId)!).toBeLessThan(position.get(g.id)!);
  });

  it("from rootGroupId, only that group and what is under it", async () => {
    const subtree = await getGroupTree({ rootGroupId: zulu });
    expect(names(subtree.roots)).toEqual([{ Zulu: ["Inner"] }]);
    expect(subtree.roots[0].parentId).toBe(world);
    expect(subtree.all.map((g) => g.name)).toEqual(["Zulu", "Inner"]);
    const fromOutput = await valueOf(getGroupTreeOutput({ rootGroupId: pulumi.output(world.toUpperCase()) }));
    expect(names(fromOutput.roots)).toEqual([{ "Tree World": ["alpha", { Zulu: ["Inner"] }] }]);
    expect(fromOutput.all.filter((g) => g.configured).map((g) => g.name)).toEqual(["alpha", "Inner"]);
  });

  it("a rootGroupId no group has is an error; a malformed one is refused before any request", async () => {
    const missing = "0000aaaa-0000-4000-8000-000000000000";
    const none = getGroupTree({ rootGroupId: missing });
    await expect(none).rejects.toBeInstanceOf(LookupError);
    await expect(none).rejects.toMatchObject({
      what: `group with id ${missing} in the group tree`,
      available: expect.arrayContaining(["Tree World", "Zulu"]),
    });
    emulator.resetStats();
    const refused = getGroupTree({ rootGroupId: "EMEA" });
    await expect(refused).rejects.toBeInstanceOf(LookupArgumentError);
    await expect(refused).rejects.toMatchObject({ lookup: "getGroupTree", property: "rootGroupId" });
    await expect(getGroupTree({ root: world } as never)).rejects.toThrow(/unknown argument "root"/);
    expect(emulator.stats().requests).toBe(0);
  });
});

// The documents do not say what GET /group-hierarchy answers such a token; the lookup takes the answer's top-level
// nodes as roots whatever they are. Under the emulator's reading they are the highest groups the token may see.
describe("getGroupTree with a token that has only group roles", () => {
  it("takes the answer's top-level groups as roots, with parentId null even where they have a parent", async () => {
    const roles = await admin.roles.all();
    const viewer = roles.find((r) => r.name === "Group Viewer")!;
    const member = roles.find((r) => r.name === "Member")!;
    const folder = (await admin.groups.create({ name: "Viewer Folder", parentId: null })).id;
    const region = (await admin.groups.create({ name: "Viewer Region", parentId: folder })).id;
    const site = (await admin.groups.create({ name: "Viewer Site", parentId: region })).id;
    await admin.groups.configure(site);
    const reader = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.readOnly });
    const me = await reader.currentUser();
    await admin.users.update(me.id, {
      defaultRoleId: member.id,
      groupRoles: [{ roleId: viewer.id, groupId: region, action: "attach" }],
    });
    const connection = { baseUrl: emulator.baseUrl, apiToken: emulator.tokens.readOnly };
    const tree = await getGroupTree({}, { connection });
    expect(names(tree.roots)).toEqual([{ "Viewer Region": ["Viewer Site"] }]);
    expect(tree.roots[0]).toMatchObject({ id: region, parentId: null });
    expect(tree.all.map((g) => g.parentId)).toEqual([null, region]);
  });
});
