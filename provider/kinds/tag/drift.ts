/** What the drift report reads of tags: the whole catalogue, each labelled by its name; fields by the declared mapping. */
import { str, type DriftFacet } from "../../drift/driftKind";
import { liveStateOf } from "../../framework";
import { tagProperties } from "./properties";

export const tagDrift: DriftFacet = {
  title: "Tags",
  key: (r) => r.id,
  stateLabel: (r) => `tag "${str(r.outputs.name ?? r.id)}"`,
  read: async (org) =>
    (await org.tags()).map((t) => ({
      key: t.id,
      label: `"${t.name}"`,
      fields: liveStateOf(tagProperties, t),
      auditIds: [t.id],
      names: [t.name],
    })),
};
