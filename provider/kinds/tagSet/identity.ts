/**
 * Who the TagSet kind is: its key, type token, properties, natural key and claim, declared once for the
 * definition, the handler and the kind's other files.
 */
import { defineIdentity, byProperties } from "../../framework";
import { tagSetProperties } from "./properties";

export const tagSetIdentity = defineIdentity({
  kind: "tagSet",
  type: "TagSet",
  naturalKey: true,
  properties: tagSetProperties,
  claim: {
    property: "ownerId",
    keys: byProperties(["ownerType", "ownerId"]),
    describe: (p) => `the tag set of ${String(p.ownerType)} ${String(p.ownerId)}`,
  },
});
