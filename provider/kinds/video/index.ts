/** What the package exports of the Video kind: the resource and its lookup. */
export { Video, type VideoArgs } from "./resource";
export { getVideo, getVideoOutput, type GetVideoArgs, type VideoResult } from "./lookups";
