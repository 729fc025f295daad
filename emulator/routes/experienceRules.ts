/**
 * The request bodies of the configure operations and the rules the OpenAPI states for them: the shape (zod),
 * then the fields a mode, background type or `isMenuEnabled` requires, then references that must name
 * something of the organization (apps, videos, images of the right type, themes, custom 3D environments).
 * Everything found is reported in one 422, as Laravel's validator does.
 *
 * Unmanaged apps and WebXR links have no catalogue in the API, so their ids are taken as given.
 */
import { z } from "zod";
import { FieldErrorCollector, parseOrThrow } from "../errors";
import type { ImageType } from "../experienceModel";
import type { OrgState } from "../store";

const LANGUAGES = ["zh-TW", "en", "nl", "fr", "de", "hi", "it", "ja", "ko", "pt", "es", "ro"] as const;
const SHORTCUTS = [
  "boundary",
  "screencast",
  "screen-capture",
  "eye-calibration",
  "wifi-settings",
  "bluetooth",
  "pico-controller-settings",
  "pico-idp-adjustment",
] as const;

const content = <T extends readonly [string, ...string[]]>(types: T) =>
  z.object({ id: z.guid(), type: z.enum(types) });
const homeContent = content(["app", "unmanaged-app", "video", "web-xr-link"] as const);
const appContent = content(["app"] as const);
const lockTaskContent = content(["app", "unmanaged-app"] as const);

const background = z.object({
  type: z.enum(["3d-model", "360-background", "mixed-reality-mode", "custom-3d-environment"]),
  bannerImageId: z.guid().optional(),
  skyboxImageId: z.guid().optional(),
  threeSixtyImageId: z.guid().optional(),
  custom3DEnvironmentId: z.guid().optional(),
});

const sharedModeSettings = z.object({
  enableOfflineMode: z.boolean(),
  requireManagedMetaLogin: z.boolean(),
  requiredPasswordComplexity: z.enum(["NONE", "LOW", "MEDIUM", "HIGH"]).nullable().optional(),
  requireSessionPasscode: z.boolean().optional(),
  sessionTimeout: z.enum(["FIFTEEN", "THIRTY", "FORTY_FIVE", "SIXTY"]).optional(),
  enableControllerFree: z.boolean(),
  wakeControllers: z.boolean().optional(),
  adjustDeviceFit: z.boolean(),
  defaultToStationaryBoundary: z.boolean(),
});

const metaHmsSettings = z.object({
  isStoreEnabled: z.boolean(),
  isSocialEnabled: z.boolean(),
  isAddAccountsEnabled: z.boolean(),
});

/** Its pattern is checked in `validate`, for a message that says what a PIN must be. */
const adminPin = z.string().nullable();
const ADMIN_PIN = /^[0-9]{4,10}$/;
const menuFields = {
  language: z.enum(LANGUAGES),
  menuIconImageId: z.guid(),
  removePoweredByArborXrBranding: z.boolean(),
  shortcuts: z.array(z.enum(SHORTCUTS)),
  themeId: z.guid(),
};

export const BODIES = {
  "arborxr-home": z.object({
    visibleContents: z.array(homeContent),
    ...menuFields,
    menuTitle: z.string().trim().min(1).max(255),
    // Required and nullable: the key must be sent (checked in validate), null means no PIN.
    adminPin: adminPin.optional(),
    categorizationTags: z.array(z.string().max(60)),
    background,
    sharedModeSettings: sharedModeSettings.optional(),
  }),
  "arborxr-kiosk": z.object({
    kioskContent: content(["app", "unmanaged-app", "web-xr-link", "video"] as const),
    isMenuEnabled: z.boolean(),
    language: menuFields.language.optional(),
    menuIconImageId: menuFields.menuIconImageId.optional(),
    removePoweredByArborXrBranding: menuFields.removePoweredByArborXrBranding.optional(),
    shortcuts: menuFields.shortcuts.optional(),
    adminPin: adminPin.optional(),
    background: background.optional(),
    themeId: menuFields.themeId.optional(),
    sharedModeSettings: sharedModeSettings.optional(),
  }),
  "headset-default-home": z.object({ metaHmsSettings: metaHmsSettings.optional() }),
  "headset-in-house-launcher": z.object({
    launcherContent: appContent,
    visibleContents: z.array(appContent),
    returnToLauncherViaHomeButton: z.boolean(),
    sharedModeSettings: sharedModeSettings.optional(),
  }),
  "lock-task": z.object({ visibleContents: z.array(lockTaskContent) }),
  "device-default-home": z.object({}),
  "device-in-house-launcher": z.object({
    launcherContent: appContent,
    visibleContents: z.array(lockTaskContent),
  }),
};
export type BodyKey = keyof typeof BODIES;

