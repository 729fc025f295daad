/**
 * Who the Theme kind is: its key, type token, properties, natural key and claim, declared once for the
 * definition, the handler and the kind's other files.
 */
import { defineIdentity, knownText } from "../../framework";
import { themeProperties } from "./properties";

export const themeIdentity = defineIdentity({
  kind: "theme",
  type: "Theme",
  naturalKey: false,
  properties: themeProperties,
  // Custom theme names compare exactly, as the create compares them.
  claim: {
    property: "name",
    keys: (p) => (knownText(p.name) === undefined ? undefined : [knownText(p.name) as string]),
    describe: (p) => `the custom theme "${String(p.name)}"`,
  },
});
