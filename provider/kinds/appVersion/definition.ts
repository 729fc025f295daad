/** The AppVersion kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework";
import { appVersionDrift } from "./drift";
import { appVersionSection } from "./export";
import { appVersionHandler } from "./handler";
import { appVersionIdentity } from "./properties";

export const appVersionKind = defineKind({
  ...appVersionIdentity,
  docs: {
    declares: "an app build (`.apk`) uploaded from the repository",
    guide: "releases",
    inputs: {
      inputs:
        "`appId`, `source` (a local `.apk`), `versionName`, `releaseNotes` (optional), `sha256` (optional pin)",
      inPlace: "`releaseNotes` (nothing is sent: a warning says the build keeps its own)",
      replaces: "content (`sha256`), `appId`, `versionName` (the old build is forgotten)",
      outputsAdded: "`sha256`, `code`, `sizeBytes`, `status`, `createdAt`",
    },
    adoption: {
      adoptId: "the object's id",
      others: "takes over a build of the app with the same SHA-256 (and version name), with a message",
    },
  },
  outputs: ["code", "sizeBytes", "status", "createdAt"],
  handler: appVersionHandler,
  logsOnResource: true,
  drift: appVersionDrift,
  export: appVersionSection,
});