/** Kiosk fields that apply only with the menu on ("required/present when isMenuEnabled is true"). */
const KIOSK_MENU_FIELDS = [
  "language",
  "menuIconImageId",
  "removePoweredByArborXrBranding",
  "themeId",
  "shortcuts",
  "adminPin",
] as const;
const KIOSK_MENU_REQUIRED = ["language", "menuIconImageId", "removePoweredByArborXrBranding", "themeId"];

const BACKGROUND_FIELDS = {
  "3d-model": ["bannerImageId", "skyboxImageId"],
  "360-background": ["threeSixtyImageId"],
  "custom-3d-environment": ["custom3DEnvironmentId"],
  "mixed-reality-mode": [],
} as const;
const BACKGROUND_IMAGE_TYPES: Record<string, ImageType> = {
  bannerImageId: "headset-xp-banner",
  skyboxImageId: "headset-xp-skybox",
  threeSixtyImageId: "three-sixty-background",
};

export interface RuleOptions {
  org: OrgState;
  /** Groups and Meta devices ("Meta HMS devices") must send sharedModeSettings / metaHmsSettings. */
  needsMetaSettings: boolean;
  rejectUnused: boolean;
}

const attribute = (path: string) => path.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();

/** Validates one configure request and returns the settings to store (defaults filled, unused fields gone). */
export class ExperienceRules {
  private readonly errors = new FieldErrorCollector();

  constructor(private readonly options: RuleOptions) {}

  validate(key: BodyKey, raw: Record<string, unknown>): Record<string, unknown> {
    const body = parseOrThrow(BODIES[key], raw) as Record<string, unknown>;
    const settings: Record<string, unknown> = { ...body };
    switch (key) {
      case "arborxr-home":
        this.required("adminPin", settings.adminPin);
        this.menu(settings);
        this.background(settings, "background");
        this.shared(settings);
        break;
      case "arborxr-kiosk":
        this.content("kioskContent", settings.kioskContent as Content);
        if (settings.isMenuEnabled) {
          for (const field of KIOSK_MENU_REQUIRED) this.required(field, settings[field]);
          settings.shortcuts ??= [];
          settings.adminPin ??= null;
          this.menu(settings);
        } else {
          for (const field of KIOSK_MENU_FIELDS) this.unused(settings, field, "when the menu is disabled");
        }
        if (settings.background) this.background(settings, "background");
        else settings.background = null;
        this.shared(settings);
        break;
      case "headset-default-home":
        this.required("metaHmsSettings", settings.metaHmsSettings, this.options.needsMetaSettings);
        settings.metaHmsSettings ??= { ...DEFAULT_META_HMS_SETTINGS };
        break;
      case "headset-in-house-launcher":
      case "device-in-house-launcher":
        this.content("launcherContent", settings.launcherContent as Content);
        this.contents("visibleContents", settings.visibleContents as Content[]);
        if (key === "headset-in-house-launcher") this.shared(settings);
        break;
      case "lock-task":
        this.contents("visibleContents", settings.visibleContents as Content[]);
        break;
      case "device-default-home":
        break;
    }
    // Checked only where the PIN is used (a kiosk with the menu off takes none).
    if (typeof settings.adminPin === "string" && !ADMIN_PIN.test(settings.adminPin))
      this.errors.add("adminPin", "The admin pin field must be 4 to 10 digits.");
    this.errors.throwIfAny();
    return settings;
  }

  private menu(settings: Record<string, unknown>): void {
    if (settings.visibleContents) this.contents("visibleContents", settings.visibleContents as Content[]);
    this.image("menuIconImageId", settings.menuIconImageId, "headset-xp-menu-icon");
    if (typeof settings.themeId === "string" && !this.options.org.themes.get(settings.themeId))
      this.errors.add("themeId", "The selected theme id is invalid.");
  }

