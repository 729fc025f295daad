/** The claim of both experience kinds: one experience per group or device, named by whichever it is set on. */
import { knownText, type ClaimSpec, type Props } from "../../framework";

function experienceKeys(p: Props): string[] | undefined {
  if (p.groupId !== undefined)
    return knownText(p.groupId) === undefined ? undefined : [`group:${knownText(p.groupId)}`];
  if (p.deviceId !== undefined)
    return knownText(p.deviceId) === undefined ? undefined : [`device:${knownText(p.deviceId)}`];
  return undefined;
}

const experienceHolder = (p: Props) =>
  p.groupId !== undefined ? `group ${String(p.groupId)}` : `device ${String(p.deviceId)}`;

/** `noun`: "headset experience", "device experience". */
export const experienceClaim = (noun: string): ClaimSpec => ({
  property: (p) => (p.groupId !== undefined ? "groupId" : "deviceId"),
  keys: experienceKeys,
  describe: (p) => `the ${noun} of ${experienceHolder(p)}`,
});
