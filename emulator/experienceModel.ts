/**
 * Stored records of what a headset shows (headset and device experiences of groups and devices) and of what an
 * experience refers to that the rest of the model lacks: images, custom 3D environments, themes.
 */
import type { Timestamps } from "./model";

export const IMAGE_TYPES = [
  "unknown",
  "three-sixty-background",
  "android-wallpaper",
  "app-icon",
  "video-icon",
  "organization-icon",
  "unmanaged-app-icon",
  "webxr-link-icon",
  "headset-xp-skybox",
  "headset-xp-banner",
  "headset-xp-menu-icon",
] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

export interface Image extends Timestamps {
  id: string;
  /** System images are offered to every organization; the organization's own come first in lists. */
  isSystemOwned: boolean;
  objectName: string | null;
  originalFileName: string | null;
  mimeType: string | null;
  sizeBytes: number | null;
  type: ImageType;
  status: "available" | "pending" | "failed";
  /** An uploaded image's processing: when (emulator clock, ms) it becomes available (routes/imageUploads.ts). */
  availableAtMs?: number;
  /** An uploaded image's stored bytes (emulator/uploads.ts), which its `downloadUrl` signs. */
  objectKey?: string;
  /** Its processing ends in `failed` at `availableAtMs` (fault `failContentProcessing`). */
  failsProcessing?: boolean;
}

export interface Custom3DEnvironment extends Timestamps {
  id: string;
  objectName: string;
  sizeBytes: number | null;
  status: "available" | "pending" | "failed";
  /** An uploaded environment's processing: when (emulator clock, ms) it becomes available. */
  availableAtMs?: number;
  /** An uploaded environment's stored bytes (emulator/uploads.ts), which its `downloadUrl` signs. */
  objectKey?: string;
  /** Its processing ends in `failed` at `availableAtMs` (fault `failContentProcessing`). */
  failsProcessing?: boolean;
}

export const THEME_COLORS = ["background1", "background2", "text", "accent1", "accent2", "accent3"] as const;
export type ThemeColor = (typeof THEME_COLORS)[number];

export interface Theme extends Timestamps, Record<ThemeColor, string> {
  id: string;
  name: string;
  isSystemOwned: boolean;
}

/** Path segments of the configure operations, and the `mode` each one reads back as (they differ). */
export const HEADSET_MODES = {
  "arborxr-home": "arborxr-home",
  "arborxr-kiosk": "arborxr-kiosk",
  "default-home": "device-default",
  "in-house-launcher": "custom-launcher",
} as const;
export const DEVICE_MODES = {
  "lock-task": "lock-task",
  "default-home": "device-default",
  "in-house-launcher": "custom-launcher",
} as const;
export type HeadsetMode = (typeof HEADSET_MODES)[keyof typeof HEADSET_MODES];
export type DeviceMode = (typeof DEVICE_MODES)[keyof typeof DEVICE_MODES];
export type ExperienceKind = "headset" | "device";

/**
 * One configured experience of a group or device. `settings` holds the validated request body as the emulator
 * keeps it (defaults filled in, fields the mode does not take removed); the views render it in the GET shape.
 */
export interface ExperienceRecord extends Timestamps {
  id: string;
  kind: ExperienceKind;
  holder: { type: "group" | "device"; id: string };
  mode: HeadsetMode | DeviceMode;
  settings: Record<string, unknown>;
  /**
   * Set on a device's own experience when the device joins a group; whether it still applies when the device
   * leaves the group again is the `dropDeviceExperienceOnGroupJoin` switch.
   */
  joinedGroupAt?: string;
}

const keyOf = (kind: ExperienceKind, holderId: string) => `${kind}/${holderId}`;

/** The experiences of one organization, by holder. */
export class ExperienceBook {
  private readonly records = new Map<string, ExperienceRecord>();

  constructor(records: Iterable<ExperienceRecord> = []) {
    for (const record of records) this.records.set(keyOf(record.kind, record.holder.id), record);
  }

  get(kind: ExperienceKind, holderId: string): ExperienceRecord | undefined {
    return this.records.get(keyOf(kind, holderId));
  }

  put(record: ExperienceRecord): void {
    this.records.set(keyOf(record.kind, record.holder.id), record);
  }

  /** A group or device left the organization (deleted, migrated): its experiences go with it. */
  forget(holderId: string): void {
    this.records.delete(keyOf("headset", holderId));
    this.records.delete(keyOf("device", holderId));
  }

  markJoinedGroup(deviceId: string, at: string): void {
    for (const kind of ["headset", "device"] as const) {
      const record = this.get(kind, deviceId);
      if (record) record.joinedGroupAt ??= at;
    }
  }

  /** The themes' deletion reading "allowed": experiences that used the theme show no theme. */
  clearTheme(themeId: string): void {
    for (const record of this.records.values())
      if (record.settings.themeId === themeId) record.settings.themeId = null;
  }

  usingTheme(themeId: string): ExperienceRecord[] {
    return [...this.records.values()].filter((r) => r.settings.themeId === themeId);
  }

  values(): IterableIterator<ExperienceRecord> {
    return this.records.values();
  }
}
