/** The generated program's device experiences (experience/export.ts). */
import { experienceSection } from "../experience/export";

export const deviceExperienceSection = experienceSection("device");
