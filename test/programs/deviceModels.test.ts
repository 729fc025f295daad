// getDeviceModels and getGroupTree in a program on the real Pulumi CLI (test/engine): the lookups run inside the
// program (preview and up), an App takes its deviceModelIds from getDeviceModels, and the organization is
// asserted through the emulator's API afterwards. Create, `up` twice without a change, refresh without one, a
// change of manufacturer (with the new name the App needs for new models: a replacement), and destroy.
import { expectUpChangesNothing, useProgramStack } from "../harness/programStack";
import * as dm from "../../provider";

const org = useProgramStack({ project: "devicemgmt-device-models" });

/** An app for every supported headset of one manufacturer, and the configured sites the group tree has. */
function program(name: string, manufacturer: string) {
  return () => {
    const models = dm.getDeviceModelsOutput({ manufacturer, supported: true });
    const app = new dm.App("trainer", { name, deviceModelIds: models.ids });
    const tree = dm.getGroupTreeOutput();
    return {
      appId: app.id,
      modelNames: models.models.apply((ms) => ms.map((m) => m.name)),
      sites: tree.all.apply((groups) => groups.filter((g) => g.configured).map((g) => g.name)),
    };
  };
}

const modelsOf = async (appId: string) =>
  ((await org.admin.apps.get(appId)).deviceModels ?? []).map((m) => m.name).sort();

let firstAppId: string;
let picoAppId: string;

test("up creates the app for the manufacturer's supported models the lookup found", async () => {
  const site = await org.admin.groups.create({ name: "Lookup Site", parentId: null });
  await org.admin.groups.configure(site.id);
  const result = await org.engine.up(program("Headset Trainer", "Meta"));
  expect(result.errors).toEqual([]);
  expect(result.steps.create.map((s) => s.name)).toEqual(["trainer"]);
  firstAppId = result.outputs.appId as string;
  expect(result.outputs.modelNames).toEqual(["Quest 2", "Quest 3", "Quest Pro"]);
  expect(result.outputs.sites).toContain("Lookup Site");
  expect(await modelsOf(firstAppId)).toEqual(["Quest 2", "Quest 3", "Quest Pro"]);
});

test("up again and refresh change nothing", async () => {
  await expectUpChangesNothing(org, program("Headset Trainer", "Meta"));
  const refreshed = await org.engine.refresh();
  expect(refreshed.errors).toEqual([]);
  expect(refreshed.steps.update).toEqual([]);
  expect(refreshed.steps.delete).toEqual([]);
  const twice = await org.engine.up(program("Headset Trainer", "Meta"));
  for (const kind of ["create", "update", "replace", "delete"] as const)
    expect(twice.steps[kind]).toEqual([]);
  expect(org.emulator.stats().writes).toBe(0);
});

test("another manufacturer's models under a new name replace the app: the new one has Pico's models", async () => {
  const changed = await org.engine.up(program("Headset Trainer (Pico)", "Pico"));
  expect(changed.errors).toEqual([]);
  expect(changed.steps.replace.map((s) => s.name)).toEqual(["trainer"]);
  const appId = (picoAppId = changed.outputs.appId as string);
  expect(appId).not.toBe(firstAppId);
  expect(changed.outputs.modelNames).toEqual(["Pico 4 Enterprise", "Pico Neo 3 Pro"]);
  expect(await modelsOf(appId)).toEqual(["Pico 4 Enterprise", "Pico Neo 3 Pro"]);
  // The API cannot delete apps: the replaced one stays, with its models.
  expect(await modelsOf(firstAppId)).toEqual(["Quest 2", "Quest 3", "Quest Pro"]);
});

test("destroy forgets the app (the API cannot delete one); it stays with its models", async () => {
  const destroyed = await org.engine.destroy();
  expect(destroyed.errors).toEqual([]);
  expect(destroyed.steps.delete.map((s) => s.name)).toEqual(["trainer"]);
  expect(await org.admin.apps.get(picoAppId)).toMatchObject({ name: "Headset Trainer (Pico)" });
  expect(await modelsOf(picoAppId)).toEqual(["Pico 4 Enterprise", "Pico Neo 3 Pro"]);
});
