// Theme, HeadsetExperience and DeviceExperience through the real dynamic-provider plugin against the emulator.
import type { DeviceMgmtClient } from "../../../provider/client";
import { PIN_CHANGED_OUTSIDE } from "../../../provider/kinds/experience/handler";
import type { StrictOptions } from "../../../emulator/types";
import type { PropertyMap } from "../../harness/providerPlugin";
import { Managed, startStack, type Stack } from "../../harness/providerStack";
import { SHARED_MODE_SETTINGS as SHARED } from "../../fixtures/declarations";

interface Seed {
  groupId: string;
  unconfiguredGroupId: string;
  groupedDeviceId: string;
  ungroupedDeviceId: string;
  appIds: string[];
  videoId: string;
  menuIconId: string;
  bannerId: string;
  skyboxId: string;
  themeId: string;
}

/** A configured site with one device in it and an unconfigured folder (the seed has no groups), and the catalogue. */
async function seedOf(admin: DeviceMgmtClient): Promise<Seed> {
  const folder = await admin.groups.create({ name: "Region", parentId: null });
  const site = await admin.groups.configure(
    (await admin.groups.create({ name: "Site", parentId: folder.id })).id,
  );
  const [first] = await admin.devices.all();
  await admin.devices.update(first.id, { groupId: site.id });
  const [groups, devices, apps, videos, icons, banners, skyboxes, themes] = await Promise.all([
    admin.groups.all(),
    admin.devices.all(),
    admin.apps.all(),
    admin.videos.all(),
    admin.images.all("headset-xp-menu-icon"),
    admin.images.all("headset-xp-banner"),
    admin.images.all("headset-xp-skybox"),
    admin.themes.all(),
  ]);
  const configured = groups.find((g) => g.isConfigured)!;
  return {
    groupId: configured.id,
    unconfiguredGroupId: groups.find((g) => !g.isConfigured)!.id,
    groupedDeviceId: devices.find((d) => d.group)!.id,
    ungroupedDeviceId: devices.find((d) => !d.group)!.id,
    appIds: apps.slice(0, 3).map((a) => a.id),
    videoId: videos[0].id,
    menuIconId: icons[0].id,
    bannerId: banners[0].id,
    skyboxId: skyboxes[0].id,
    themeId: themes.find((t) => t.isSystemOwned)!.id,
  };
}

const home = (s: Seed, extra: Record<string, unknown> = {}) => ({
  groupId: s.groupId,
  mode: "arborxr-home",
  visibleContents: [
    { type: "app", id: s.appIds[1] },
    { type: "video", id: s.videoId },
    { type: "app", id: s.appIds[0] },
  ],
  language: "en",
  menuTitle: "Acme",
  menuIconImageId: s.menuIconId,
  removePoweredByArborXrBranding: false,
  shortcuts: ["wifi-settings", "boundary"],
  categorizationTags: ["training", "demo"],
  background: { type: "3d-model", bannerImageId: s.bannerId, skyboxImageId: s.skyboxId },
  themeId: s.themeId,
  sharedModeSettings: SHARED,
  ...extra,
});

const experienceOf = (stack: Stack, kind: "headset" | "device", holderId: string) =>
  stack.emulator.snapshot().experiences.find((e) => e.kind === kind && e.holder.id === holderId);

