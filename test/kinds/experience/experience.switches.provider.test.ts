// The emulator switches where the documents are silent, each under both readings, through the real plugin:
// deleting a theme an experience uses, a device's own experience across a group join, theme names, and which
// devices must send Meta HMS settings.
import type { StrictOptions } from "../../../emulator/types";
import { Managed, startStack, type Stack } from "../../harness/providerStack";
import { providerText } from "../../../provider/dynamic";

const COLOURS = {
  background1: "#000000",
  background2: "#000000",
  text: "#FFFFFF",
  accent1: "#111111",
  accent2: "#222222",
  accent3: "#333333",
};
const SHARED = {
  enableOfflineMode: false,
  requireManagedMetaLogin: false,
  enableControllerFree: true,
  adjustDeviceFit: false,
  defaultToStationaryBoundary: false,
};

describe.each<[string, StrictOptions, boolean]>([
  ["default readings", {}, false],
  [
    "strict readings",
    {
      rejectDeletingUsedTheme: true,
      dropDeviceExperienceOnGroupJoin: true,
      uniqueThemeNames: true,
      noMetaHmsDevices: true,
    },
    true,
  ],
])("under %s", (_label, strict, isStrict) => {
  let stack: Stack;
  let groupId: string;
  let deviceIds: string[];
  let appId: string;
  let iconId: string;
  beforeAll(async () => {
    stack = await startStack({ emulator: { strict } });
    const { admin } = stack;
    const group = await admin.groups.create({ name: "Site", parentId: null });
    groupId = (await admin.groups.configure(group.id)).id;
    const devices = await admin.devices.all();
    const models = await admin.deviceModels.all();
    const meta = new Set(models.filter((m) => m.manufacturer === "Meta").map((m) => m.id));
    deviceIds = devices.filter((d) => meta.has(d.deviceModel?.id ?? "")).map((d) => d.id);
    appId = (await admin.apps.all())[0].id;
    iconId = (await admin.images.all("headset-xp-menu-icon"))[0].id;
  });
  afterAll(() => stack.close());

  it("deleting a theme a kiosk uses: refused with what to do, or allowed and the experience shows no theme", async () => {
    const theme = await Managed.of(stack.plugin, "theme", "used");
    await theme.create({ name: "Used", ...COLOURS });
    const kiosk = {
      groupId,
      mode: "arborxr-kiosk",
      kioskContent: { type: "app", id: appId },
      isMenuEnabled: true,
      language: "en",
      menuIconImageId: iconId,
      removePoweredByArborXrBranding: false,
      themeId: theme.id,
      sharedModeSettings: SHARED,
    };
    const xp = await Managed.of(stack.plugin, "headsetExperience", "kiosk");
    await xp.create(kiosk);
    if (isStrict) {
      await expect(theme.delete()).rejects.toThrow(/cannot be deleted.*used by 1 headset experience/);
      expect(stack.emulator.snapshot().themes.find((t) => t.id === theme.id)).toBeDefined();
    } else {
      await theme.delete();
      expect(stack.emulator.snapshot().themes.find((t) => t.id === theme.id)).toBeUndefined();
      // The kiosk lost its theme: refresh shows it, and preview names the theme id that no longer exists.
      const read = await xp.read();
      expect(read.properties.themeId).toBeUndefined();
      expect((await xp.check(kiosk)).failures).toEqual([
        { property: "themeId", reason: expect.stringMatching(/no theme with id .* exists/) },
      ]);
    }
  });

  it("a device's own experience across a group join: refresh forgets it while grouped; after leaving it is back or gone", async () => {
    const deviceId = deviceIds[0];
    const lock = { deviceId, mode: "lock-task", visibleContents: [{ type: "app", id: appId }] };
    const xp = await Managed.of(stack.plugin, "deviceExperience", "own");
    await xp.create(lock);
    await stack.admin.devices.update(deviceId, { groupId });
    const whileGrouped = await stack.plugin.read({
      urn: xp.urn,
      id: xp.id,
      properties: xp.outputs,
      inputs: xp.inputs,
    });
    expect(whileGrouped.id).toBeFalsy();
    await stack.admin.devices.update(deviceId, { groupId: null });
    const after = await xp.read();
    expect(after.properties.mode).toBe(isStrict ? "default-home" : "lock-task");
    expect((await xp.diff(lock)).changes).toBe(isStrict ? "some" : "none");
    await xp.update(lock);
    expect(
      stack.emulator.snapshot().experiences.find((e) => e.kind === "device" && e.holder.id === deviceId)
        ?.mode,
    ).toBe("lock-task");
  });

  it("a theme named like a system theme: refused by the API, or made", async () => {
    const twin = await Managed.of(stack.plugin, "theme", "twin");
    if (isStrict) {
      await expect(twin.create({ name: "ArborXR Dark", ...COLOURS })).rejects.toThrow(
        /name has already been taken/,
      );
    } else {
      await twin.create({ name: "ArborXR Dark", ...COLOURS });
      expect(stack.emulator.snapshot().themes.find((t) => t.id === twin.id)?.name).toBe("ArborXR Dark");
    }
  });

  it("a Meta headset's default home without metaHmsSettings: refused at check (Meta HMS device), or configured", async () => {
    const xp = await Managed.of(stack.plugin, "headsetExperience", "meta-home");
    const declared = { deviceId: deviceIds[1], mode: "default-home" };
    // The check asks the device list which devices are not Meta HMS devices (`hms_modes[]=NON_APPLICABLE`).
    const { failures } = await xp.check(declared);
    if (isStrict) {
      expect(failures).toEqual([]);
      await xp.create(declared);
      expect(
        stack.emulator
          .snapshot()
          .experiences.find((e) => e.kind === "headset" && e.holder.id === deviceIds[1])?.mode,
      ).toBe("device-default");
      expect((await xp.diff(declared)).changes).toBe("none");
    } else {
      expect(failures).toEqual([
        {
          property: "metaHmsSettings",
          reason: expect.stringMatching(
            /metaHmsSettings is required for mode "default-home" .*a Meta HMS device/,
          ),
        },
      ]);
      // Had the check not stopped it, the API refuses it at up.
      const provider = providerText("headsetExperience");
      await expect(
        stack.plugin.create({ urn: xp.urn, properties: { ...declared, __provider: provider } }),
      ).rejects.toThrow(/meta hms settings field is required/);
    }
  });
});