  private background(settings: Record<string, unknown>, field: string): void {
    const given = settings[field] as Record<string, string>;
    const wanted: readonly string[] = BACKGROUND_FIELDS[given.type as keyof typeof BACKGROUND_FIELDS];
    const kept: Record<string, string> = { type: given.type };
    for (const name of ["bannerImageId", "skyboxImageId", "threeSixtyImageId", "custom3DEnvironmentId"]) {
      const path = `${field}.${name}`;
      if (!wanted.includes(name)) {
        if (given[name] !== undefined && this.options.rejectUnused)
          this.errors.add(path, `The ${path} field is prohibited when ${field}.type is ${given.type}.`);
        continue;
      }
      if (!this.required(path, given[name])) continue;
      kept[name] = given[name];
      if (name === "custom3DEnvironmentId") {
        if (!this.options.org.custom3DEnvironments.get(given[name]))
          this.errors.add(path, `The selected ${attribute(name)} is invalid.`);
      } else {
        this.image(path, given[name], BACKGROUND_IMAGE_TYPES[name]);
      }
    }
    settings[field] = kept;
  }

  private shared(settings: Record<string, unknown>): void {
    const given = settings.sharedModeSettings as z.output<typeof sharedModeSettings> | undefined;
    if (!this.required("sharedModeSettings", given, this.options.needsMetaSettings) || !given) {
      settings.sharedModeSettings = { ...DEFAULT_SHARED_MODE_SETTINGS };
      return;
    }
    if (!given.enableControllerFree)
      this.required("sharedModeSettings.wakeControllers", given.wakeControllers);
    const { requireSessionPasscode, sessionTimeout: _deprecated, ...kept } = given;
    // Deprecated: "true maps to LOW, false maps to NONE" when requiredPasswordComplexity is not sent.
    kept.requiredPasswordComplexity ??=
      requireSessionPasscode === undefined ? null : requireSessionPasscode ? "LOW" : "NONE";
    settings.sharedModeSettings = kept;
  }

  private contents(field: string, items: readonly Content[]): void {
    items.forEach((item, i) => this.content(`${field}.${i}`, item));
  }

  private content(path: string, item: Content): void {
    const { org } = this.options;
    const found =
      item.type === "app" ? org.apps.get(item.id) : item.type === "video" ? org.videos.get(item.id) : true;
    if (!found) this.errors.add(`${path}.id`, `The selected ${item.type} id is invalid.`);
  }

  private image(path: string, id: unknown, type: ImageType): void {
    if (typeof id !== "string") return;
    const image = this.options.org.images.get(id);
    if (!image) this.errors.add(path, `The selected ${attribute(path.split(".").pop()!)} is invalid.`);
    // An uploaded image is `unknown` unless switch `uploadedImageType` says otherwise: the slot gives it its use.
    else if (image.type !== type && image.type !== "unknown")
      this.errors.add(path, `The image must be an image of type ${type}.`);
  }

  /** Whether the value is there; adds "required" when it is not and `when` holds. */
  private required(path: string, value: unknown, when = true): boolean {
    if (value !== undefined) return true;
    if (when) this.errors.add(path, `The ${attribute(path)} field is required.`);
    return false;
  }

  private unused(settings: Record<string, unknown>, field: string, reason: string): void {
    if (settings[field] !== undefined && this.options.rejectUnused)
      this.errors.add(field, `The ${attribute(field)} field is prohibited ${reason}.`);
    delete settings[field];
  }
}

type Content = { id: string; type: string };

/** What an experience reads back as when sharedModeSettings / metaHmsSettings were not sent (emulator's choice). */
export const DEFAULT_SHARED_MODE_SETTINGS = {
  enableOfflineMode: false,
  requireManagedMetaLogin: false,
  requiredPasswordComplexity: null,
  enableControllerFree: false,
  wakeControllers: true,
  adjustDeviceFit: false,
  defaultToStationaryBoundary: false,
};
export const DEFAULT_META_HMS_SETTINGS = {
  isStoreEnabled: true,
  isSocialEnabled: true,
  isAddAccountsEnabled: true,
};
