/**
 * Who the HeadsetExperience kind is: its key, type token, properties, natural key and claim, declared once for the
 * definition, the handler and the kind's other files.
 */
import { defineIdentity } from "../../framework";
import { experienceClaim } from "../experience/claim";
import { headsetExperienceProperties } from "./properties";

export const headsetExperienceIdentity = defineIdentity({
  kind: "headsetExperience",
  type: "HeadsetExperience",
  naturalKey: false,
  properties: headsetExperienceProperties,
  claim: experienceClaim("headset experience"),
});
