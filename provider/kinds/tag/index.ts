/** What the package exports of the Tag kind: the resource and its lookup. */
export { Tag, type TagArgs } from "./resource";
export { getTag, getTagOutput, type GetTagArgs, type TagResult } from "./lookups";
