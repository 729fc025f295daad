/**
 * Who the DeviceExperience kind is: its key, type token, properties, natural key and claim, declared once for the
 * definition, the handler and the kind's other files.
 */
import { defineIdentity } from "../../framework";
import { experienceClaim } from "../experience/claim";
import { deviceExperienceProperties } from "./properties";

export const deviceExperienceIdentity = defineIdentity({
  kind: "deviceExperience",
  type: "DeviceExperience",
  naturalKey: false,
  properties: deviceExperienceProperties,
  claim: experienceClaim("device experience"),
});
