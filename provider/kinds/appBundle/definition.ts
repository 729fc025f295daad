/** The AppBundle kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework";
import { appBundleDrift } from "./drift";
import { appBundleSection } from "./export";
import { appBundleHandler } from "./handler";
import { appBundleIdentity } from "./properties";

export const appBundleKind = defineKind({
  ...appBundleIdentity,
  docs: {
    declares: "a build plus data files (`.obb` and others), finalized for a channel",
    guide: "releases",
    inputs: {
      inputs:
        "`appId`, `versionId` (a build of that app), `files` (`{ source, path, filename? }` each; `.obb` allowed), `label` (optional; null = none)",
      inPlace: "label",
      replaces: "`versionId`, files (by folder, name and SHA-512), `appId`",
      outputsAdded: "`status`, `createdAt`, `updatedAt`",
    },
    adoption: {
      adoptId: "the object's id",
      others:
        "only a bundle of the declared build and files; a pending one an interrupted run left is resumed without it",
    },
  },
  outputs: ["status", "createdAt", "updatedAt"],
  handler: appBundleHandler,
  logsOnResource: true,
  drift: appBundleDrift,
  export: appBundleSection,
});
