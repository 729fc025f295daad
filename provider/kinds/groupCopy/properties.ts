/**
 * The GroupCopy kind's properties, declared once (framework/properties.ts): the group copied, the copy's name,
 * and what the API shows of the copy; then who the kind is (its identity). Everything else of the kind reads
 * them from here.
 */
import type { Group as ApiGroup } from "../../client";
import {
  byProperties,
  carried,
  defineIdentity,
  requiredText,
  uuid,
  type PropertySpecs,
  type StateOf,
} from "../../framework";

export const groupCopyProperties = {
  sourceGroupId: {
    description:
      "The id of the configured group to copy. The API does not show a copy's origin, so changing it replaces the copy.",
    schema: uuid("sourceGroupId"),
    change: "replace",
  },
  name: {
    description: "The copy's name (1 to 255 characters). Renaming updates in place.",
    schema: requiredText("name", 255),
    change: "update",
    fromLive: (live: ApiGroup) => live.name,
  },
  ...carried,
} satisfies PropertySpecs<ApiGroup>;

export type GroupCopyProperties = typeof groupCopyProperties;
export type GroupCopyState = StateOf<GroupCopyProperties>;

/**
 * Who the GroupCopy kind is: its key, type token, properties, natural key and claim, declared once for the
 * definition, the handler and the kind's other files.
 */
export const groupCopyIdentity = defineIdentity({
  kind: "groupCopy",
  type: "GroupCopy",
  naturalKey: false,
  properties: groupCopyProperties,
  // A copy is named by its source and its name: two resources declaring the same copy are refused, and a killed
  // run's create is noted under that key, so the next create takes over the copy it made (handler.ts) instead of
  // copying again. Where the copy lands is the API's choice, so the key does not name a place.
  claim: {
    property: "name",
    keys: byProperties(["sourceGroupId", "name"]),
    describe: (p) => `the copy "${String(p.name)}" of group ${String(p.sourceGroupId)}`,
  },
});
