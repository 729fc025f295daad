/** The TagSet kind: one line of the kind table (kinds/index.ts) points here. */
import { defineKind } from "../../framework";
import { tagSetDrift } from "./drift";
import { tagSetSection } from "./export";
import { tagSetHandler } from "./handler";
import { tagSetIdentity } from "./properties";

export const tagSetKind = defineKind({
  ...tagSetIdentity,
  docs: {
    declares: "the whole tag set of a group, app, file or video",
    guide: "devices",
    inputs: {
      inputs: "`ownerType` (`group`, `app`, `file`, `video`), `ownerId`, `tags` (the whole set)",
      inPlace: "tags (attach/detach of the difference only)",
      replaces: "owner",
      outputsAdded: "`addedTagIds`",
    },
    adoption: {
      adoptId: "—",
      others:
        "makes the owner's tags the declared set (a group's, which the API cannot show, are only added to)",
    },
  },
  outputs: ["createdInRun", "addedTagIds"],
  handler: tagSetHandler,
  drift: tagSetDrift,
  export: tagSetSection,
});
