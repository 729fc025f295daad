/**
 * Who the Tag kind is: its key, type token, properties, natural key and claim, declared once for the
 * definition, the handler and the kind's other files.
 */
import { defineIdentity, knownText } from "../../framework";
import { tagProperties } from "./properties";

export const tagIdentity = defineIdentity({
  kind: "tag",
  type: "Tag",
  naturalKey: false,
  properties: tagProperties,
  // Tag names compare without case (the API's rule).
  claim: {
    property: "name",
    keys: (p) =>
      knownText(p.name) === undefined ? undefined : [(knownText(p.name) as string).toLowerCase()],
    describe: (p) => `the tag "${String(p.name)}" (tag names compare without case)`,
  },
});