describe.each<[string, StrictOptions]>([
  ["default readings", {}],
  [
    "strict readings (PIN withheld, lists sorted, unset experience 404, colours lowercased)",
    {
      withholdAdminPin: true,
      sortExperienceLists: true,
      unsetExperienceNotFound: true,
      lowercaseThemeColors: true,
      rejectUnusedExperienceFields: true,
    },
  ],
])("experiences and themes under %s", (_label, strict) => {
  let stack: Stack;
  let seed: Seed;
  beforeAll(async () => {
    stack = await startStack({ emulator: { strict } });
    seed = await seedOf(stack.admin);
  });
  afterAll(() => stack.close());

  it("Theme: creates, reads back without a diff, updates in place, refuses a bad colour at check, deletes", async () => {
    const theme = await Managed.of(stack.plugin, "theme", "brand");
    const colours = {
      background1: "#ABCDEF",
      background2: "#101820",
      text: "#FFFFFF",
      accent1: "#F2AA4C",
      accent2: "#2BAE66",
      accent3: "#E94B3C",
    };
    await theme.create({ name: "Brand", ...colours });
    const live = () => stack.emulator.snapshot().themes.find((t) => t.id === theme.id);
    expect(live()?.name).toBe("Brand");
    expect(live()?.colors.background1.toLowerCase()).toBe("#abcdef");
    expect(await theme.diff({ name: "Brand", ...colours })).toMatchObject({ changes: "none" });
    await theme.read();
    expect(await theme.diff({ name: "Brand", ...colours })).toMatchObject({ changes: "none" });

    const bad = await theme.check({ name: "Brand", ...colours, accent2: "green" });
    expect(bad.failures).toEqual([{ property: "accent2", reason: expect.stringMatching(/#RRGGBB/) }]);

    await theme.update({ name: "Brand 2", ...colours, text: "#000000" });
    expect(live()).toMatchObject({ name: "Brand 2" });
    expect(live()?.colors.text).toBe("#000000");

    // A portal-style change shows on refresh, exactly that change.
    await stack.admin.themes.update(theme.id, { name: "Portal", ...colours, text: "#000000" });
    const read = await theme.read();
    expect(read.inputs).toMatchObject({ name: "Portal", text: "#000000" });
    expect(await theme.diff({ name: "Brand 2", ...colours, text: "#000000" })).toMatchObject({
      changes: "some",
    });

    await theme.delete();
    expect(live()).toBeUndefined();
    await theme.delete(); // gone already: still succeeds

    // A create of a name a custom theme has is refused before any write, naming the existing theme.
    const taken = await stack.admin.themes.create({ name: "Taken", ...colours });
    const twin = await Managed.of(stack.plugin, "theme", "twin");
    await expect(twin.create({ name: "Taken", ...colours })).rejects.toThrow(
      new RegExp(`adoptId: "${taken.id}"`),
    );
    expect(stack.emulator.snapshot().themes.filter((t) => t.name === "Taken")).toHaveLength(1);
  });

  it("Theme: adoptId takes over a custom theme and updates it; a system theme cannot be adopted", async () => {
    const themes = await stack.admin.themes.all();
    const acme = themes.find((t) => t.name === "Acme Brand")!;
    const system = themes.find((t) => t.isSystemOwned)!;
    const colours = {
      background1: acme.background1,
      background2: acme.background2,
      text: "#00FF00",
      accent1: acme.accent1,
      accent2: acme.accent2,
      accent3: acme.accent3,
    };
    const adopted = await Managed.of(stack.plugin, "theme", "adopted");
    await adopted.create({ name: "Acme Brand", ...colours, adoptId: acme.id });
    expect(adopted.id).toBe(acme.id);
    expect(
      stack.emulator
        .snapshot()
        .themes.find((t) => t.id === acme.id)
        ?.colors.text.toLowerCase(),
    ).toBe("#00ff00");
    const refused = await Managed.of(stack.plugin, "theme", "system");
    await expect(refused.create({ name: system.name, ...colours, adoptId: system.id })).rejects.toThrow(
      /is a system theme, which cannot be changed.*getTheme/,
    );
    expect(stack.emulator.snapshot().themes.filter((t) => t.name === system.name)).toEqual([]);
  });

  it("HeadsetExperience: home on a group, set, read back without a diff, drift shown, PIN never in plain state", async () => {
    const xp = await Managed.of(stack.plugin, "headsetExperience", "site-home");
    const pin = "482913";
    const outs = await xp.create(home(seed, { adminPin: pin }));
    expect(xp.id).toBe(seed.groupId);
    const stored = experienceOf(stack, "headset", seed.groupId);
    expect(stored).toMatchObject({ mode: "arborxr-home" });
    expect(stored?.settings).toMatchObject({ menuTitle: "Acme", adminPin: pin, language: "en" });
    expect(outs.mode).toBe("arborxr-home");

    // Same declaration, in another order: no change; after a refresh still none.
    const reordered = home(seed, {
      adminPin: pin,
      shortcuts: ["boundary", "wifi-settings"],
      categorizationTags: ["demo", "training"],
    });
    expect(await xp.diff(reordered)).toMatchObject({ changes: "none" });
    const read = await xp.read();
    expect(read.id).toBe(seed.groupId);
    expect(await xp.diff(reordered)).toMatchObject({ changes: "none" });

    // Mode change in place.
    await xp.update({
      groupId: seed.groupId,
      mode: "arborxr-kiosk",
      kioskContent: { type: "app", id: seed.appIds[0] },
      isMenuEnabled: false,
      sharedModeSettings: SHARED,
    });
    expect(experienceOf(stack, "headset", seed.groupId)).toMatchObject({ mode: "arborxr-kiosk" });
    expect(experienceOf(stack, "headset", seed.groupId)?.settings.adminPin).toBeUndefined();
    const kiosk = {
      groupId: seed.groupId,
      mode: "arborxr-kiosk",
      kioskContent: { type: "app", id: seed.appIds[0] },
      isMenuEnabled: false,
      sharedModeSettings: SHARED,
    };
    await xp.read();
    expect(await xp.diff(kiosk)).toMatchObject({ changes: "none" });

    // The home's background was kept (the program does not declare the kiosk's): a write keeps what it does
    // not manage.
    expect(xp.outputs.background).toEqual(home(seed).background);
    // A portal-style change (another kiosk app) shows on refresh, and only that.
    await stack.admin.headsetExperiences.set({ groupId: seed.groupId }, "arborxr-kiosk", {
      kioskContent: { type: "app", id: seed.appIds[1] },
      isMenuEnabled: false,
      background: home(seed).background,
      sharedModeSettings: SHARED,
    });
    const before = xp.outputs;
    const after = (await xp.read()).properties;
    const changed = Object.keys({ ...before, ...after }).filter(
      (k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]),
    );
    expect(changed).toEqual(["kioskContent"]);
    await xp.update(kiosk);
    expect(experienceOf(stack, "headset", seed.groupId)?.settings.kioskContent).toEqual({
      type: "app",
      id: seed.appIds[0],
    });

    // Destroy leaves the experience as it is.
    await xp.delete();
    expect(experienceOf(stack, "headset", seed.groupId)).toMatchObject({ mode: "arborxr-kiosk" });
    expect(stack.plugin.stderr()).not.toContain(pin);
  });

  it("HeadsetExperience: a PIN changed in the portal shows (where the API reads PINs) and up restores it", async () => {
    const xp = await Managed.of(stack.plugin, "headsetExperience", "pin-drift");
    const declared = home(seed, { adminPin: "1111" });
    await xp.create(declared);
    const { groupId: _g, mode: _m, ...portal } = home(seed, { adminPin: "2222" });
    await stack.admin.headsetExperiences.set({ groupId: seed.groupId }, "arborxr-home", portal);
    const read = await xp.read();
    expect(JSON.stringify(read.properties)).not.toContain("2222");
    const diff = await xp.diff(declared);
    if (strict.withholdAdminPin) {
      // The API withholds PINs: a change made elsewhere cannot be seen (documented).
      expect(diff.changes).toBe("none");
    } else {
      expect(read.properties.adminPin).toBe(PIN_CHANGED_OUTSIDE);
      expect(diff).toMatchObject({ changes: "some" });
      await xp.update(declared);
      expect(experienceOf(stack, "headset", seed.groupId)?.settings.adminPin).toBe("1111");
    }
  });

  it("HeadsetExperience: check refuses what the API would, before any write", async () => {
    const xp = await Managed.of(stack.plugin, "headsetExperience", "refused");
    const failures = async (news: PropertyMap) =>
      (await xp.check(news)).failures.map((f) => f.property).sort();
    // A field of another mode, and a missing one.
    expect(await failures({ ...home(seed), launcherContent: { type: "app", id: seed.appIds[0] } })).toEqual([
      "launcherContent",
    ]);
    const { menuTitle: _omitted, ...withoutTitle } = home(seed);
    expect(await failures(withoutTitle)).toEqual(["menuTitle"]);
    // Both owners, or none.
    expect(await failures({ ...home(seed), deviceId: seed.ungroupedDeviceId })).toEqual(["deviceId"]);
    // The PIN's format, and the PIN not echoed.
    const badPin = await xp.check(home(seed, { adminPin: "12ab" }));
    expect(badPin.failures.map((f) => f.property)).toEqual(["adminPin"]);
    expect(JSON.stringify(badPin.failures)).not.toContain("12ab");
    // An image of the wrong type, an unconfigured group, a device in a group.
    expect(await failures(home(seed, { menuIconImageId: seed.bannerId }))).toEqual(["menuIconImageId"]);
    expect(await failures(home(seed, { groupId: seed.unconfiguredGroupId }))).toEqual(["groupId"]);
    expect(
      await failures({
        deviceId: seed.groupedDeviceId,
        mode: "default-home",
        metaHmsSettings: { isStoreEnabled: false, isSocialEnabled: false, isAddAccountsEnabled: true },
      }),
    ).toEqual(["deviceId"]);
    // Kiosk with the menu off takes no menu fields.
    expect(
      await failures({
        groupId: seed.groupId,
        mode: "arborxr-kiosk",
        kioskContent: { type: "app", id: seed.appIds[0] },
        isMenuEnabled: false,
        language: "en",
        sharedModeSettings: SHARED,
      }),
    ).toEqual(["language"]);
  });

  it("DeviceExperience on an ungrouped device: lock task, default home, reset on delete", async () => {
    const xp = await Managed.of(stack.plugin, "deviceExperience", "lock");
    const lock = {
      deviceId: seed.ungroupedDeviceId,
      mode: "lock-task",
      visibleContents: [
        { type: "app", id: seed.appIds[2] },
        { type: "app", id: seed.appIds[0] },
      ],
      resetOnDelete: true,
    };
    if (strict.unsetExperienceNotFound) {
      await expect(stack.admin.deviceExperiences.get({ deviceId: seed.ungroupedDeviceId })).rejects.toThrow(
        /404/,
      );
    }
    await xp.create(lock);
    expect(experienceOf(stack, "device", seed.ungroupedDeviceId)).toMatchObject({ mode: "lock-task" });
    await xp.read();
    expect(await xp.diff(lock)).toMatchObject({ changes: "none" });

    const { visibleContents: _none, ...defaultHome } = { ...lock, mode: "default-home" };
    await xp.update(defaultHome);
    expect(experienceOf(stack, "device", seed.ungroupedDeviceId)).toMatchObject({ mode: "device-default" });
    await xp.read();
    expect(xp.outputs.mode).toBe("default-home");
    expect(await xp.diff(defaultHome)).toMatchObject({
      changes: "none",
    });

    await xp.update(lock);
    // Only resetOnDelete changes: recorded, nothing sent.
    stack.emulator.resetStats();
    await xp.update({ ...lock, resetOnDelete: false });
    expect(stack.emulator.stats().writes).toBe(0);
    await xp.update(lock);

    // Imported by id alone: the device is found from the id.
    const imported = await Managed.of(stack.plugin, "deviceExperience", "imported");
    const found = await imported.readById(seed.ungroupedDeviceId);
    expect(found.inputs).toMatchObject({ deviceId: seed.ungroupedDeviceId, mode: "lock-task" });
    const groupImport = await Managed.of(stack.plugin, "headsetExperience", "group-imported");
    expect((await groupImport.readById(seed.groupId)).inputs).toMatchObject({ groupId: seed.groupId });

    await xp.delete(); // resetOnDelete: back to the default home
    expect(experienceOf(stack, "device", seed.ungroupedDeviceId)).toMatchObject({ mode: "device-default" });
  });
});
