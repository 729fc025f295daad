/**
 * The public argument types of HeadsetExperience and DeviceExperience: the owner (a group or a device, exactly
 * one) and the mode as discriminated unions, so a field another mode takes is a compile error (and, from
 * JavaScript or an Output, a check failure).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ConnectionArg } from "../../framework";
import type { LANGUAGES, SHORTCUTS } from "./fields";

/** An app, video, unmanaged app or WebXR link shown by an experience (see getApp, getVideo). */
export interface ContentArgs {
  type: "app" | "unmanaged-app" | "video" | "web-xr-link";
  id: pulumi.Input<string>;
}

/** An app (the only content an in-house launcher runs). */
export interface AppContentArgs {
  type: "app";
  id: pulumi.Input<string>;
}

/** An app or an unmanaged app (what lock task and device launchers show). */
export interface AppOrUnmanagedContentArgs {
  type: "app" | "unmanaged-app";
  id: pulumi.Input<string>;
}

export type Language = (typeof LANGUAGES)[number];
export type Shortcut = (typeof SHORTCUTS)[number];

/** What the home shows behind the menu; each type takes exactly its own image ids (see getImage). */
export type BackgroundArgs =
  | { type: "3d-model"; bannerImageId: pulumi.Input<string>; skyboxImageId: pulumi.Input<string> }
  | { type: "360-background"; threeSixtyImageId: pulumi.Input<string> }
  | { type: "mixed-reality-mode" }
  | { type: "custom-3d-environment"; custom3DEnvironmentId: pulumi.Input<string> };

/**
 * Shared-mode settings. Required on groups, and on Meta HMS devices: Meta Quest headsets managed through Meta
 * Horizon Managed Services (HMS; the API reports their HMS mode and enrollment method `meta-hms`). The API
 * documents do not say exactly which devices count, so declare them on a Meta headset's own experience too;
 * otherwise they are not managed.
 */
export interface SharedModeSettingsArgs {
  enableOfflineMode: boolean;
  requireManagedMetaLogin: boolean;
  requiredPasswordComplexity?: "NONE" | "LOW" | "MEDIUM" | "HIGH" | null;
  enableControllerFree: boolean;
  /** Required when enableControllerFree is false. */
  wakeControllers?: boolean;
  adjustDeviceFit: boolean;
  defaultToStationaryBoundary: boolean;
}

/**
 * Meta HMS settings of the default home: whether the Meta store, social features and adding accounts are
 * enabled. Required on groups, and on Meta HMS devices (see {@link SharedModeSettingsArgs}).
 */
export interface MetaHmsSettingsArgs {
  isStoreEnabled: boolean;
  isSocialEnabled: boolean;
  isAddAccountsEnabled: boolean;
}

/** Whose experience: a configured group's or an ungrouped device's (changing it replaces the resource). */
export type ExperienceOwnerArgs =
  | { /** A configured group. */ groupId: pulumi.Input<string>; deviceId?: never }
  | { /** An ungrouped device. */ deviceId: pulumi.Input<string>; groupId?: never };

/** What every experience takes besides its owner and mode: its own connection, and what destroy does. */
export interface CommonArgs extends ConnectionArg {
  /**
   * Destroying the resource leaves the experience as it is by default (the API has no delete; the stack just
   * stops managing it). true: destroy sets the device's default home instead.
   */
  resetOnDelete?: pulumi.Input<boolean>;
}

type Input<T> = pulumi.Input<T>;

/**
 * The admin PIN guarding the menu: 4 to 10 digits, kept secret everywhere. Absent or null: no PIN. Wrap a
 * config secret: `config.requireSecret("kioskPin")`.
 */
export type AdminPin = pulumi.Input<string | null>;

interface MenuArgs {
  language: Input<Language>;
  /** An image of type headset-xp-menu-icon. */
  menuIconImageId: Input<string>;
  removePoweredByArborXrBranding: Input<boolean>;
  /** A Theme's id or a system theme's (getTheme). */
  themeId: Input<string>;
}

/** The ArborXR home: a menu of contents with the organization's branding. */
export interface ArborXrHomeArgs extends MenuArgs {
  mode: "arborxr-home";
  /** A set: order does not matter. */
  visibleContents: Input<Input<ContentArgs>[]>;
  menuTitle: Input<string>;
  shortcuts: Input<Shortcut[]>;
  /** Each at most 60 characters; a set. */
  categorizationTags: Input<string[]>;
  background: BackgroundArgs;
  adminPin?: AdminPin;
  sharedModeSettings?: Input<SharedModeSettingsArgs>;
}

/** Kiosk: one content, with the menu. */
export interface ArborXrKioskWithMenuArgs extends MenuArgs {
  mode: "arborxr-kiosk";
  kioskContent: ContentArgs;
  isMenuEnabled: true;
  shortcuts?: Input<Shortcut[]>;
  adminPin?: AdminPin;
  background?: BackgroundArgs;
  sharedModeSettings?: Input<SharedModeSettingsArgs>;
}

/** Kiosk: one content, no menu (so no menu fields and no PIN). */
export interface ArborXrKioskWithoutMenuArgs {
  mode: "arborxr-kiosk";
  kioskContent: ContentArgs;
  isMenuEnabled: false;
  background?: BackgroundArgs;
  sharedModeSettings?: Input<SharedModeSettingsArgs>;
}

/** The headset's own home. */
export interface HeadsetDefaultHomeArgs {
  mode: "default-home";
  metaHmsSettings?: Input<MetaHmsSettingsArgs>;
}

/** An in-house launcher app that runs the others. */
export interface HeadsetInHouseLauncherArgs {
  mode: "in-house-launcher";
  launcherContent: AppContentArgs;
  visibleContents: Input<Input<AppContentArgs>[]>;
  returnToLauncherViaHomeButton: Input<boolean>;
  sharedModeSettings?: Input<SharedModeSettingsArgs>;
}

/** The inputs of a HeadsetExperience: an owner, a mode and that mode's fields. */
export type HeadsetExperienceArgs = ExperienceOwnerArgs &
  CommonArgs &
  (
    | ArborXrHomeArgs
    | ArborXrKioskWithMenuArgs
    | ArborXrKioskWithoutMenuArgs
    | HeadsetDefaultHomeArgs
    | HeadsetInHouseLauncherArgs
  );

export interface LockTaskArgs {
  mode: "lock-task";
  visibleContents: Input<Input<AppOrUnmanagedContentArgs>[]>;
}

export interface DeviceDefaultHomeArgs {
  mode: "default-home";
}

export interface DeviceInHouseLauncherArgs {
  mode: "in-house-launcher";
  launcherContent: AppContentArgs;
  visibleContents: Input<Input<AppOrUnmanagedContentArgs>[]>;
}

/** The inputs of a DeviceExperience: an owner, a mode and that mode's fields. */
export type DeviceExperienceArgs = ExperienceOwnerArgs &
  CommonArgs &
  (LockTaskArgs | DeviceDefaultHomeArgs | DeviceInHouseLauncherArgs);

type KeysOf<U> = U extends unknown ? keyof U : never;

/** Every argument of any alternative, optional: what the kind's declared properties are checked against. */
export type AnyOf<U> = { [K in KeysOf<U>]?: unknown };
