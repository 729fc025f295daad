/** Headset experience of groups and devices: GET naming, per-mode rules, references, 409, permissions, audit. */
import type { RunningEmulator } from "../../emulator";
import {
  catalogue,
  homeBody,
  kioskBody,
  launcherBody,
  META_HMS_SETTINGS,
  SHARED_MODE_SETTINGS,
  type Catalogue,
} from "./experienceHelpers";
import {
  client,
  createConfiguredGroup,
  createGroup,
  ISO_MS,
  start,
  UUID,
  validationErrors,
  type Client,
  type Json,
} from "./helpers";

let emulator: RunningEmulator;
let admin: Client;
let reader: Client;
let c: Catalogue;
let metaDevice: string;
let picoDevice: string;

const MISSING_ID = "00000000-0000-4000-8000-000000000000";
const headset = (groupId: string) => `/groups/${groupId}/headset-experience`;

beforeAll(async () => {
  emulator = await start();
  admin = client(emulator, emulator.tokens.admin);
  reader = client(emulator, emulator.tokens.readOnly);
  c = await catalogue(admin);
  const devices = (await admin.get("/devices", { query: { per_page: 100 } })).body.data as Json[];
  metaDevice = devices.find((d) => d.deviceModel.manufacturer === "Meta").id;
  picoDevice = devices.find((d) => d.deviceModel.manufacturer === "Pico").id;
});
afterAll(() => emulator.close());

describe("GET names the mode, not the path", () => {
  it.each([
    ["arborxr-home", "arborxr-home", () => homeBody(c)],
    ["arborxr-kiosk", "arborxr-kiosk", () => kioskBody(c)],
    ["default-home", "device-default", () => ({ metaHmsSettings: META_HMS_SETTINGS })],
    ["in-house-launcher", "custom-launcher", () => launcherBody(c)],
  ])("POST …/%s reads back as mode %s", async (segment, mode, body) => {
    const group = await createConfiguredGroup(admin, `Site ${segment}`, null);
    const response = await admin.post(`${headset(group)}/${segment}`, body());
    expect(response.status).toBe(204);
    expect(response.body).toBeUndefined();
    const read = await admin.get(headset(group));
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ mode, id: expect.stringMatching(UUID) });
    expect(read.body.createdAt).toMatch(ISO_MS);
  });

  it("reads back every field of arborxr-home as sent, PIN included", async () => {
    const group = await createConfiguredGroup(admin, "Home site", null);
    await admin.post(`${headset(group)}/arborxr-home`, homeBody(c));
    const { id, createdAt, updatedAt, ...rest } = (await admin.get(headset(group))).body;
    expect({ id, createdAt, updatedAt }).toEqual({
      id: expect.stringMatching(UUID),
      createdAt: expect.stringMatching(ISO_MS),
      updatedAt: createdAt,
    });
    expect(rest).toEqual({ mode: "arborxr-home", ...homeBody(c) });
  });

  it("fills what the request did not take: default shared-mode settings, requiredPasswordComplexity", async () => {
    const { sharedModeSettings: _omitted, ...withoutShared } = kioskBody(c);
    await admin.post(`/devices/${picoDevice}/headset-experience/arborxr-kiosk`, withoutShared);
    const read = (await admin.get(`/devices/${picoDevice}/headset-experience`)).body;
    expect(read.sharedModeSettings).toEqual({
      enableOfflineMode: false,
      requireManagedMetaLogin: false,
      requiredPasswordComplexity: null,
      enableControllerFree: false,
      wakeControllers: true,
      adjustDeviceFit: false,
      defaultToStationaryBoundary: false,
    });
    // A kiosk without a background reads back background: null.
    expect(read.background).toBeNull();

    const deprecated = {
      ...SHARED_MODE_SETTINGS,
      requiredPasswordComplexity: undefined,
      requireSessionPasscode: true,
    };
    const group = await createConfiguredGroup(admin, "Deprecated passcode", null);
    await admin.post(`${headset(group)}/arborxr-kiosk`, kioskBody(c, { sharedModeSettings: deprecated }));
    const shared = (await admin.get(headset(group))).body.sharedModeSettings;
    expect(shared.requiredPasswordComplexity).toBe("LOW");
    expect(shared).not.toHaveProperty("requireSessionPasscode");
  });

  it("a kiosk with the menu off carries no menu fields", async () => {
    const group = await createConfiguredGroup(admin, "Menu off", null);
    const body = { kioskContent: { type: "video", id: c.videos[0] }, isMenuEnabled: false };
    expect((await admin.post(`${headset(group)}/arborxr-kiosk`, body)).status).toBe(422); // shared mode missing
    const sent = { ...body, sharedModeSettings: SHARED_MODE_SETTINGS };
    expect((await admin.post(`${headset(group)}/arborxr-kiosk`, sent)).status).toBe(204);
    const read = (await admin.get(headset(group))).body;
    expect(read).toMatchObject({
      mode: "arborxr-kiosk",
      isMenuEnabled: false,
      kioskContent: body.kioskContent,
    });
    for (const field of ["language", "themeId", "adminPin", "shortcuts", "menuIconImageId"])
      expect(read).not.toHaveProperty(field);
  });
});

