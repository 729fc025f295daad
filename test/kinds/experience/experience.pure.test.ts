// Pure rules of Theme, HeadsetExperience and DeviceExperience: check, diff, the read-back normal form and the
// POST body. The plugin and emulator tests are in experience.provider.test.ts.
import { DeviceExperience, HeadsetExperience } from "../../../provider";
import {
  bodyFor,
  checkExperience,
  experienceOutputs,
  PIN_CHANGED_OUTSIDE,
} from "../../../provider/kinds/experience/handler";
import { DEVICE_FIELDS, HEADSET_FIELDS, declaredFormOf } from "../../../provider/kinds/experience/fields";
import { checkKind, diffKind, liveStateOf } from "../../../provider/framework";
import {
  HEADSET_FIELD_NAMES,
  headsetExperienceProperties,
} from "../../../provider/kinds/headsetExperience/properties";
import { DRIFT_KINDS } from "../../../provider/drift/kinds";
import { headsetExperienceKind } from "../../../provider/kinds/headsetExperience/definition";
import { deviceExperienceKind } from "../../../provider/kinds/deviceExperience/definition";
import { DEVICE_FIELD_NAMES } from "../../../provider/kinds/deviceExperience/properties";
import { themeKind } from "../../../provider/kinds/theme/definition";

const G = "0c4f3b1e-9d7a-4e2b-8f6c-1a2b3c4d5e6f";
const D = "1d5a4c2f-0e8b-4f3c-9a7d-2b3c4d5e6f70";
const A1 = "2e6b5d3a-1f9c-4a4d-8b8e-3c4d5e6f7081";
const A2 = "3f7c6e4b-2a0d-4b5e-9c9f-4d5e6f708192";
const IMG = "4a8d7f5c-3b1e-4c6f-8d0a-5e6f708192a3";
const THEME = "5b9e8a6d-4c2f-4d7a-9e1b-6f708192a3b4";
const SHARED = {
  enableOfflineMode: false,
  requireManagedMetaLogin: false,
  enableControllerFree: false,
  wakeControllers: true,
  adjustDeviceFit: false,
  defaultToStationaryBoundary: false,
};

const headsetSpec = {
  resourceName: "HeadsetExperience",
  table: HEADSET_FIELDS,
  fields: HEADSET_FIELD_NAMES,
} as const;
const checkHeadset = (news: Record<string, unknown>) =>
  checkExperience(headsetSpec, headsetExperienceKind, news);
const properties = (result: { failures: { property: string }[] }) =>
  result.failures.map((f) => f.property).sort();

const kiosk = {
  groupId: G,
  mode: "arborxr-kiosk",
  kioskContent: { type: "app", id: A1 },
  isMenuEnabled: true,
  language: "en",
  menuIconImageId: IMG,
  removePoweredByArborXrBranding: false,
  themeId: THEME,
  adminPin: "0042",
  sharedModeSettings: SHARED,
};

