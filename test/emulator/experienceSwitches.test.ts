/**
 * What the documents leave open about experiences, read both ways (each switch off and on), and the state file
 * keeping experiences, themes and the seeded catalogue (old state files without them still load).
 */
import { mkdtempSync, promises as fs, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { RunningEmulator, StrictOptions } from "../../emulator";
import { optionsFromArgs } from "../../emulator/cli";
import { seedState } from "../../emulator/seed";
import { catalogue, homeBody, kioskBody, type Catalogue } from "./experienceHelpers";
import {
  client,
  createConfiguredGroup,
  createGroup,
  start,
  validationErrors,
  type Client,
  type Json,
} from "./helpers";

const ALL_ON: Required<Pick<StrictOptions, ExperienceSwitch>> = {
  unsetExperienceNotFound: true,
  dropDeviceExperienceOnGroupJoin: true,
  withholdAdminPin: true,
  rejectUnusedExperienceFields: true,
  sortExperienceLists: true,
  rejectDeletingUsedTheme: true,
  uniqueThemeNames: true,
  lowercaseThemeColors: true,
  noMetaHmsDevices: true,
};
type ExperienceSwitch =
  | "unsetExperienceNotFound"
  | "dropDeviceExperienceOnGroupJoin"
  | "withholdAdminPin"
  | "rejectUnusedExperienceFields"
  | "sortExperienceLists"
  | "rejectDeletingUsedTheme"
  | "uniqueThemeNames"
  | "lowercaseThemeColors"
  | "noMetaHmsDevices";

interface World {
  emulator: RunningEmulator;
  admin: Client;
  c: Catalogue;
  devices: Json[];
}
const worlds: Record<"off" | "on", World> = {} as never;

beforeAll(async () => {
  for (const [reading, strict] of [
    ["off", {}],
    ["on", ALL_ON],
  ] as const) {
    const emulator = await start({ strict });
    const admin = client(emulator, emulator.tokens.admin);
    const devices = (await admin.get("/devices", { query: { per_page: 100 } })).body.data;
    worlds[reading] = { emulator, admin, c: await catalogue(admin), devices };
  }
});
afterAll(async () => {
  await worlds.off.emulator.close();
  await worlds.on.emulator.close();
});

const NULL_DEFAULT_HOME = { id: null, mode: "device-default", createdAt: null, updatedAt: null };

describe("unsetExperienceNotFound: what a group or device nobody configured reads as", () => {
  it("off: the device's default home, never saved (null id and timestamps)", async () => {
    const { admin, devices } = worlds.off;
    const group = await createConfiguredGroup(admin, "Fresh", null);
    const folder = await createGroup(admin, "Folder", null);
    expect((await admin.get(`/groups/${group}/headset-experience`)).body).toEqual({
      ...NULL_DEFAULT_HOME,
      metaHmsSettings: { isStoreEnabled: true, isSocialEnabled: true, isAddAccountsEnabled: true },
    });
    expect((await admin.get(`/groups/${folder}/device-experience`)).body).toEqual(NULL_DEFAULT_HOME);
    expect((await admin.get(`/devices/${devices[0].id}/device-experience`)).body).toEqual(NULL_DEFAULT_HOME);
  });

  it("on: 404 until configured", async () => {
    const { admin, devices } = worlds.on;
    const group = await createConfiguredGroup(admin, "Fresh", null);
    expect((await admin.get(`/groups/${group}/headset-experience`)).status).toBe(404);
    expect((await admin.get(`/devices/${devices[0].id}/device-experience`)).status).toBe(404);
    await admin.post(`/groups/${group}/device-experience/default-home`, {});
    expect((await admin.get(`/groups/${group}/device-experience`)).body.mode).toBe("device-default");
  });
});

describe("dropDeviceExperienceOnGroupJoin: a device's own experience after a stay in a group", () => {
  async function joinAndLeave(world: World): Promise<{ before: Json; after: Json; status: number }> {
    const { admin, c, devices } = world;
    const device = devices[2].id;
    await admin.post(`/devices/${device}/headset-experience/arborxr-kiosk`, kioskBody(c));
    const before = (await admin.get(`/devices/${device}/headset-experience`)).body;
    const group = await createConfiguredGroup(admin, "Temporary", null);
    await admin.put(`/devices/${device}`, { groupId: group });
    await admin.put(`/devices/${device}`, { groupId: null });
    const response = await admin.get(`/devices/${device}/headset-experience`);
    return { before, after: response.body, status: response.status };
  }

  it("off: it applies again once the device is ungrouped", async () => {
    const { before, after } = await joinAndLeave(worlds.off);
    expect(after).toEqual(before);
  });

  it("on: it is gone (the device reads as never configured) until configured again", async () => {
    const { status } = await joinAndLeave(worlds.on);
    expect(status).toBe(404);
    const { admin, c, devices, emulator } = worlds.on;
    // The snapshot keeps the record and says when the device joined a group.
    const stale = emulator.snapshot().experiences.find((e) => e.holder.id === devices[2].id);
    expect(stale?.joinedGroupAt).toEqual(expect.any(String));
    await admin.post(`/devices/${devices[2].id}/headset-experience/arborxr-kiosk`, kioskBody(c));
    const again = (await admin.get(`/devices/${devices[2].id}/headset-experience`)).body;
    expect(again.mode).toBe("arborxr-kiosk");
  });
});

describe("withholdAdminPin: whether GET returns the PIN", () => {
  it.each([
    ["off", "4321"],
    ["on", null],
  ] as const)("%s: adminPin reads back as %p", async (reading, expected) => {
    const { admin, c } = worlds[reading];
    const group = await createConfiguredGroup(admin, "Pinned", null);
    await admin.post(`/groups/${group}/headset-experience/arborxr-home`, homeBody(c, { adminPin: "4321" }));
    expect((await admin.get(`/groups/${group}/headset-experience`)).body.adminPin).toBe(expected);
  });
});

describe("rejectUnusedExperienceFields: fields the mode, background type or menu setting does not take", () => {
  const extras = (c: Catalogue) => ({
    menuOff: kioskBody(c, { isMenuEnabled: false, language: "fr", adminPin: "12" }),
    background: homeBody(c, { background: { type: "mixed-reality-mode", bannerImageId: c.banner } }),
  });

  it("off: ignored, not stored, not read back", async () => {
    const { admin, c } = worlds.off;
    const group = await createConfiguredGroup(admin, "Lenient", null);
    const url = `/groups/${group}/headset-experience`;
    expect((await admin.post(`${url}/arborxr-kiosk`, extras(c).menuOff)).status).toBe(204);
    expect((await admin.get(url)).body).not.toHaveProperty("language");
    expect((await admin.post(`${url}/arborxr-home`, extras(c).background)).status).toBe(204);
    expect((await admin.get(url)).body.background).toEqual({ type: "mixed-reality-mode" });
  });

  it("on: 422 naming each field", async () => {
    const { admin, c } = worlds.on;
    const group = await createConfiguredGroup(admin, "Strict", null);
    const url = `/groups/${group}/headset-experience`;
    const menu = validationErrors(await admin.post(`${url}/arborxr-kiosk`, extras(c).menuOff));
    expect(Object.keys(menu)).toEqual([
      "language",
      "menuIconImageId",
      "removePoweredByArborXrBranding",
      "themeId",
      "shortcuts",
      "adminPin",
    ]);
    expect(menu.language[0]).toContain("prohibited");
    // A PIN the kiosk does not take is refused for that, not for its format.
    expect(menu.adminPin).toEqual(["The admin pin field is prohibited when the menu is disabled."]);
    const background = validationErrors(await admin.post(`${url}/arborxr-home`, extras(c).background));
    expect(Object.keys(background)).toEqual(["background.bannerImageId"]);
  });
});

describe("sortExperienceLists: the order lists read back in", () => {
  it.each(["off", "on"] as const)("%s", async (reading) => {
    const { admin, c } = worlds[reading];
    const group = await createConfiguredGroup(admin, "Ordered", null);
    const body = homeBody(c, {
      shortcuts: ["wifi-settings", "boundary"],
      categorizationTags: ["zeta", "alpha"],
      visibleContents: [
        { type: "video", id: c.videos[0] },
        { type: "app", id: c.apps[0] },
      ],
    });
    await admin.post(`/groups/${group}/headset-experience/arborxr-home`, body);
    const read = (await admin.get(`/groups/${group}/headset-experience`)).body;
    if (reading === "off") {
      expect([read.shortcuts, read.categorizationTags, read.visibleContents]).toEqual([
        body.shortcuts,
        body.categorizationTags,
        body.visibleContents,
      ]);
    } else {
      expect(read.shortcuts).toEqual(["boundary", "wifi-settings"]);
      expect(read.categorizationTags).toEqual(["alpha", "zeta"]);
      expect(read.visibleContents.map((v: Json) => v.type)).toEqual(["app", "video"]);
    }
  });
});

describe("rejectDeletingUsedTheme: deleting a theme an experience uses", () => {
  it.each(["off", "on"] as const)("%s", async (reading) => {
    const { admin, c } = worlds[reading];
    const colors = { background1: "#000000", background2: "#111111", text: "#ffffff" };
    const theme = (
      await admin.post("/themes", {
        name: "Used",
        ...colors,
        accent1: "#222222",
        accent2: "#333333",
        accent3: "#444444",
      })
    ).body;
    const group = await createConfiguredGroup(admin, "Uses theme", null);
    const url = `/groups/${group}/headset-experience`;
    await admin.post(`${url}/arborxr-kiosk`, kioskBody(c, { themeId: theme.id }));
    const deleted = await admin.delete(`/themes/${theme.id}`);
    if (reading === "off") {
      expect(deleted.status).toBe(204);
      expect((await admin.get(url)).body.themeId).toBeNull();
    } else {
      expect(Object.keys(validationErrors(deleted))).toEqual(["themeId"]);
      expect((await admin.get(url)).body.themeId).toBe(theme.id);
      // Once no experience uses it, it goes.
      await admin.post(`${url}/arborxr-kiosk`, kioskBody(c, { themeId: c.systemTheme }));
      expect((await admin.delete(`/themes/${theme.id}`)).status).toBe(204);
    }
  });
});

const THEME = {
  background1: "#ABCDEF",
  background2: "#111111",
  text: "#FfFfFf",
  accent1: "#222222",
  accent2: "#333333",
  accent3: "#444444",
};

describe("uniqueThemeNames: two themes of one name", () => {
  it("off: allowed, even the name of a system theme", async () => {
    const { admin } = worlds.off;
    expect((await admin.post("/themes", { name: "Twin", ...THEME })).status).toBe(201);
    expect((await admin.post("/themes", { name: "twin", ...THEME })).status).toBe(201);
    expect((await admin.post("/themes", { name: "ArborXR Dark", ...THEME })).status).toBe(201);
  });

  it("on: 422 name, case-insensitively; a theme keeps its own name on update", async () => {
    const { admin } = worlds.on;
    const twin = (await admin.post("/themes", { name: "Twin", ...THEME })).body;
    expect(validationErrors(await admin.post("/themes", { name: "TWIN", ...THEME })).name).toEqual([
      "The name has already been taken.",
    ]);
    expect(
      Object.keys(validationErrors(await admin.post("/themes", { name: "arborxr dark", ...THEME }))),
    ).toEqual(["name"]);
    expect(
      (await admin.put(`/themes/${twin.id}`, { name: "Twin", ...THEME, accent1: "#999999" })).status,
    ).toBe(200);
    const other = (await admin.post("/themes", { name: "Other", ...THEME })).body;
    expect(
      Object.keys(validationErrors(await admin.put(`/themes/${other.id}`, { name: "twin", ...THEME }))),
    ).toEqual(["name"]);
  });
});

describe("lowercaseThemeColors: the case colours read back in", () => {
  it.each([
    ["off", "#ABCDEF", "#FfFfFf"],
    ["on", "#abcdef", "#ffffff"],
  ] as const)("%s: %s, %s", async (reading, background1, text) => {
    const { admin } = worlds[reading];
    const created = (await admin.post("/themes", { name: `Case ${reading}`, ...THEME })).body;
    expect(created).toMatchObject({ background1, text });
    expect((await admin.get(`/themes/${created.id}`)).body).toMatchObject({ background1, text });
  });
});

describe("noMetaHmsDevices: whether a Meta device must send the Meta settings", () => {
  it.each([
    ["off", 422],
    ["on", 204],
  ] as const)("%s: a Meta device without metaHmsSettings gets %d", async (reading, status) => {
    const { admin, devices } = worlds[reading];
    const meta = devices.find((d) => d.deviceModel.manufacturer === "Meta" && !d.group).id;
    const response = await admin.post(`/devices/${meta}/headset-experience/default-home`, {});
    expect(response.status).toBe(status);
    // Groups need them either way.
    const group = await createConfiguredGroup(admin, `HMS ${reading}`, null);
    expect((await admin.post(`/groups/${group}/headset-experience/default-home`, {})).status).toBe(422);
  });
});

describe("state file", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "devicemgmt-experience-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps experiences (PIN included) and custom themes across a restart", async () => {
    const statePath = path.join(dir, "state.json");
    const first = await start({ statePath });
    const admin = client(first, first.tokens.admin);
    const c = await catalogue(admin);
    const group = await createConfiguredGroup(admin, "Kept", null);
    const theme = (
      await admin.post("/themes", {
        name: "Kept theme",
        background1: "#000000",
        background2: "#111111",
        text: "#ffffff",
        accent1: "#222222",
        accent2: "#333333",
        accent3: "#444444",
      })
    ).body;
    await admin.post(`/groups/${group}/headset-experience/arborxr-home`, homeBody(c, { themeId: theme.id }));
    await admin.post(
      `/devices/${(await admin.get("/devices")).body.data[0].id}/device-experience/lock-task`,
      {
        visibleContents: [{ type: "app", id: c.apps[0] }],
      },
    );
    const reads = async (api: Client) => ({
      headset: (await api.get(`/groups/${group}/headset-experience`)).body,
      themes: (await api.get("/themes", { query: { per_page: 100 } })).body.data,
      images: (await api.get("/images", { query: { type: "headset-xp-banner" } })).body.data,
    });
    const before = await reads(admin);
    const snapshot = first.snapshot();
    expect(snapshot.experiences).toEqual([
      {
        kind: "headset",
        holder: { type: "group", id: group },
        mode: "arborxr-home",
        settings: expect.objectContaining({ adminPin: "4321", themeId: theme.id }),
        joinedGroupAt: null,
      },
      {
        kind: "device",
        holder: { type: "device", id: expect.any(String) },
        mode: "lock-task",
        settings: { visibleContents: [{ type: "app", id: c.apps[0] }] },
        joinedGroupAt: null,
      },
    ]);
    expect(snapshot.themes.map((t) => t.name)).toEqual(["Acme Brand", "Kept theme"]);
    await first.close();

    const second = await start({ statePath });
    try {
      expect(await reads(client(second, second.tokens.admin))).toEqual(before);
      expect(second.snapshot()).toEqual(snapshot);
    } finally {
      await second.close();
    }
  });

  it("loads a state file from before experiences existed, with the seeded catalogue", async () => {
    const statePath = path.join(dir, "old.json");
    const old = seedState();
    for (const org of old.orgs) {
      expect(org.themes).toBeUndefined();
      delete org.experiences;
    }
    await fs.writeFile(statePath, JSON.stringify(old));
    const emulator = await start({ statePath });
    try {
      const admin = client(emulator, emulator.tokens.admin);
      const c = await catalogue(admin);
      const group = await createConfiguredGroup(admin, "After upgrade", null);
      const url = `/groups/${group}/headset-experience`;
      expect((await admin.post(`${url}/arborxr-home`, homeBody(c))).status).toBe(204);
      expect((await admin.get(url)).body.mode).toBe("arborxr-home");
    } finally {
      await emulator.close();
    }
  });
});

describe("command line", () => {
  it("--strict-experience NAME turns on one switch, --strict all of them", () => {
    expect(
      optionsFromArgs(["--strict-experience", "withhold-admin-pin", "--strict-experience", "sort-lists"]),
    ).toMatchObject({
      strict: { withholdAdminPin: true, sortExperienceLists: true },
    });
    const one = optionsFromArgs(["--strict-experience", "withhold-admin-pin"]) as { strict: StrictOptions };
    expect(one.strict.unsetExperienceNotFound).toBeUndefined();
    expect(optionsFromArgs(["--strict"])).toMatchObject({ strict: ALL_ON });
    expect(() => optionsFromArgs(["--strict-experience", "everything"])).toThrow(
      /unknown switch "everything"/,
    );
  });
});