describe("rules of the configure operations", () => {
  let group: string;
  beforeAll(async () => {
    group = await createConfiguredGroup(admin, "Rules", null);
  });
  const home = (body: Json) => admin.post(`${headset(group)}/arborxr-home`, body);
  const kiosk = (body: Json) => admin.post(`${headset(group)}/arborxr-kiosk`, body);

  it("arborxr-home requires each of its fields (adminPin as a key, null allowed)", async () => {
    const required = [
      "visibleContents",
      "language",
      "menuTitle",
      "menuIconImageId",
      "removePoweredByArborXrBranding",
      "shortcuts",
      "adminPin",
      "categorizationTags",
      "background",
      "themeId",
      "sharedModeSettings",
    ];
    for (const field of required) {
      const body = homeBody(c);
      delete body[field];
      expect({ field, errors: Object.keys(validationErrors(await home(body))) }).toEqual({
        field,
        errors: [field],
      });
    }
    expect((await home(homeBody(c, { adminPin: null }))).status).toBe(204);
    expect((await admin.get(headset(group))).body.adminPin).toBeNull();
  });

  it.each(["123", "12345678901", "12a4", " 1234", 1234])("adminPin %p is refused", async (pin) => {
    const response = await home(homeBody(c, { adminPin: pin }));
    expect(validationErrors(response)).toEqual({
      adminPin: [
        typeof pin === "string"
          ? "The admin pin field must be 4 to 10 digits."
          : "The admin pin field must be a string.",
      ],
    });
    // The refusal does not echo the PIN.
    expect(JSON.stringify(response.body)).not.toContain(String(pin).trim());
  });

  it.each(["1234", "0000000000"])("adminPin %p is taken", async (pin) => {
    expect((await home(homeBody(c, { adminPin: pin }))).status).toBe(204);
  });

  it("enums: language, shortcuts, content types, background type, password complexity", async () => {
    const cases: [Json, string][] = [
      [{ language: "en-US" }, "language"],
      [{ shortcuts: ["boundary", "interaction-method"] }, "shortcuts.1"],
      [{ visibleContents: [{ id: c.apps[0], type: "file" }] }, "visibleContents.0.type"],
      [{ background: { type: "video-wall" } }, "background.type"],
      [
        { sharedModeSettings: { ...SHARED_MODE_SETTINGS, requiredPasswordComplexity: "EXTREME" } },
        "sharedModeSettings.requiredPasswordComplexity",
      ],
      [{ categorizationTags: ["x".repeat(61)] }, "categorizationTags.0"],
      [{ menuTitle: "x".repeat(256) }, "menuTitle"],
    ];
    for (const [override, field] of cases)
      expect(Object.keys(validationErrors(await home(homeBody(c, override))))).toEqual([field]);
  });

  it("background fields per type", async () => {
    const cases: [Json, string[]][] = [
      [{ type: "3d-model" }, ["background.bannerImageId", "background.skyboxImageId"]],
      [{ type: "360-background" }, ["background.threeSixtyImageId"]],
      [{ type: "custom-3d-environment" }, ["background.custom3DEnvironmentId"]],
    ];
    for (const [background, fields] of cases)
      expect(Object.keys(validationErrors(await home(homeBody(c, { background }))))).toEqual(fields);
    const good = [
      { type: "360-background", threeSixtyImageId: c.threeSixty },
      { type: "custom-3d-environment", custom3DEnvironmentId: c.environment },
      { type: "mixed-reality-mode" },
    ];
    for (const background of good) {
      expect((await home(homeBody(c, { background }))).status).toBe(204);
      expect((await admin.get(headset(group))).body.background).toEqual(background);
    }
  });

  it("kiosk with the menu on requires language, menu icon, branding and theme", async () => {
    for (const field of ["language", "menuIconImageId", "removePoweredByArborXrBranding", "themeId"]) {
      const body = kioskBody(c);
      delete body[field];
      expect(Object.keys(validationErrors(await kiosk(body)))).toEqual([field]);
    }
    // shortcuts and adminPin are optional ("present when"): they read back as [] and null.
    const body = kioskBody(c);
    delete body.shortcuts;
    delete body.adminPin;
    expect((await kiosk(body)).status).toBe(204);
    expect((await admin.get(headset(group))).body).toMatchObject({ shortcuts: [], adminPin: null });
  });

  it("wakeControllers is required when controller-free mode is off", async () => {
    const { wakeControllers: _w, ...shared } = SHARED_MODE_SETTINGS;
    const errors = validationErrors(await kiosk(kioskBody(c, { sharedModeSettings: shared })));
    expect(Object.keys(errors)).toEqual(["sharedModeSettings.wakeControllers"]);
    const free = { ...shared, enableControllerFree: true };
    expect((await kiosk(kioskBody(c, { sharedModeSettings: free }))).status).toBe(204);
  });

  it("references must exist in the organization, images of the right type", async () => {
    const cases: [Json, string, string][] = [
      [{ visibleContents: [{ id: MISSING_ID, type: "app" }] }, "visibleContents.0.id", "invalid"],
      [{ visibleContents: [{ id: c.apps[0], type: "video" }] }, "visibleContents.0.id", "invalid"],
      [{ themeId: MISSING_ID }, "themeId", "invalid"],
      [{ menuIconImageId: MISSING_ID }, "menuIconImageId", "invalid"],
      [{ menuIconImageId: c.wallpaper }, "menuIconImageId", "headset-xp-menu-icon"],
      [
        { background: { type: "3d-model", bannerImageId: c.skybox, skyboxImageId: c.skybox } },
        "background.bannerImageId",
        "headset-xp-banner",
      ],
      [
        { background: { type: "360-background", threeSixtyImageId: c.banner } },
        "background.threeSixtyImageId",
        "three-sixty-background",
      ],
      [
        { background: { type: "custom-3d-environment", custom3DEnvironmentId: MISSING_ID } },
        "background.custom3DEnvironmentId",
        "invalid",
      ],
    ];
    for (const [override, field, text] of cases) {
      const errors = validationErrors(await home(homeBody(c, override)));
      expect(Object.keys(errors)).toEqual([field]);
      expect(errors[field][0]).toContain(text);
    }
    // Unmanaged apps and WebXR links have no catalogue: taken as given. System images serve every organization.
    const unchecked = homeBody(c, {
      visibleContents: [{ id: MISSING_ID, type: "web-xr-link" }],
      menuIconImageId: c.systemMenuIcon,
    });
    expect((await home(unchecked)).status).toBe(204);
    const kioskVideo = kioskBody(c, { kioskContent: { type: "video", id: c.apps[0] } });
    expect(Object.keys(validationErrors(await kiosk(kioskVideo)))).toEqual(["kioskContent.id"]);
  });

  it("in-house launcher: launcher and visible contents are apps of the organization", async () => {
    const url = `${headset(group)}/in-house-launcher`;
    expect(Object.keys(validationErrors(await admin.post(url, {})))).toEqual(
      expect.arrayContaining(["launcherContent", "visibleContents", "returnToLauncherViaHomeButton"]),
    );
    const video = launcherBody(c, { launcherContent: { type: "video", id: c.videos[0] } });
    expect(Object.keys(validationErrors(await admin.post(url, video)))).toEqual(["launcherContent.type"]);
    const missing = launcherBody(c, { visibleContents: [{ type: "app", id: MISSING_ID }] });
    expect(Object.keys(validationErrors(await admin.post(url, missing)))).toEqual(["visibleContents.0.id"]);
  });

  it("default home: metaHmsSettings required for a group", async () => {
    const url = `${headset(group)}/default-home`;
    expect(Object.keys(validationErrors(await admin.post(url, {})))).toEqual(["metaHmsSettings"]);
    expect((await admin.post(url, { metaHmsSettings: META_HMS_SETTINGS })).status).toBe(204);
    const read = (await admin.get(headset(group))).body;
    expect(read).toEqual({
      id: expect.stringMatching(UUID),
      mode: "device-default",
      metaHmsSettings: META_HMS_SETTINGS,
      createdAt: expect.stringMatching(ISO_MS),
      updatedAt: expect.stringMatching(ISO_MS),
    });
  });

  it("a refused request changes nothing", async () => {
    const before = (await admin.get(headset(group))).body;
    await home(homeBody(c, { adminPin: "12" }));
    expect((await admin.get(headset(group))).body).toEqual(before);
  });
});

