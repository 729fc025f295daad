/** What the package exports of the HeadsetExperience kind: the resource and its arguments (experience/args.ts). */
export { HeadsetExperience } from "./resource";
export type { HeadsetExperienceArgs } from "../experience/args";
