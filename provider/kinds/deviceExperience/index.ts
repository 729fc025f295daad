/** What the package exports of the DeviceExperience kind: the resource and its arguments (experience/args.ts). */
export { DeviceExperience } from "./resource";
export type { DeviceExperienceArgs } from "../experience/args";
