/**
 * The contract test's calls for experiences, themes, images and custom 3D environments: each operation once
 * in success and once in error, so contract.test.ts checks their answers against the OpenAPI document.
 */
import type { CallOptions, Json } from "./helpers";

type Probe = (key: string, params: Record<string, string>, options?: CallOptions) => Promise<Json>;

export interface ExperienceProbeTargets {
  /** A configured group. */
  group: string;
  unconfiguredGroup: string;
  groupedDevice: string;
  ungroupedDevice: string;
  /** Options that make the caller a read-only user. */
  reader: CallOptions;
}

const MISSING = "00000000-0000-4000-8000-000000000000";
const COLORS = {
  background1: "#1a1a1a",
  background2: "#2a2a2a",
  text: "#ffffff",
  accent1: "#007bff",
  accent2: "#28a745",
  accent3: "#dc3545",
};
const SHARED = {
  enableOfflineMode: true,
  requireManagedMetaLogin: false,
  requiredPasswordComplexity: "NONE",
  enableControllerFree: false,
  wakeControllers: true,
  adjustDeviceFit: true,
  defaultToStationaryBoundary: false,
};

export async function probeExperienceOperations(probe: Probe, at: ExperienceProbeTargets): Promise<void> {
  const firstImage = async (type: string) =>
    (await probe("GET /images", {}, { query: { type } })).data.find((i: Json) => !i.isSystemOwned).id;
  const menuIcon = await firstImage("headset-xp-menu-icon");
  const banner = await firstImage("headset-xp-banner");
  const skybox = await firstImage("headset-xp-skybox");
  await probe("GET /images", {}, {});
  await probe("GET /images/{imageId}", { imageId: menuIcon });
  await probe("GET /images/{imageId}", { imageId: MISSING });
  const environments = (await probe("GET /custom-3d-environments", {})).data;
  await probe("GET /custom-3d-environments", {}, { query: { per_page: 0 } });
  const environment = environments[0].id;
  await probe("GET /custom-3d-environments/{custom3DEnvironmentId}", { custom3DEnvironmentId: environment });
  await probe("GET /custom-3d-environments/{custom3DEnvironmentId}", { custom3DEnvironmentId: MISSING });

  const themes = (await probe("GET /themes", {})).data;
  await probe("GET /themes", {}, { query: { per_page: 0 } });
  const system = themes.find((t: Json) => t.isSystemOwned).id;
  const theme = (await probe("POST /themes", {}, { body: { name: "Contract", ...COLORS } })).id;
  await probe("POST /themes", {}, { body: { name: "Contract", ...COLORS, text: "white" } });
  await probe("GET /themes/{themeId}", { themeId: theme });
  await probe("GET /themes/{themeId}", { themeId: MISSING });
  await probe("PUT /themes/{themeId}", { themeId: theme }, { body: { name: "Contract 2", ...COLORS } });
  await probe("PUT /themes/{themeId}", { themeId: system }, { body: { name: "Mine", ...COLORS } });

  const apps = (await probe("GET /apps", {})).data.map((a: Json) => a.id);
  const videos = (await probe("GET /videos", {})).data.map((v: Json) => v.id);
  const bodies: Record<string, Record<string, Json>> = {
    "headset-experience": {
      "arborxr-home": {
        visibleContents: [
          { id: apps[0], type: "app" },
          { id: videos[0], type: "video" },
        ],
        language: "en",
        menuTitle: "Contract",
        menuIconImageId: menuIcon,
        removePoweredByArborXrBranding: false,
        shortcuts: ["boundary"],
        adminPin: "1234",
        categorizationTags: ["contract"],
        background: { type: "3d-model", bannerImageId: banner, skyboxImageId: skybox },
        themeId: theme,
        sharedModeSettings: SHARED,
      },
      "arborxr-kiosk": {
        kioskContent: { id: videos[0], type: "video" },
        isMenuEnabled: true,
        language: "en",
        menuIconImageId: menuIcon,
        removePoweredByArborXrBranding: true,
        themeId: system,
        background: { type: "custom-3d-environment", custom3DEnvironmentId: environment },
        sharedModeSettings: SHARED,
      },
      "default-home": {
        metaHmsSettings: { isStoreEnabled: false, isSocialEnabled: false, isAddAccountsEnabled: false },
      },
      "in-house-launcher": {
        launcherContent: { id: apps[0], type: "app" },
        visibleContents: [{ id: apps[1], type: "app" }],
        returnToLauncherViaHomeButton: true,
        sharedModeSettings: SHARED,
      },
    },
    "device-experience": {
      "lock-task": { visibleContents: [{ id: apps[0], type: "app" }] },
      "default-home": {},
      "in-house-launcher": {
        launcherContent: { id: apps[0], type: "app" },
        visibleContents: [{ id: apps[1], type: "app" }],
      },
    },
  };

  for (const [segment, modes] of Object.entries(bodies)) {
    const groupRead = `GET /groups/{groupId}/${segment}`;
    const deviceRead = `GET /devices/{deviceId}/${segment}`;
    // Never configured: the unset reading (null id and timestamps) must fit the schema too.
    await probe(groupRead, { groupId: at.group });
    await probe(deviceRead, { deviceId: at.ungroupedDevice });
    for (const [mode, body] of Object.entries(modes)) {
      const onGroup = `POST /groups/{groupId}/${segment}/${mode}`;
      const onDevice = `POST /devices/{deviceId}/${segment}/${mode}`;
      await probe(onGroup, { groupId: at.group }, { body });
      await probe(onGroup, { groupId: at.unconfiguredGroup }, { body });
      await probe(onGroup, { groupId: at.group }, { ...at.reader, body });
      await probe(onGroup, { groupId: MISSING }, { body });
      await probe(groupRead, { groupId: at.group });
      await probe(onDevice, { deviceId: at.ungroupedDevice }, { body });
      await probe(onDevice, { deviceId: at.groupedDevice }, { body });
      await probe(deviceRead, { deviceId: at.ungroupedDevice });
    }
    await probe(onGroupInvalid(segment), { groupId: at.group }, { body: { visibleContents: "none" } });
    await probe(groupRead, { groupId: MISSING });
    await probe(deviceRead, { deviceId: at.groupedDevice });
    await probe(deviceRead, { deviceId: at.ungroupedDevice }, { token: null });
  }

  await probe("DELETE /themes/{themeId}", { themeId: theme });
  await probe("DELETE /themes/{themeId}", { themeId: theme });
}

/** A mode of each kind whose body requires visibleContents, for a 422. */
const onGroupInvalid = (segment: string) =>
  `POST /groups/{groupId}/${segment}/${segment === "headset-experience" ? "arborxr-home" : "lock-task"}`;