describe("HeadsetExperience check", () => {
  it("accepts a complete kiosk and normalises ids and sets", () => {
    const { inputs, failures } = checkHeadset({
      ...kiosk,
      kioskContent: { type: "app", id: A1.toUpperCase() },
      shortcuts: ["wifi-settings", "boundary"],
    });
    expect(failures).toEqual([]);
    expect(inputs).toMatchObject({
      kioskContent: { type: "app", id: A1 },
      shortcuts: ["boundary", "wifi-settings"],
      resetOnDelete: false,
    });
  });

  it("names a missing mode field, a field of another mode, and the kiosk menu's rules", () => {
    const { language: _l, ...noLanguage } = kiosk;
    expect(properties(checkHeadset(noLanguage))).toEqual(["language"]);
    expect(properties(checkHeadset({ ...kiosk, returnToLauncherViaHomeButton: true }))).toEqual([
      "returnToLauncherViaHomeButton",
    ]);
    expect(properties(checkHeadset({ ...kiosk, isMenuEnabled: false }))).toEqual([
      "adminPin",
      "language",
      "menuIconImageId",
      "removePoweredByArborXrBranding",
      "themeId",
    ]);
    const { sharedModeSettings: _s, ...noShared } = kiosk;
    expect(checkHeadset(noShared).failures).toEqual([
      { property: "sharedModeSettings", reason: expect.stringMatching(/required .* on a group/) },
    ]);
    expect(properties(checkHeadset({ ...noShared, groupId: undefined, deviceId: D }))).toEqual([]);
  });

  it("wants exactly one owner", () => {
    expect(properties(checkHeadset({ ...kiosk, deviceId: D }))).toEqual(["deviceId"]);
    const { groupId: _g, ...none } = kiosk;
    expect(checkHeadset(none).failures).toEqual([
      { property: "groupId", reason: expect.stringMatching(/exactly one/) },
    ]);
  });

  it("refuses an item listed twice in visibleContents or categorizationTags (issue 40)", () => {
    const home = {
      groupId: G,
      mode: "arborxr-home",
      visibleContents: [
        { type: "app", id: A1 },
        { type: "app", id: A2 },
        { type: "app", id: A1.toUpperCase() },
      ],
      language: "en",
      menuIconImageId: IMG,
      removePoweredByArborXrBranding: false,
      themeId: THEME,
      menuTitle: "Training",
      shortcuts: [],
      categorizationTags: ["Safety", "sales", "safety"],
      background: { type: "mixed-reality-mode" },
      sharedModeSettings: SHARED,
    };
    expect(checkHeadset(home).failures).toEqual([
      {
        property: "visibleContents",
        reason: "visibleContents[2]: repeats visibleContents[0]: each is listed once, remove one",
      },
      {
        property: "categorizationTags",
        reason:
          "categorizationTags[2]: repeats categorizationTags[0] (compared without case): each is listed once, remove one",
      },
    ]);
    expect(
      checkHeadset({ ...home, categorizationTags: ["a\u0007b"] }).failures.map((f) => f.reason),
    ).toContain(
      "categorizationTags[0]: a categorization tag must not contain control characters (NUL, tab, line breaks, …): found U+0007 at position 2. Remove it",
    );
    const distinct = {
      ...home,
      visibleContents: [
        { type: "app", id: A1 },
        { type: "video", id: A1 },
      ],
      categorizationTags: ["Safety", "sales"],
    };
    expect(checkHeadset(distinct).failures).toEqual([]);
  });

  it("refuses content types the mode does not take: a video as launcher, a WebXR link among launcher apps", () => {
    const launcher = {
      groupId: G,
      mode: "in-house-launcher",
      launcherContent: { type: "video", id: A1 },
      visibleContents: [
        { type: "app", id: A2 },
        { type: "web-xr-link", id: A1 },
      ],
      returnToLauncherViaHomeButton: true,
      sharedModeSettings: SHARED,
    };
    expect(checkHeadset(launcher).failures).toEqual([
      {
        property: "visibleContents",
        reason: expect.stringMatching(/this lists web-xr-link 2e6b.*show WebXR links/),
      },
      {
        property: "launcherContent",
        reason: expect.stringMatching(/takes app items only here.* video 2e6b/),
      },
    ]);
    const device = (news: Record<string, unknown>) =>
      checkExperience(
        { resourceName: "DeviceExperience", table: DEVICE_FIELDS, fields: DEVICE_FIELD_NAMES },
        deviceExperienceKind,
        news,
      );
    const lock = { deviceId: D, mode: "lock-task", visibleContents: [{ type: "unmanaged-app", id: A1 }] };
    expect(device(lock).failures).toEqual([]);
    expect(device({ ...lock, visibleContents: [{ type: "video", id: A1 }] }).failures).toEqual([
      {
        property: "visibleContents",
        reason:
          `visibleContents: DeviceExperience mode "lock-task" takes app and unmanaged-app items only here, and ` +
          `this lists video ${A1}. Remove it, or show it elsewhere (HeadsetExperience modes "arborxr-home" and ` +
          `"arborxr-kiosk" show videos).`,
      },
    ]);
    expect(
      device({
        deviceId: D,
        mode: "in-house-launcher",
        launcherContent: { type: "unmanaged-app", id: A1 },
        visibleContents: [],
      }).failures.map((f) => f.property),
    ).toEqual(["launcherContent"]);
  });

  it("refuses a malformed PIN without showing it, and bad enums, backgrounds and shared settings", () => {
    const bad = checkHeadset({ ...kiosk, adminPin: "98a7" });
    expect(properties(bad)).toEqual(["adminPin"]);
    expect(JSON.stringify(bad.failures)).not.toContain("98a7");
    expect(properties(checkHeadset({ ...kiosk, adminPin: "123" }))).toEqual(["adminPin"]);
    expect(properties(checkHeadset({ ...kiosk, language: "klingon" }))).toEqual(["language"]);
    expect(
      properties(checkHeadset({ ...kiosk, background: { type: "3d-model", bannerImageId: IMG } })),
    ).toEqual(["background"]);
    expect(
      checkHeadset({
        ...kiosk,
        background: { type: "360-background", threeSixtyImageId: IMG, skyboxImageId: IMG },
      }).failures[0].reason,
    ).toMatch(/background.skyboxImageId: is not taken when type is 360-background/);
    const { wakeControllers: _w, ...sleepy } = SHARED;
    expect(checkHeadset({ ...kiosk, sharedModeSettings: sleepy }).failures[0].reason).toMatch(
      /wakeControllers: is required when enableControllerFree is false/,
    );
  });

  it("a field of another mode is a compile error; so is a second owner", () => {
    // Never called: the compiler checks the argument types.
    const _typesOnly = () => {
      new HeadsetExperience("ok", { groupId: G, mode: "default-home" });
      new HeadsetExperience("kiosk-no-menu", {
        deviceId: D,
        mode: "arborxr-kiosk",
        isMenuEnabled: false,
        kioskContent: { type: "app", id: A1 },
      });
      new HeadsetExperience("bad1", {
        groupId: G,
        mode: "default-home",
        // @ts-expect-error launcherContent belongs to in-house-launcher
        launcherContent: { type: "app", id: A1 },
      });
      new HeadsetExperience("bad2", {
        groupId: G,
        mode: "arborxr-kiosk",
        isMenuEnabled: false,
        kioskContent: { type: "app", id: A1 },
        // @ts-expect-error no menu, so no PIN
        adminPin: "1234",
      });
      // @ts-expect-error both owners
      new HeadsetExperience("bad3", { groupId: G, deviceId: D, mode: "default-home" });
      new DeviceExperience("bad4", {
        deviceId: D,
        mode: "lock-task",
        visibleContents: [],
        // @ts-expect-error lock task takes no launcher
        launcherContent: { type: "app", id: A1 },
      });
      new DeviceExperience("ok2", {
        deviceId: D,
        mode: "lock-task",
        visibleContents: [{ type: "unmanaged-app", id: A1 }],
      });
    };
    expect(typeof _typesOnly).toBe("function");
  });
});

