import * as dm from "pulumi-devicemgmt";
import type * as pulumi from "@pulumi/pulumi";

/** Shared-mode settings every site sends (the API requires them for groups). */
const SHARED_MODE = {
  enableOfflineMode: false,
  requireManagedMetaLogin: false,
  enableControllerFree: true,
  adjustDeviceFit: true,
  defaultToStationaryBoundary: true,
};

/**
 * What the headsets show at two sites. What the organization already has is looked up by name (apps, a video,
 * images, themes), so the same program runs against production and a staging copy; Austin Lab's icon and 3D
 * hall are uploaded by this program (content.ts).
 * - London Warehouse is a kiosk: the headsets start straight into Warehouse Picker, around it the warehouse
 *   floor in 360°, and the menu is guarded by an admin PIN (a config secret: never in the program, and kept
 *   secret in state).
 * - Austin Lab shows the ArborXR home with the training apps and a video, in the company's own theme, with its
 *   own menu icon, inside its 3D training hall.
 */
export function declareExperiences(
  kioskSite: dm.Group,
  homeSite: dm.Group,
  kioskPin: pulumi.Input<string> | undefined,
  austin: { icon: dm.Image; hall: dm.Custom3DEnvironment },
) {
  const picker = dm.getAppOutput({ name: "Warehouse Picker" });
  const simulator = dm.getAppOutput({ name: "Training Simulator" });
  const safety = dm.getAppOutput({ name: "Safety Briefing" });
  const welcomeTour = dm.getVideoOutput({ name: "Welcome Tour" });
  const menuIcon = dm.getImageOutput({ name: "acme-menu-icon.png", type: "headset-xp-menu-icon" });
  const floor360 = dm.getImageOutput({ name: "warehouse-floor-360.jpg", type: "three-sixty-background" });
  const systemDark = dm.getThemeOutput({ name: "ArborXR Dark", systemOwned: true });
  const companyTheme = dm.getThemeOutput({ name: "Acme Brand", systemOwned: false });

  const kiosk = new dm.HeadsetExperience("london-kiosk", {
    groupId: kioskSite.id,
    mode: "arborxr-kiosk",
    kioskContent: { type: "app", id: picker.id },
    isMenuEnabled: true,
    language: "en",
    menuIconImageId: menuIcon.id,
    removePoweredByArborXrBranding: false,
    themeId: systemDark.id,
    shortcuts: ["wifi-settings", "boundary"],
    background: { type: "360-background", threeSixtyImageId: floor360.id },
    adminPin: kioskPin ?? null,
    sharedModeSettings: SHARED_MODE,
  });

  const home = new dm.HeadsetExperience("austin-home", {
    groupId: homeSite.id,
    mode: "arborxr-home",
    visibleContents: [
      { type: "app", id: simulator.id },
      { type: "app", id: safety.id },
      { type: "video", id: welcomeTour.id },
    ],
    language: "en",
    menuTitle: "Austin Training",
    menuIconImageId: austin.icon.id,
    removePoweredByArborXrBranding: false,
    themeId: companyTheme.id,
    shortcuts: ["boundary"],
    categorizationTags: ["training", "safety"],
    background: { type: "custom-3d-environment", custom3DEnvironmentId: austin.hall.id },
    sharedModeSettings: SHARED_MODE,
  });

  return { kiosk, home };
}
