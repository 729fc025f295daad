/** The generated program's headset experiences (experience/export.ts). */
import { experienceSection } from "../experience/export";

export const headsetExperienceSection = experienceSection("headset");
