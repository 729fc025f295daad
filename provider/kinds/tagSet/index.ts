/** What the package exports of the TagSet kind: the resource. */
export { TagSet, type TagSetArgs } from "./resource";
