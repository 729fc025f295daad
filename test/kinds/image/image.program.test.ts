// Image and Custom3DEnvironment as a whole program on the real Pulumi CLI (test/engine), the emulator as the
// organization, asserted through its API: up uploads both and a kiosk shows the new image as its menu icon; up
// again and refresh change nothing; new bytes upload a new image, the kiosk follows its id, the old image stays
// (the API cannot delete images) with a warning; destroy forgets both, which stay in the organization.
import * as fs from "fs";
import * as path from "path";
import { sha512 } from "../../fixtures/content";
import { driftReport, useProgramStack } from "../../harness/programStack";
import * as dm from "../../../provider";
import { SHARED_MODE_SETTINGS as SHARED } from "../../fixtures/declarations";

const org = useProgramStack({ project: "devicemgmt-image" });
let siteId: string;
const ids: { image?: string; environment?: string } = {};

const icon = () => path.join(org.dir, "menu-icon.png");
const scene = () => path.join(org.dir, "hall.glb");

function program() {
  return () => {
    const image = new dm.Image("menu-icon", { source: icon() });
    const hall = new dm.Custom3DEnvironment("hall", { source: scene() });
    new dm.HeadsetExperience("site-kiosk", {
      groupId: siteId,
      mode: "arborxr-kiosk",
      isMenuEnabled: true,
      kioskContent: { type: "app", id: dm.getAppOutput({ name: "Training Simulator" }).id },
      language: "en",
      menuIconImageId: image.id,
      removePoweredByArborXrBranding: false,
      themeId: dm.getThemeOutput({ name: "Acme Brand", systemOwned: false }).id,
      adminPin: "739164",
      sharedModeSettings: SHARED,
    });
    return { imageId: image.id, imageSha512: image.sha512, environmentId: hall.id, type: image.type };
  };
}

const kiosk = () =>
  org.emulator.snapshot().experiences.find((e) => e.kind === "headset" && e.holder.id === siteId);
const noChanges = (steps: Record<"create" | "update" | "replace" | "delete", unknown[]>) => {
  for (const kind of ["create", "update", "replace", "delete"] as const) expect(steps[kind]).toEqual([]);
};

beforeAll(async () => {
  const site = await org.admin.groups.create({ name: "Image Lobby", parentId: null });
  siteId = (await org.admin.groups.configure(site.id)).id;
});

test("up uploads the image and the environment, and the kiosk shows the new image as its menu icon", async () => {
  fs.writeFileSync(icon(), "icon, first drawing");
  fs.writeFileSync(scene(), "glTF hall");
  const result = await org.engine.up(program());
  expect(result.errors).toEqual([]);
  expect(result.steps.create.map((s) => s.name).sort()).toEqual(["hall", "menu-icon", "site-kiosk"]);
  ids.image = result.outputs.imageId as string;
  ids.environment = result.outputs.environmentId as string;
  expect(result.outputs).toMatchObject({ imageSha512: sha512("icon, first drawing"), type: "unknown" });
  expect(await org.admin.images.get(ids.image)).toMatchObject({
    originalFileName: "menu-icon.png",
    status: "available",
    sizeBytes: 19,
  });
  expect(await org.admin.custom3DEnvironments.get(ids.environment)).toMatchObject({
    objectName: "hall.glb",
    status: "available",
  });
  expect(kiosk()?.settings.menuIconImageId).toBe(ids.image);
});

test("up again and refresh change nothing", async () => {
  org.emulator.resetStats();
  const again = await org.engine.up(program());
  expect(again.errors).toEqual([]);
  noChanges(again.steps);
  expect(org.emulator.stats().writes).toBe(0);
  const refreshed = await org.engine.refresh();
  expect(refreshed.errors).toEqual([]);
  expect(refreshed.steps.update).toEqual([]);
  expect(refreshed.steps.delete).toEqual([]);
  const after = await org.engine.up(program());
  noChanges(after.steps);
});

test("the drift report reads the stack's image and environment and finds them as declared", async () => {
  org.emulator.resetStats();
  const drift = await driftReport(org, "image,custom3DEnvironment");
  expect(drift.stderr).toContain("0 found");
  expect(drift.report.findings).toEqual([]);
  // Each was read: the image by its id (images are listed only by type), the environments' list.
  expect(org.emulator.stats().byRoute).toMatchObject({
    "GET /images/{imageId}": 1,
    "GET /custom-3d-environments": 1,
  });
});

test("new bytes upload a new image, the kiosk follows its id, and the old image stays with a warning", async () => {
  fs.writeFileSync(icon(), "icon, second drawing");
  const result = await org.engine.up(program());
  expect(result.errors).toEqual([]);
  expect(result.steps.replace.map((s) => [s.name, s.replaceKeys])).toEqual([["menu-icon", ["sha512"]]]);
  const newId = result.outputs.imageId as string;
  expect(newId).not.toBe(ids.image);
  expect(await org.admin.images.get(newId)).toMatchObject({ status: "available", sizeBytes: 20 });
  expect(kiosk()?.settings.menuIconImageId).toBe(newId);
  expect(await org.admin.images.get(ids.image as string)).toMatchObject({
    originalFileName: "menu-icon.png",
  });
  // The plugin's warning reaches the CLI's output, where the user reads it.
  expect(result.output).toContain(`Image ${ids.image} ("menu-icon.png"): the API cannot delete images`);
  ids.image = newId;
});

test("destroy forgets both (the API cannot delete them) and says so", async () => {
  const destroyed = await org.engine.destroy();
  expect(destroyed.errors).toEqual([]);
  expect(destroyed.steps.delete.map((s) => s.name).sort()).toEqual(["hall", "menu-icon", "site-kiosk"]);
  expect(await org.admin.images.get(ids.image as string)).toMatchObject({ status: "available" });
  expect(await org.admin.custom3DEnvironments.get(ids.environment as string)).toMatchObject({
    objectName: "hall.glb",
  });
  expect(destroyed.output).toContain(`Image ${ids.image} ("menu-icon.png"): the API cannot delete images`);
  expect(destroyed.output).toContain(
    `Custom3DEnvironment ${ids.environment} ("hall.glb"): the API cannot delete custom 3D environments`,
  );
});