describe("normal form of what the GET returns", () => {
  it("maps mode names, sorts sets, lowercases ids, drops other modes' fields, nulls and extra fields", () => {
    const live = {
      id: "x",
      mode: "custom-launcher",
      launcherContent: { type: "app", id: A2.toUpperCase() },
      visibleContents: [
        { type: "app", id: A2 },
        { type: "app", id: A1 },
      ],
      returnToLauncherViaHomeButton: true,
      sharedModeSettings: { ...SHARED, requiredPasswordComplexity: null },
      adminPin: null,
      somethingNew: 1,
      createdAt: "2026-01-01T00:00:00Z",
      updatedAt: "2026-01-01T00:00:00Z",
    };
    expect(declaredFormOf(HEADSET_FIELDS, live)).toEqual({
      mode: "in-house-launcher",
      launcherContent: { type: "app", id: A2 },
      visibleContents: [
        { type: "app", id: A1 },
        { type: "app", id: A2 },
      ],
      returnToLauncherViaHomeButton: true,
      sharedModeSettings: SHARED,
    });
    expect(declaredFormOf(DEVICE_FIELDS, { id: null, mode: "device-default", createdAt: null })).toEqual({
      mode: "default-home",
    });
  });

  it("never records a PIN read back: the declared one, or a marker when the API shows another", () => {
    const spec = { table: HEADSET_FIELDS, fields: ["adminPin"] } as unknown as Parameters<
      typeof experienceOutputs
    >[0];
    const live = { mode: "arborxr-kiosk", isMenuEnabled: true, adminPin: "9999" };
    expect(experienceOutputs(spec, live, { groupId: G, adminPin: "9999" }).adminPin).toBe("9999");
    const drifted = experienceOutputs(spec, live, { groupId: G, adminPin: "1234" });
    expect(drifted.adminPin).toBe(PIN_CHANGED_OUTSIDE);
    expect(JSON.stringify(drifted)).not.toContain("9999");
    expect(
      experienceOutputs(spec, { ...live, adminPin: null }, { groupId: G, adminPin: "1234" }).adminPin,
    ).toBe("1234");
  });
});

