/**
 * The DeviceExperience kind's properties: the ones every experience has (experience/properties.ts) with the
 * fields the device modes take.
 */
import type { StateOf } from "../../framework";
import { DEVICE_FIELDS, DEVICE_MODES } from "../experience/fields";
import { experienceProperties } from "../experience/properties";

/** Every field a device experience of some mode takes. */
export const DEVICE_FIELD_NAMES = ["visibleContents", "launcherContent"] as const;

export const deviceExperienceProperties = experienceProperties(
  DEVICE_FIELDS,
  DEVICE_MODES,
  DEVICE_FIELD_NAMES,
);

export type DeviceExperienceProperties = typeof deviceExperienceProperties;
export type DeviceExperienceState = StateOf<DeviceExperienceProperties>;
