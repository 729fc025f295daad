/** The DeviceExperience kind's handler: the experiences' shared one (experience/handler.ts) on its own calls. */
import type { KindHandler } from "../../framework";
import { DEVICE_FIELDS } from "../experience/fields";
import { checkExperience, experienceHandler, type ExperienceSpec } from "../experience/handler";
import { DEVICE_FIELD_NAMES, type DeviceExperienceProperties, deviceExperienceIdentity } from "./properties";

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
  deviceExperienceIdentity,
  (news) => checkExperience(deviceExperienceSpec, deviceExperienceIdentity, news),
);
