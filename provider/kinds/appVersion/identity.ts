/**
 * Who the AppVersion kind is: its key, type token, properties, natural key and claim, declared once for the
 * definition, the handler and the kind's other files.
 */
import { defineIdentity, byProperties } from "../../framework";
import { appVersionProperties } from "./properties";

export const appVersionIdentity = defineIdentity({
  kind: "appVersion",
  type: "AppVersion",
  // Builds of one hash are taken over, not made twice; nothing is deleted, so no delete-first replacement.
  naturalKey: false,
  properties: appVersionProperties,
  // A build of an app by its content: one resource per build (another would take over the same one).
  claim: {
    property: "sha256",
    keys: byProperties(["appId", "sha256"]),
    describe: (p) => `the build of app ${String(p.appId)} with SHA-256 ${String(p.sha256)}`,
  },
});
