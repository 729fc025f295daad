/** Ids of the seeded catalogue an experience refers to, and valid request bodies for each mode. */
import type { Client, Json } from "./helpers";

export interface Catalogue {
  apps: string[];
  videos: string[];
  menuIcon: string;
  systemMenuIcon: string;
  banner: string;
  skybox: string;
  threeSixty: string;
  wallpaper: string;
  environment: string;
  systemTheme: string;
  customTheme: string;
}

async function images(api: Client, type: string): Promise<Json[]> {
  const response = await api.get("/images", { query: { type, per_page: 100 } });
  expect(response.status).toBe(200);
  return response.body.data;
}

export async function catalogue(api: Client): Promise<Catalogue> {
  const own = (list: Json[]) => list.find((i) => !i.isSystemOwned).id as string;
  const menuIcons = await images(api, "headset-xp-menu-icon");
  const themes = (await api.get("/themes", { query: { per_page: 100 } })).body.data as Json[];
  return {
    apps: (await api.get("/apps")).body.data.map((a: Json) => a.id),
    videos: (await api.get("/videos")).body.data.map((v: Json) => v.id),
    menuIcon: own(menuIcons),
    systemMenuIcon: menuIcons.find((i) => i.isSystemOwned).id,
    banner: own(await images(api, "headset-xp-banner")),
    skybox: own(await images(api, "headset-xp-skybox")),
    threeSixty: own(await images(api, "three-sixty-background")),
    wallpaper: own(await images(api, "android-wallpaper")),
    environment: (await api.get("/custom-3d-environments")).body.data[0].id,
    systemTheme: themes.find((t) => t.isSystemOwned).id,
    customTheme: themes.find((t) => !t.isSystemOwned).id,
  };
}

export const SHARED_MODE_SETTINGS = {
  enableOfflineMode: true,
  requireManagedMetaLogin: false,
  requiredPasswordComplexity: "LOW",
  enableControllerFree: false,
  wakeControllers: true,
  adjustDeviceFit: true,
  defaultToStationaryBoundary: false,
};

export function homeBody(c: Catalogue, overrides: Json = {}): Json {
  return {
    visibleContents: [
      { id: c.apps[0], type: "app" },
      { id: c.videos[0], type: "video" },
    ],
    language: "en",
    menuTitle: "Training",
    menuIconImageId: c.menuIcon,
    removePoweredByArborXrBranding: false,
    shortcuts: ["wifi-settings", "boundary"],
    adminPin: "4321",
    categorizationTags: ["safety", "onboarding"],
    background: { type: "3d-model", bannerImageId: c.banner, skyboxImageId: c.skybox },
    themeId: c.systemTheme,
    sharedModeSettings: SHARED_MODE_SETTINGS,
    ...overrides,
  };
}

export function kioskBody(c: Catalogue, overrides: Json = {}): Json {
  return {
    kioskContent: { type: "app", id: c.apps[0] },
    isMenuEnabled: true,
    language: "de",
    menuIconImageId: c.menuIcon,
    removePoweredByArborXrBranding: true,
    shortcuts: ["boundary"],
    adminPin: "123456",
    themeId: c.customTheme,
    sharedModeSettings: SHARED_MODE_SETTINGS,
    ...overrides,
  };
}

export function launcherBody(c: Catalogue, overrides: Json = {}): Json {
  return {
    launcherContent: { type: "app", id: c.apps[0] },
    visibleContents: [{ type: "app", id: c.apps[1] }],
    returnToLauncherViaHomeButton: true,
    sharedModeSettings: SHARED_MODE_SETTINGS,
    ...overrides,
  };
}

export const META_HMS_SETTINGS = {
  isStoreEnabled: false,
  isSocialEnabled: true,
  isAddAccountsEnabled: false,
};
