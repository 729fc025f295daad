/**
 * Who the App kind is: its key, type token, properties, natural key and claim, declared once for the
 * definition, the handler and the kind's other files.
 */
import { defineIdentity, knownText } from "../../framework";
import { appProperties } from "./properties";

export const appIdentity = defineIdentity({
  kind: "app",
  type: "App",
  naturalKey: false,
  properties: appProperties,
  // Apps as their create compares names: without case (handler.ts).
  claim: {
    property: "name",
    keys: (p) =>
      knownText(p.name) === undefined ? undefined : [(knownText(p.name) as string).trim().toLowerCase()],
    describe: (p) => `the app "${String(p.name)}" (app names compare without case)`,
  },
});
