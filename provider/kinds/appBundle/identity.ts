/**
 * Who the AppBundle kind is: its key, type token, properties, natural key and claim, declared once for the
 * definition, the handler and the kind's other files.
 */
import { defineIdentity, knownText, type Props } from "../../framework";
import { appBundleProperties } from "./properties";

export const appBundleIdentity = defineIdentity({
  kind: "appBundle",
  type: "AppBundle",
  // Any number of bundles of one build may exist: no natural key (a replacement makes the new one first).
  naturalKey: false,
  properties: appBundleProperties,
  // Any number of bundles of one build may exist (none refused); a killed create is resumed by its pending
  // bundle (handler.ts), and one whose wait for processing timed out by this key: the build and the files.
  claim: {
    property: "files",
    keys: (p) => {
      const files = Array.isArray(p.files) ? (p.files as Props[]) : undefined;
      const entries = files?.map((f) => [f.path, f.filename, f.sha512].map(knownText));
      if (
        knownText(p.versionId) === undefined ||
        entries === undefined ||
        entries.some((e) => e.includes(undefined))
      )
        return undefined;
      return [[knownText(p.versionId)?.toLowerCase(), ...entries.map((e) => e.join("/")).sort()].join("\n")];
    },
    describe: (p) => `the app bundle of build ${String(p.versionId)}`,
    refuses: false,
  },
});
