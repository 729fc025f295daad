/**
 * What the drift report knows of each resource kind: how to read the kind's live objects, which object a
 * resource of the state stands for, which of its outputs to compare, and which audit records concern it. One
 * entry per kind of the provider, so a kind added to the provider's table is a compile error here until it has
 * an entry.
 */
import type { ResourceKind } from "../kindKeys";
import { KINDS } from "../kinds";
import { canonical, comparedOf } from "../framework/properties";
import { contentKinds } from "./contentKinds";
import { groupPaths, str, text, type DriftKind, type LegacyDriftKind } from "./driftKind";

export { groupPaths, type AttachedItem, type DriftKind, type LiveObject } from "./driftKind";

const LEGACY_DRIFT_KINDS: Partial<Record<ResourceKind, LegacyDriftKind>> = {
  deviceMigration: {
    title: "Device migrations",
    noun: "deviceMigration",
    notCompared: "a migration is something done to a device, not an object of this organization",
    key: () => undefined,
    compared: {},
    stateLabel: (r) => `device ${str(r.outputs.deviceId ?? r.id)}`,
  },
  device: {
    title: "Devices",
    noun: "device",
    key: (r) => r.id,
    compared: {
      name: text,
      groupId: text,
      tags: (value) => (Array.isArray(value) ? value.map((t) => str(t).toLowerCase()).sort() : []),
      customFields: (value) =>
        value !== null && typeof value === "object"
          ? Object.entries(value).sort(([a], [b]) => a.localeCompare(b))
          : [],
    },
    declaredOnly: true,
    reportsUnmanaged: false,
    stateLabel: (r) => `device ${str(r.outputs.name ?? "")} (${str(r.outputs.serialNumber ?? r.id)})`,
    read: async (org) => {
      const [devices, groups] = await Promise.all([org.devices(), org.groups()]);
      const paths = groupPaths(groups);
      return devices.map((d) => ({
        key: d.id,
        label: `"${d.name}" (${d.serialNumber})${d.group ? ` in "${paths.get(d.group.id) ?? d.group.name}"` : ", ungrouped"}`,
        fields: {
          name: d.name,
          groupId: d.group?.id ?? null,
          tags: d.tags,
          customFields: Object.fromEntries(d.customFields.map((f) => [f.name, f.value])),
        },
        auditIds: [d.id],
        names: [d.name, d.serialNumber],
      }));
    },
  },
  ...contentKinds,
};

/** The outputs a facet compares beside its properties, each as a value with absent and null alike. */
const outputsCompared = (outputs: readonly string[] = []) =>
  Object.fromEntries(
    outputs.map((output) => [
      output,
      (a: unknown, b: unknown) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b)),
    ]),
  );

/**
 * The drift report's view of every kind, from the kind table: the definition's drift facet, its key as the noun,
 * and as compared fields the properties the API shows, each with the property's own equality (`comparedOf`).
 */
export const DRIFT_KINDS = Object.fromEntries(
  // Users first, then the kind table's order: the report leads with people (an unmanaged Admin first of all).
  [KINDS.user, ...Object.values(KINDS).filter((definition) => definition.kind !== "user")].map(
    (definition): [ResourceKind, DriftKind] => {
      const facet = definition.drift;
      if (facet)
        return [
          definition.kind,
          {
            ...facet,
            noun: definition.kind,
            compared: { ...comparedOf(definition.properties), ...outputsCompared(facet.comparedOutputs) },
          },
        ];
      const legacy = LEGACY_DRIFT_KINDS[definition.kind]!;
      const compared = Object.fromEntries(
        Object.entries(legacy.compared).map(([field, comparable]) => [
          field,
          (a: unknown, b: unknown) => JSON.stringify(comparable(a)) === JSON.stringify(comparable(b)),
        ]),
      );
      return [definition.kind, { ...legacy, compared }];
    },
  ),
) as Record<ResourceKind, DriftKind>;

/** A value for the report: a secret of the state is never shown, ids are named where the organization names them. */
export function shown(value: unknown, names: Map<string, string>): string {
  const walk = (v: unknown): unknown => {
    if (v !== null && typeof v === "object" && (v as { secret?: unknown }).secret === true) return "[secret]";
    if (typeof v === "string" && names.has(v)) return `${names.get(v)} (${v})`;
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    }
    return v;
  };
  const result = walk(value);
  // An output the state lacks (a file no program wrote) shows as null, as it is compared.
  return typeof result === "string" ? result : (JSON.stringify(result) ?? "null");
}
