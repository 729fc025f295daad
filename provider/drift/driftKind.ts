/**
 * The drift report's per-kind entries (see kinds.ts for the table; their shapes are framework/facets.ts's, for
 * the report's live organization) and what entries share: how values are put in comparable form, and group
 * paths for labels.
 */
import type { Group } from "../client";
import type {
  DriftFacet as FacetFor,
  DriftKind as DriftKindFor,
  IdReference,
  NameSource,
} from "../framework";
import type { LiveOrganization } from "./live";

export type { AttachedItem, IdReference, LiveObject, NameSource } from "../framework";

/** A kind's drift facet as the report reads it: for the report's live organization. */
export type DriftFacet = FacetFor<LiveOrganization>;
/** A kind as the report uses it (drift/kinds.ts builds one per kind of the table). */
export type DriftKind = DriftKindFor<LiveOrganization>;

/**
 * A state value as text, for keys and labels: what String() gives for a scalar, JSON for an object or list
 * (String() of an object with its own "toString" or "valueOf" key throws).
 */
export const str = (value: unknown): string =>
  value !== null && typeof value === "object" ? JSON.stringify(value) : String(value);
export const text = (value: unknown) => (typeof value === "string" ? value : (value ?? null));
export const lower = (value: unknown) => (typeof value === "string" ? value.toLowerCase() : (value ?? null));
export const flag = (value: unknown) => value === true;
/** "Acme Training > EMEA > Berlin Lab", from the group list. */
export function groupPaths(groups: Group[]): Map<string, string> {
  const byId = new Map(groups.map((g) => [g.id, g]));
  const paths = new Map<string, string>();
  const pathOf = (group: Group, seen: Set<string>): string => {
    const known = paths.get(group.id);
    if (known !== undefined) return known;
    const parent = group.parent ? byId.get(group.parent.id) : undefined;
    const result =
      parent && !seen.has(parent.id) ? `${pathOf(parent, seen.add(group.id))} > ${group.name}` : group.name;
    paths.set(group.id, result);
    return result;
  };
  for (const group of groups) pathOf(group, new Set());
  return paths;
}

/** Where the ids under one key come from: a list, or (for `{ type, id }` content) a list chosen by the object. */
export type KeySource = NameSource | ((object: Record<string, unknown>) => NameSource | undefined);

/**
 * The ids a compared value holds under these keys, at any depth (a field's own name is the key of its top-level
 * value), each with the list that names it: what `references` of a facet answers.
 */
export function referencesUnder(
  field: string,
  value: unknown,
  sources: Record<string, KeySource>,
): IdReference[] {
  const found: IdReference[] = [];
  const walk = (key: string, v: unknown, object: Record<string, unknown> | undefined) => {
    if (typeof v === "string") {
      // Own keys only: a state's value may have a key such as "constructor".
      const source = Object.hasOwn(sources, key) ? sources[key] : undefined;
      const from = typeof source === "function" ? object && source(object) : source;
      if (from) found.push({ id: v, from });
    } else if (Array.isArray(v)) {
      for (const item of v) walk(key, item, object);
    } else if (v !== null && typeof v === "object") {
      for (const [k, item] of Object.entries(v)) walk(k, item, v as Record<string, unknown>);
    }
  };
  walk(field, value, undefined);
  return found;
}