describe("where an experience can be configured", () => {
  it("configured groups only (422); unknown group 404", async () => {
    const folder = await createGroup(admin, "Folder", null);
    const errors = validationErrors(await admin.post(`${headset(folder)}/arborxr-home`, homeBody(c)));
    expect(Object.keys(errors)).toEqual(["groupId"]);
    expect((await admin.post(`${headset(MISSING_ID)}/arborxr-home`, homeBody(c))).status).toBe(404);
    expect((await admin.get(headset(MISSING_ID))).status).toBe(404);
  });

  it("a device in a group: 409 with the group's id, for configure and read", async () => {
    const group = await createConfiguredGroup(admin, "Grouping", null);
    const devices = (await admin.get("/devices", { query: { per_page: 100 } })).body.data as Json[];
    const device = devices[devices.length - 1].id;
    expect((await admin.put(`/devices/${device}`, { groupId: group })).status).toBe(200);
    for (const response of [
      await admin.post(`/devices/${device}/headset-experience/arborxr-home`, homeBody(c)),
      await admin.get(`/devices/${device}/headset-experience`),
    ]) {
      expect(response.status).toBe(409);
      expect(response.body).toEqual({
        message: expect.stringContaining("belongs to a group"),
        groupId: group,
      });
    }
    expect((await admin.put(`/devices/${device}`, { groupId: null })).status).toBe(200);
  });

  it("Meta devices need shared-mode and Meta HMS settings, others do not", async () => {
    const { sharedModeSettings: _s, ...withoutShared } = homeBody(c);
    const meta = await admin.post(`/devices/${metaDevice}/headset-experience/arborxr-home`, withoutShared);
    expect(Object.keys(validationErrors(meta))).toEqual(["sharedModeSettings"]);
    const metaDefault = await admin.post(`/devices/${metaDevice}/headset-experience/default-home`, {});
    expect(Object.keys(validationErrors(metaDefault))).toEqual(["metaHmsSettings"]);
    const pico = await admin.post(`/devices/${picoDevice}/headset-experience/arborxr-home`, withoutShared);
    expect(pico.status).toBe(204);
    expect((await admin.post(`/devices/${picoDevice}/headset-experience/default-home`, {})).status).toBe(204);
    expect((await admin.get(`/devices/${picoDevice}/headset-experience`)).body.metaHmsSettings).toEqual({
      isStoreEnabled: true,
      isSocialEnabled: true,
      isAddAccountsEnabled: true,
    });
  });
});

