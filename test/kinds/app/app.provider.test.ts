// App through the real dynamic-provider plugin against the emulator, under both readings of what the documents
// leave open about apps (names unique or not, an empty description kept or read as none, the models an app gets
// when none are given). The organization is asserted through the API (an outside client), never the state alone.
import type { EmulatorOptions } from "../../../emulator";
import { failure, loggedWarning, Managed, startStack, type Stack } from "../../harness/providerStack";

const READINGS: [string, EmulatorOptions][] = [
  ["the default reading", {}],
  [
    "the strict reading (unique names, empty description kept, supported models by default)",
    { strict: { uniqueAppNames: true, keepEmptyAppDescription: true, defaultAppModelsToSupported: true } },
  ],
];

describe.each(READINGS)("App, %s", (_reading, emulatorOptions) => {
  let stack: Stack;
  let models: { id: string; name: string; isSupported: boolean }[];
  beforeAll(async () => {
    stack = await startStack({ emulator: emulatorOptions });
    models = await stack.admin.deviceModels.all();
  });
  afterAll(() => stack.close());

  const live = (id: string) => stack.admin.apps.get(id);
  const appsNamed = async (name: string) =>
    (await stack.admin.apps.all()).filter((a) => a.name.toLowerCase() === name.toLowerCase());

  it("creates, reads back without a diff, renames and re-describes in place, and destroy forgets it", async () => {
    const ids = [models[0].id, models[1].id].sort();
    const app = await Managed.of(stack.plugin, "app", "trainer");
    const outs = await app.create({
      name: "Forklift Trainer",
      description: "Onboarding",
      deviceModelIds: ids,
    });
    expect(outs).toMatchObject({ name: "Forklift Trainer", description: "Onboarding", deviceModelIds: ids });
    expect(await live(app.id)).toMatchObject({
      name: "Forklift Trainer",
      description: "Onboarding",
      deviceModels: expect.arrayContaining(ids.map((id) => expect.objectContaining({ id }))),
    });
    expect(
      await app.diff({ name: "Forklift Trainer", description: "Onboarding", deviceModelIds: ids }),
    ).toMatchObject({ changes: "none" });
    // A check of the same models asks nothing (only ids new since the recorded inputs are looked up).
    stack.emulator.resetStats();
    expect((await app.check({ name: "Forklift Trainer", deviceModelIds: ids })).failures).toEqual([]);
    expect(stack.emulator.stats().byRoute["GET /device-models"]).toBeUndefined();
    const read = await app.read();
    expect(read.id).toBe(app.id);
    expect(read.inputs).toBeUndefined(); // nothing changed outside: the engine keeps the recorded inputs

    expect(await app.diff({ name: "Forklift Trainer 2", deviceModelIds: ids })).toMatchObject({
      changes: "some",
      replaces: [],
    });
    await app.update({ name: "Forklift Trainer 2", description: "", deviceModelIds: ids });
    // "" is no description, whichever way the service would read an empty string: null is what is sent.
    expect(await live(app.id)).toMatchObject({ name: "Forklift Trainer 2", description: null });
    expect(
      await app.diff({ name: "Forklift Trainer 2", description: null, deviceModelIds: ids }),
    ).toMatchObject({
      changes: "none",
    });

    stack.emulator.resetStats();
    await app.delete();
    expect(stack.emulator.stats().writes).toBe(0);
    expect(await live(app.id)).toMatchObject({ name: "Forklift Trainer 2" }); // the API cannot delete apps
    await loggedWarning(stack.plugin, `App ${app.id} ("Forklift Trainer 2"): the API cannot delete apps`);
  });

  it("sees a rename and an emptied description made in the portal on refresh, and puts them back", async () => {
    const app = await Managed.of(stack.plugin, "app", "portal-rename");
    await app.create({ name: "Safety Walkthrough", description: "Floor safety" });
    // Someone renames the app in the portal and clears its description with "" (kept as "" by a strict service).
    await stack.admin.apps.update(app.id, { name: "Safety Walkthrough (old)", description: "" });
    const read = await app.read();
    expect(read.inputs).toMatchObject({ name: "Safety Walkthrough (old)", description: null });
    expect(await app.diff({ name: "Safety Walkthrough", description: "Floor safety" })).toMatchObject({
      changes: "some",
      replaces: [],
    });
    await app.update({ name: "Safety Walkthrough", description: "Floor safety" });
    expect(await live(app.id)).toMatchObject({ name: "Safety Walkthrough", description: "Floor safety" });
    // An empty description read back is no change for a program that declares none.
    await stack.admin.apps.update(app.id, { description: "" });
    await app.update({ name: "Safety Walkthrough" });
    await stack.admin.apps.update(app.id, { description: "" });
    // (A strict service kept "" and moved updatedAt, so the read may hand back inputs: the same ones.)
    const after = await app.read();
    expect(after.properties.description).toBeNull();
    expect(app.inputs).toMatchObject({ name: "Safety Walkthrough", description: null });
    expect(await app.diff({ name: "Safety Walkthrough" })).toMatchObject({ changes: "none" });
  });

  it("refuses to create over an app of the same name (without case) before any write; adoptId takes it over", async () => {
    const [seeded] = await appsNamed("Training Simulator");
    const twin = await Managed.of(stack.plugin, "app", "twin");
    stack.emulator.resetStats();
    const refused = await failure(twin.create({ name: "training simulator" }));
    expect(refused.message).toMatch(/An app named "training simulator" already exists/);
    expect(refused.message).toContain(`adoptId: "${seeded.id}"`);
    expect(stack.emulator.stats().writes).toBe(0);
    expect(await appsNamed("Training Simulator")).toHaveLength(1);

    const adopted = await Managed.of(stack.plugin, "app", "adopted");
    const outs = await adopted.create({
      name: "Training Simulator",
      description: "Managed by Pulumi",
      adoptId: seeded.id,
    });
    expect(adopted.id).toBe(seeded.id);
    expect(outs.deviceModelIds).toEqual((seeded.deviceModels ?? []).map((m) => m.id.toLowerCase()).sort());
    expect(await live(seeded.id)).toMatchObject({ description: "Managed by Pulumi", tags: seeded.tags });
    // Models left out are not managed: the app's own are no change.
    expect(
      await adopted.diff({ name: "Training Simulator", description: "Managed by Pulumi" }),
    ).toMatchObject({
      changes: "none",
    });
  });

  it("refuses a rename onto another app's name (without case) at preview and at update, before any write", async () => {
    const app = await Managed.of(stack.plugin, "app", "renamer");
    await app.create({ name: "Rename Me" });
    const onto = { name: "safety briefing" };
    const atPreview = await failure(app.diff(onto));
    expect(atPreview.message).toMatch(/^name: another app of the organization is named "Safety Briefing"/);
    stack.emulator.resetStats();
    const atUpdate = await failure(app.update(onto));
    expect(atUpdate.message).toMatch(/would leave two apps of one name/);
    expect(stack.emulator.stats().writes).toBe(0);
    expect(await live(app.id)).toMatchObject({ name: "Rename Me" });
    // Its own name in another case is not another app's.
    await app.update({ name: "RENAME ME" });
    expect(await live(app.id)).toMatchObject({ name: "RENAME ME" });
  });

  it("refuses to adopt an app for other models, and unknown model ids at check", async () => {
    const app = await stack.admin.apps.create({ name: "Model Bound", deviceModelIds: [models[0].id] });
    const adopter = await Managed.of(stack.plugin, "app", "model-bound");
    stack.emulator.resetStats();
    const refused = await failure(
      adopter.create({ name: "Model Bound", adoptId: app.id, deviceModelIds: [models[1].id] }),
    );
    expect(refused.message).toMatch(
      /^deviceModelIds: app .* is for the models \[.*\], not the declared ones/,
    );
    expect(stack.emulator.stats().writes).toBe(0);

    const checked = await adopter.check({
      name: "New App",
      deviceModelIds: ["0000aaaa-0000-4000-8000-000000000000"],
    });
    expect(checked.failures).toEqual([
      {
        property: "deviceModelIds",
        reason: expect.stringMatching(/no device model with id 0000aaaa-.* Use ids of GET \/device-models: /),
      },
    ]);
  });

  it("replaces for other models under a new name: the new app is made, the old one forgotten and kept", async () => {
    const app = await Managed.of(stack.plugin, "app", "remodelled");
    await app.create({ name: "Pilot Trainer", deviceModelIds: [models[0].id] });
    const next = { name: "Pilot Trainer 2", deviceModelIds: [models[1].id] };
    expect(await app.diff(next)).toMatchObject({ changes: "some", replaces: ["deviceModelIds"] });
    const { oldId } = await app.replace(next);
    expect(app.id).not.toBe(oldId);
    expect(await live(app.id)).toMatchObject({
      name: "Pilot Trainer 2",
      deviceModels: [expect.objectContaining({ id: models[1].id })],
    });
    expect(await live(oldId)).toMatchObject({ name: "Pilot Trainer" }); // the API cannot delete it
  });

  it("creates once when the answer to the create was lost", async () => {
    const app = await Managed.of(stack.plugin, "app", "lost");
    stack.emulator.setFaults({ dropAfterWriteRate: 1 });
    try {
      await app.create({ name: "Lost Answer App" });
    } finally {
      stack.emulator.setFaults({ dropAfterWriteRate: 0 });
    }
    expect(stack.emulator.stats().faults.droppedAfterWrite).toBeGreaterThan(0);
    const found = await appsNamed("Lost Answer App");
    expect(found.map((a) => a.id)).toEqual([app.id]);
  });

  it("leaves the models to the service when none are declared, with no diff afterwards", async () => {
    const app = await Managed.of(stack.plugin, "app", "any-model");
    const outs = await app.create({ name: "Any Model App" });
    const given = ((await live(app.id)).deviceModels ?? []).map((m) => m.id.toLowerCase()).sort();
    expect(outs.deviceModelIds).toEqual(given);
    expect(given.length > 0).toBe(emulatorOptions.strict?.defaultAppModelsToSupported === true);
    expect((await app.read()).inputs).toBeUndefined();
    expect(await app.diff({ name: "Any Model App" })).toMatchObject({ changes: "none" });
  });
});
