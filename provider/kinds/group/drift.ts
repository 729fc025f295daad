/** What the drift report reads of groups: every group, labelled by its path; fields by the declared mapping. */
import { groupPaths, referencesUnder, str, type DriftFacet } from "../../drift/driftKind";
import { liveStateOf } from "../../framework";
import { groupProperties } from "./properties";

export const groupDrift: DriftFacet = {
  title: "Groups",
  key: (r) => r.id,
  stateLabel: (r) => `"${str(r.outputs.name ?? r.id)}"`,
  references: (field, value) => referencesUnder(field, value, { parentId: { list: "groups" } }),
  read: async (org) => {
    const groups = await org.groups();
    const paths = groupPaths(groups);
    return groups.map((g) => ({
      key: g.id,
      label: `"${paths.get(g.id)}"${g.isConfigured ? " (configured)" : ""}`,
      fields: liveStateOf(groupProperties, g),
      auditIds: [g.id],
      names: [paths.get(g.id) ?? g.name, g.name],
    }));
  },
};
