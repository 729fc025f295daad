/**
 * What the drift report knows of each resource kind, from the kind table: each definition's drift facet (how to
 * read the kind's live objects, which object a resource of the state stands for, which audit records concern
 * it) and the fields its properties map from the API. A kind cannot be in the table without a facet.
 */
import type { ResourceKind } from "../kindKeys";
import { KINDS } from "../kinds";
import { canonical, comparedOf, type KindDefinition } from "../framework";
import type { DriftFacet, DriftKind } from "./driftKind";

export { groupPaths, type AttachedItem, type DriftKind, type LiveObject } from "./driftKind";

/** The outputs a facet compares beside its properties, each as a value with absent and null alike. */
const outputsCompared = (outputs: readonly string[] = []) =>
  Object.fromEntries(
    outputs.map((output) => [
      output,
      (a: unknown, b: unknown) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b)),
    ]),
  );

/**
 * The drift report's view of these kinds: the definition's drift facet, its key as the noun, the kind whose
 * objects its resources are (`relation`), and as compared fields the properties the API shows, each with the
 * property's own equality (`comparedOf`). The definition holds the facet without naming the report's live
 * organization (framework/facets.ts); each kind's drift.ts types it as driftKind.ts's `DriftFacet`, for
 * `LiveOrganization`, and here the report takes it back as such.
 */
export function driftKindsOf(definitions: readonly KindDefinition[]): Record<ResourceKind, DriftKind> {
  return Object.fromEntries(
    definitions.map((definition): [string, DriftKind] => [
      definition.kind,
      {
        ...(definition.drift as DriftFacet),
        noun: definition.kind,
        ...(definition.relation ? { objectsOf: definition.relation.objectsOf } : {}),
        compared: {
          ...comparedOf(definition.properties),
          ...outputsCompared(definition.drift.comparedOutputs),
        },
      },
    ]),
  ) as Record<ResourceKind, DriftKind>;
}

/** Every kind of the kind table: users first, then the table's order (the report leads with people). */
export const DRIFT_KINDS = driftKindsOf([
  KINDS.user,
  ...Object.values(KINDS).filter((definition) => definition.kind !== "user"),
]);

/**
 * A value for the report as JSON text (a string as itself): a secret of the state is never shown, and an object's
 * keys are in one order, so that the state's value and the live one read side by side.
 */
export function shown(value: unknown): string {
  const walk = (v: unknown): unknown => {
    if (v !== null && typeof v === "object" && (v as { secret?: unknown }).secret === true) return "[secret]";
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") {
      return Object.fromEntries(
        Object.entries(v)
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(([k, x]) => [k, walk(x)]),
      );
    }
    return v;
  };
  const result = walk(value);
  // An output the state lacks (a file no program wrote) shows as null, as it is compared.
  return typeof result === "string" ? result : (JSON.stringify(result) ?? "null");
}
