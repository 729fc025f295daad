/** The HeadsetExperience kind's handler: the experiences' shared one (experience/handler.ts) on its own calls. */
import type { KindHandler } from "../../framework";
import { HEADSET_FIELDS } from "../experience/fields";
import { checkExperience, experienceHandler, type ExperienceSpec } from "../experience/handler";
import {
  HEADSET_FIELD_NAMES,
  type HeadsetExperienceProperties,
  headsetExperienceIdentity,
} from "./properties";

const DEFAULT_META_HMS = { isStoreEnabled: true, isSocialEnabled: true, isAddAccountsEnabled: true };

const headsetExperienceSpec = {
  resourceName: "HeadsetExperience",
  noun: "headset experience",
  table: HEADSET_FIELDS,
  fields: HEADSET_FIELD_NAMES,
  calls: (client) => ({
    get: (holder) => client.headsetExperiences.get(holder),
    set: (holder, path, body) => client.headsetExperiences.set(holder, path, body),
  }),
  // Groups (and Meta HMS devices) must send metaHmsSettings: what was recorded, else the store's defaults.
  resetBody: (recorded) => ({ metaHmsSettings: recorded.metaHmsSettings ?? DEFAULT_META_HMS }),
} satisfies ExperienceSpec<keyof typeof HEADSET_FIELDS>;

export const headsetExperienceHandler: KindHandler<HeadsetExperienceProperties> = experienceHandler(
  headsetExperienceSpec,
  headsetExperienceIdentity,
  (news) => checkExperience(headsetExperienceSpec, headsetExperienceIdentity, news),
);
