/** What the package exports of the ReleaseChannelVersion kind: the resource and its rollout gate's error. */
export { ReleaseChannelVersion, type ReleaseChannelVersionArgs } from "./resource";
export { RolloutGateError, type RolloutCount } from "./rolloutGate";
