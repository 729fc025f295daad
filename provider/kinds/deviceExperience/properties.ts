/**
 * The DeviceExperience kind's properties: the ones every experience has (experience/properties.ts) with the
 * fields the device modes take.
 */
import { type StateOf, defineIdentity } from "../../framework";
import { DEVICE_FIELDS, DEVICE_MODES } from "../experience/fields";
import { experienceProperties } from "../experience/properties";
import { experienceClaim } from "../experience/claim";

/** Every field a device experience of some mode takes. */
export const DEVICE_FIELD_NAMES = ["visibleContents", "launcherContent"] as const;

export const deviceExperienceProperties = experienceProperties(
  DEVICE_FIELDS,
  DEVICE_MODES,
  DEVICE_FIELD_NAMES,
);

export type DeviceExperienceProperties = typeof deviceExperienceProperties;
export type DeviceExperienceState = StateOf<DeviceExperienceProperties>;

/**
 * Who the DeviceExperience kind is: its key, type token, properties, natural key and claim, declared once for the
 * definition, the handler and the kind's other files.
 */
export const deviceExperienceIdentity = defineIdentity({
  kind: "deviceExperience",
  type: "DeviceExperience",
  naturalKey: false,
  properties: deviceExperienceProperties,
  claim: experienceClaim("device experience"),
});
