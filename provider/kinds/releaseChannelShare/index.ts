/** What the package exports of the ReleaseChannelShare kind: the resource. */
export { ReleaseChannelShare, type ReleaseChannelShareArgs } from "./resource";