describe("diff and body", () => {
  const recorded = {
    ...checkHeadset(kiosk).inputs,
    shortcuts: ["boundary"],
    background: { type: "mixed-reality-mode" },
  };

  it("an optional field the program leaves out is not managed: no change, and the write keeps it", () => {
    const news = checkHeadset(kiosk).inputs;
    expect(diffKind(headsetExperienceKind, recorded, news)).toMatchObject({ changes: false });
    expect(bodyFor(HEADSET_FIELDS, news, recorded)).toMatchObject({
      shortcuts: ["boundary"],
      background: { type: "mixed-reality-mode" },
      adminPin: "0042",
    });
  });

  it("a declared change updates in place; another owner replaces; no PIN means null", () => {
    const news = checkHeadset({ ...kiosk, language: "de" }).inputs;
    expect(diffKind(headsetExperienceKind, recorded, news)).toMatchObject({ changes: true, replaces: [] });
    const moved = checkHeadset({ ...kiosk, groupId: "6c0f9b7e-5d3a-4e8b-8f2c-708192a3b4c5" }).inputs;
    expect(diffKind(headsetExperienceKind, recorded, moved)).toMatchObject({
      changes: true,
      replaces: ["groupId"],
    });
    const { adminPin: _p, ...noPin } = kiosk;
    const withoutPin = checkHeadset(noPin).inputs;
    expect(diffKind(headsetExperienceKind, recorded, withoutPin)).toMatchObject({ changes: true });
    expect(bodyFor(HEADSET_FIELDS, withoutPin, recorded).adminPin).toBeNull();
  });

  it("device experiences: the body holds only the mode's fields", () => {
    const news = checkKind(deviceExperienceKind, { deviceId: D, mode: "default-home" }).inputs;
    expect(
      bodyFor(DEVICE_FIELDS, news, { mode: "lock-task", visibleContents: [{ type: "app", id: A1 }] }),
    ).toEqual({});
  });
});

describe("Theme check and diff", () => {
  const theme = {
    name: "Brand",
    background1: "#ABCDEF",
    background2: "#000000",
    text: "#FFFFFF",
    accent1: "#111111",
    accent2: "#222222",
    accent3: "#333333",
  };
  it("names each bad colour and the format", () => {
    const { failures } = checkKind(themeKind, { ...theme, text: "white", accent3: "#12345" });
    expect(failures).toEqual([
      { property: "text", reason: expect.stringMatching(/text must be a colour in hex format "#RRGGBB"/) },
      { property: "accent3", reason: expect.stringMatching(/accent3 must be/) },
    ]);
  });
  it("colours compare without case", () => {
    expect(diffKind(themeKind, { ...theme, background1: "#abcdef" }, theme)).toMatchObject({
      changes: false,
    });
    expect(diffKind(themeKind, theme, { ...theme, background1: "#ABCDEE" })).toMatchObject({
      changes: true,
      replaces: [],
    });
  });
});

describe("what the drift report compares (derived from the properties' live mapping)", () => {
  it("an experience: the mode and every field its kind takes but the PIN, by the read's declared form", () => {
    const headset = DRIFT_KINDS.headsetExperience.compared;
    expect(Object.keys(headset).sort()).toEqual(
      ["mode", ...HEADSET_FIELD_NAMES.filter((f) => f !== "adminPin")].sort(),
    );
    expect(Object.keys(DRIFT_KINDS.deviceExperience.compared)).toEqual([
      "mode",
      "visibleContents",
      "launcherContent",
    ]);
    const live = {
      id: "x",
      mode: "arborxr-kiosk",
      kioskContent: { type: "app", id: A1.toUpperCase() },
      isMenuEnabled: false,
      language: "en",
      adminPin: "9999",
      createdAt: null,
      updatedAt: null,
    };
    // The kiosk without its menu takes no language, and the PIN is never read.
    expect(liveStateOf(headsetExperienceProperties, live)).toEqual({
      mode: "arborxr-kiosk",
      kioskContent: { type: "app", id: A1 },
      isMenuEnabled: false,
    });
    expect(headset.visibleContents(null, undefined)).toBe(true);
    expect(headset.visibleContents([{ type: "app", id: A1 }], null)).toBe(false);
  });

  it("a theme: its name and colours, colours without case", () => {
    const compared = DRIFT_KINDS.theme.compared;
    expect(Object.keys(compared)).toEqual([
      "name",
      "background1",
      "background2",
      "text",
      "accent1",
      "accent2",
      "accent3",
    ]);
    expect(compared.background1("#ABCDEF", "#abcdef")).toBe(true);
    expect(compared.name("Brand", "brand")).toBe(false);
  });
});
