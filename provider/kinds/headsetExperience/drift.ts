/** What the drift report reads of headset experiences (experience/drift.ts): one GET per managed owner. */
import { experienceDrift } from "../experience/drift";
import { headsetExperienceProperties } from "./properties";

export const headsetExperienceDrift = experienceDrift("headset", headsetExperienceProperties);
