// An App as a whole program on the real Pulumi CLI (test/engine): the SDK runs the program, the App goes to the
// real dynamic-provider plugin, and the emulator is the organization, asserted through its API afterwards.
// Create, `up` twice without a change, a rename in place, a portal rename seen by refresh and repaired by `up`,
// and a destroy that forgets the app (the API cannot delete one) and says so.
import { brief } from "../../drift/support";
import { driftReport, expectUpChangesNothing, useProgramStack } from "../../harness/programStack";
import * as dm from "../../../provider";

const org = useProgramStack({ project: "devicemgmt-app" });
let appId: string;

/** An app with a description, its tags through a TagSet, and a lookup of it by name (which a rename moves). */
function program(name: string) {
  return () => {
    const app = new dm.App("trainer", { name, description: "Warehouse onboarding" });
    new dm.TagSet("trainer-tags", { ownerType: "app", ownerId: app.id, tags: ["training"] });
    return { appId: app.id, appName: app.name };
  };
}

const appsNamed = async (name: string) => (await org.admin.apps.all()).filter((a) => a.name === name);

test("up creates the app with its description and tags; the lookup by name finds it", async () => {
  const result = await org.engine.up(program("Forklift Trainer"));
  expect(result.errors).toEqual([]);
  expect(result.steps.create.map((s) => s.name).sort()).toEqual(["trainer", "trainer-tags"]);
  appId = result.outputs.appId as string;
  expect(await org.admin.apps.get(appId)).toMatchObject({
    name: "Forklift Trainer",
    description: "Warehouse onboarding",
    tags: ["training"],
  });
  expect(await dm.getApp({ name: "Forklift Trainer" }, { connection: connectionOf() })).toMatchObject({
    id: appId,
    packageName: null,
  });
});

test("up again changes nothing, and refresh with no outside change shows none", async () => {
  await expectUpChangesNothing(org, program("Forklift Trainer"));
  const refreshed = await org.engine.refresh();
  expect(refreshed.errors).toEqual([]);
  expect(refreshed.steps.update).toEqual([]);
  expect(refreshed.steps.delete).toEqual([]);
});

test("a rename in the program updates the same app in place, and the tags stay", async () => {
  const renamed = await org.engine.up(program("Forklift Trainer XR"));
  expect(renamed.errors).toEqual([]);
  // The provider's diff: the name, in place. (The engine's own input comparison may also list deviceModelIds,
  // which a refresh reported from the live app while the program leaves them out: no change to the provider.)
  expect(renamed.steps.update.map((s) => [s.name, s.changedKeys.includes("name"), s.replaceKeys])).toEqual([
    ["trainer", true, []],
  ]);
  expect(renamed.steps.replace).toEqual([]);
  expect(renamed.outputs.appId).toBe(appId);
  expect(await org.admin.apps.get(appId)).toMatchObject({ name: "Forklift Trainer XR", tags: ["training"] });
  expect(await appsNamed("Forklift Trainer")).toEqual([]);
});

test("a rename made in the portal shows in the drift report and on refresh, and up puts the name back", async () => {
  // The organization's other apps are nobody's to declare (the exporter declares none): not reported.
  expect((await driftReport(org, "app")).report.findings).toEqual([]);
  await org.admin.apps.update(appId, { name: "Forklift Trainer (portal)" });
  const drift = await driftReport(org, "app");
  expect(drift.report.findings.map((f) => [brief(f), f.differences])).toEqual([
    [
      'changed app "Forklift Trainer (portal)"',
      [{ field: "name", state: "Forklift Trainer XR", live: "Forklift Trainer (portal)" }],
    ],
  ]);
  const refreshed = await org.engine.refresh();
  expect(refreshed.errors).toEqual([]);
  expect(refreshed.steps.update.map((s) => s.name)).toEqual(["trainer"]);
  const preview = await org.engine.preview(program("Forklift Trainer XR"));
  expect(preview.steps.update.map((s) => s.changedValues?.name)).toEqual([
    { old: "Forklift Trainer (portal)", new: "Forklift Trainer XR" },
  ]);
  const repaired = await org.engine.up(program("Forklift Trainer XR"));
  expect(repaired.errors).toEqual([]);
  expect(await org.admin.apps.get(appId)).toMatchObject({ name: "Forklift Trainer XR" });
});

test("a second App of an existing app's name is refused before any write", async () => {
  org.emulator.resetStats();
  const refused = await org.engine.up(() => {
    program("Forklift Trainer XR")();
    new dm.App("twin", { name: "Training Simulator" });
  });
  expect(refused.errors).toEqual([
    expect.objectContaining({
      op: "create",
      message: expect.stringMatching(/An app named "Training Simulator" already exists/),
    }),
  ]);
  expect(org.emulator.stats().writes).toBe(0);
  expect(await appsNamed("Training Simulator")).toHaveLength(1);
});

test("destroy forgets the app with a warning, and the app stays in the organization", async () => {
  const destroyed = await org.engine.destroy();
  expect(destroyed.errors).toEqual([]);
  expect(destroyed.steps.delete.map((s) => s.name).sort()).toEqual(["trainer", "trainer-tags"]);
  // The plugin's warning reaches the CLI's output, where the user reads it.
  expect(destroyed.output).toMatch(
    /App [0-9a-f-]+ \("Forklift Trainer XR"\): the API cannot delete apps; the app stays/,
  );
  // The app remains; the TagSet's destroy took off the tag it attached.
  expect(await org.admin.apps.get(appId)).toMatchObject({ name: "Forklift Trainer XR", tags: [] });
});

function connectionOf() {
  return { baseUrl: org.emulator.baseUrl, apiToken: org.emulator.tokens.admin };
}
