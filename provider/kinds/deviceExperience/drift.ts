/** What the drift report reads of device experiences (experience/drift.ts): one GET per managed owner. */
import { experienceDrift } from "../experience/drift";
import { deviceExperienceProperties } from "./properties";

export const deviceExperienceDrift = experienceDrift("device", deviceExperienceProperties);
