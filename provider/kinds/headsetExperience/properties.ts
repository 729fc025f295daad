/**
 * The HeadsetExperience kind's properties: the ones every experience has (experience/properties.ts) with every
 * field some headset mode takes.
 */
import { type StateOf, defineIdentity } from "../../framework";
import { HEADSET_FIELDS, HEADSET_MODES } from "../experience/fields";
import { experienceProperties } from "../experience/properties";
import { experienceClaim } from "../experience/claim";

/** Every field a headset experience of some mode takes. */
export const HEADSET_FIELD_NAMES = [
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
  "kioskContent",
  "isMenuEnabled",
  "metaHmsSettings",
  "launcherContent",
  "returnToLauncherViaHomeButton",
] as const;

export const headsetExperienceProperties = experienceProperties(
  HEADSET_FIELDS,
  HEADSET_MODES,
  HEADSET_FIELD_NAMES,
);

export type HeadsetExperienceProperties = typeof headsetExperienceProperties;
export type HeadsetExperienceState = StateOf<HeadsetExperienceProperties>;

/**
 * Who the HeadsetExperience kind is: its key, type token, properties, natural key and claim, declared once for the
 * definition, the handler and the kind's other files.
 */
export const headsetExperienceIdentity = defineIdentity({
  kind: "headsetExperience",
  type: "HeadsetExperience",
  naturalKey: false,
  properties: headsetExperienceProperties,
  claim: experienceClaim("headset experience"),
});
