/** What the drift report reads of themes: the organization's own (system themes are nobody's to manage). */
import { str, type DriftFacet } from "../../drift/driftKind";
import { liveStateOf } from "../../framework";
import { themeProperties } from "./properties";

export const themeDrift: DriftFacet = {
  title: "Themes",
  key: (r) => r.id,
  stateLabel: (r) => `"${str(r.outputs.name ?? r.id)}"`,
  read: async (org) =>
    (await org.themes())
      .filter((t) => !t.isSystemOwned)
      .map((t) => ({
        key: t.id,
        label: `"${t.name}"`,
        fields: liveStateOf(themeProperties, t),
        auditIds: [t.id],
        names: [t.name],
      })),
};