describe("permissions and audit", () => {
  it("reading needs GROUP__VIEW / DEVICE__VIEW, configuring GROUP__MANAGE / DEVICE__MANAGE (403)", async () => {
    const group = await createConfiguredGroup(admin, "Perms", null);
    expect((await reader.get(headset(group))).status).toBe(200);
    expect((await reader.post(`${headset(group)}/arborxr-home`, homeBody(c))).status).toBe(403);
    expect((await reader.get(`/devices/${picoDevice}/headset-experience`)).status).toBe(200);
    const refused = await reader.post(`/devices/${picoDevice}/headset-experience/default-home`, {});
    expect(refused.status).toBe(403);
    // 403 comes before body validation.
    expect((await reader.post(`${headset(group)}/arborxr-home`, {})).status).toBe(403);
  });

  it("a change records one audit record without the PIN; repeating it records none and keeps updatedAt", async () => {
    const group = await createConfiguredGroup(admin, "Audited", null);
    const audits = async () =>
      (await admin.get("/audit-logs", { query: { search: "configure-headset-experience", per_page: 100 } }))
        .body.data as Json[];
    const before = (await audits()).length;
    expect((await admin.post(`${headset(group)}/arborxr-kiosk`, kioskBody(c))).status).toBe(204);
    const first = (await admin.get(headset(group))).body;
    const records = await audits();
    expect(records.length).toBe(before + 1);
    expect(records[0]).toMatchObject({
      action: "configure-headset-experience",
      type: "updated",
      resourceType: "group",
      resourceId: group,
      resourceName: "Audited",
    });
    expect(JSON.stringify(records[0])).not.toContain("123456");

    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await admin.post(`${headset(group)}/arborxr-kiosk`, kioskBody(c))).status).toBe(204);
    expect((await admin.get(headset(group))).body).toEqual(first);
    expect((await audits()).length).toBe(before + 1);

    // Another mode keeps the experience's id and createdAt, moves updatedAt.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await admin.post(`${headset(group)}/arborxr-home`, homeBody(c));
    const second = (await admin.get(headset(group))).body;
    expect(second).toMatchObject({ id: first.id, createdAt: first.createdAt, mode: "arborxr-home" });
    expect(second.updatedAt > first.updatedAt).toBe(true);
  });
});
