/** The DeviceExperience kind's handler: the experiences' shared one (experience/handler.ts) on its own calls. */
import type { KindHandler } from "../../framework/kind";
import { DEVICE_FIELDS } from "../experience/fields";
import { checkExperience, experienceHandler, type ExperienceSpec } from "../experience/handler";
import {
  DEVICE_FIELD_NAMES,
  deviceExperienceProperties,
  type DeviceExperienceProperties,
} from "./properties";

/** What check, diff and read take of the kind (the definition itself would make this file import its importer). */
const DEVICE = {
  type: "DeviceExperience",
  properties: deviceExperienceProperties,
  naturalKey: false,
} as const;

const deviceExperienceSpec = {
  resourceName: "DeviceExperience",
  noun: "device experience",
  table: DEVICE_FIELDS,
  fields: DEVICE_FIELD_NAMES,
  calls: (client) => ({
    get: (holder) => client.deviceExperiences.get(holder),
    set: (holder, path, body) => client.deviceExperiences.set(holder, path, body),
  }),
  resetBody: () => ({}),
} satisfies ExperienceSpec<keyof typeof DEVICE_FIELDS>;

export const deviceExperienceHandler: KindHandler<DeviceExperienceProperties> = experienceHandler(
  deviceExperienceSpec,
  DEVICE,
  (news) => checkExperience(deviceExperienceSpec, DEVICE, news),
);
