// getTheme, getImage, getCustom3DEnvironment, getApp and getVideo against the emulator's seeded catalogue.
import * as pulumi from "@pulumi/pulumi";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { DeviceMgmtClient } from "../../provider/client";
import { getApp } from "../../provider/kinds/app/lookups";
import { getVideo } from "../../provider/kinds/video/lookups";
import { getCustom3DEnvironment, getImage, getImageOutput } from "../../provider/kinds/image/lookups";
import { getTheme } from "../../provider";
import { LookupError } from "../../provider/errors";

let emulator: RunningEmulator;
let admin: DeviceMgmtClient;

const valueOf = <T>(output: pulumi.Output<T>): Promise<T> =>
  (output as unknown as { promise(): Promise<T> }).promise();

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  admin = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
  pulumi.runtime.setAllConfig(
    { "devicemgmt:baseUrl": emulator.baseUrl, "devicemgmt:apiToken": emulator.tokens.admin },
    ["devicemgmt:apiToken"],
  );
});
afterAll(async () => {
  pulumi.runtime.setAllConfig({});
  await emulator.close();
});

it("getTheme finds a system theme and a custom one by name; a custom twin of a system name needs systemOwned", async () => {
  const themes = await admin.themes.all();
  const dark = themes.find((t) => t.name === "ArborXR Dark")!;
  expect(await getTheme({ name: "ArborXR Dark" })).toEqual({
    id: dark.id,
    name: "ArborXR Dark",
    isSystemOwned: true,
  });
  const brand = themes.find((t) => t.name === "Acme Brand")!;
  expect(await getTheme({ name: "Acme Brand" })).toMatchObject({ id: brand.id, isSystemOwned: false });

  const colours = {
    background1: "#000000",
    background2: "#000000",
    text: "#FFFFFF",
    accent1: "#111111",
    accent2: "#222222",
    accent3: "#333333",
  };
  const twin = await admin.themes.create({ name: "ArborXR Dark", ...colours });
  const several = getTheme({ name: "ArborXR Dark" });
  await expect(several).rejects.toBeInstanceOf(LookupError);
  await expect(several).rejects.toMatchObject({ matches: 2 });
  expect(await getTheme({ name: "ArborXR Dark", systemOwned: false })).toMatchObject({ id: twin.id });
  expect(await getTheme({ name: "ArborXR Dark", systemOwned: true })).toMatchObject({ id: dark.id });

  const none = getTheme({ name: "No Such Theme" });
  await expect(none).rejects.toBeInstanceOf(LookupError);
  await expect(none).rejects.toMatchObject({
    what: 'theme named "No Such Theme"',
    matches: 0,
    available: expect.arrayContaining(["ArborXR Light"]),
  });
  await expect(none).rejects.toThrow(/No theme named "No Such Theme".*Available: .*"ArborXR Light"/);
});

it("getImage finds an image by file name within its type, and says when the type is wrong", async () => {
  const icons = await admin.images.all("headset-xp-menu-icon");
  const icon = icons.find((i) => i.originalFileName === "acme-menu-icon.png")!;
  expect(await getImage({ name: "acme-menu-icon.png", type: "headset-xp-menu-icon" })).toEqual({
    id: icon.id,
    name: "acme-menu-icon.png",
    type: "headset-xp-menu-icon",
    isSystemOwned: false,
  });
  expect(
    await valueOf(
      getImageOutput({ name: pulumi.output("acme-menu-icon.png"), type: "headset-xp-menu-icon" }),
    ),
  ).toMatchObject({ id: icon.id });
  const wrongType = getImage({ name: "acme-menu-icon.png", type: "headset-xp-banner" });
  await expect(wrongType).rejects.toMatchObject({ matches: 0 });
  await expect(wrongType).rejects.toThrow(
    /No image named "acme-menu-icon.png" of type headset-xp-banner.*acme-banner.png/,
  );
  await expect(getImage({ name: "x.png" } as never)).rejects.toThrow(/needs "type"/);
  await expect(getImage({ name: "x.png", type: "menu" } as never)).rejects.toThrow(/"type" must be/);
});

it("getCustom3DEnvironment, getApp and getVideo find by name and fail clearly on no match", async () => {
  const [environment] = await admin.custom3DEnvironments.all();
  expect(await getCustom3DEnvironment({ name: "acme-showroom.glb" })).toEqual({
    id: environment.id,
    name: "acme-showroom.glb",
  });
  const app = (await admin.apps.all()).find((a) => a.name === "Training Simulator")!;
  expect(await getApp({ name: "Training Simulator" })).toMatchObject({
    id: app.id,
    name: "Training Simulator",
  });
  const video = (await admin.videos.all()).find((v) => v.name === "Welcome Tour")!;
  expect(await getVideo({ name: "Welcome Tour" })).toEqual({
    id: video.id,
    name: "Welcome Tour",
    filename: video.filename,
  });

  await expect(getApp({ name: "Nope" })).rejects.toThrow(/No app named "Nope".*"Training Simulator"/);
  await expect(getVideo({ name: "Nope" })).rejects.toBeInstanceOf(LookupError);
  await expect(getCustom3DEnvironment({ name: "" })).rejects.toThrow(/"name" must be/);
});
