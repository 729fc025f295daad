/**
 * The kind table: every resource kind of the provider, in one place. The runtime's handlers, the type tokens,
 * the names users see, the exporter's kinds and delete-before-replace all come from here and from each kind's
 * definition (see `framework/kind.ts` and the recipe in docs/architecture.md). Its entries (`table.ts`) and the
 * keys (`kindKeys.ts`) are written by `npm run kinds` from the kinds' folders; this file checks them.
 *
 * Never remove or rename a key: state written by older versions names it (serialized providers call the
 * runtime's `handler("<key>")`).
 */
import type { ResourceKind } from "../kindKeys";
import type { KindDefinition } from "../framework";
import { DEFINITIONS } from "./table";

export const KINDS = kindTable(DEFINITIONS);

/**
 * The table has exactly the keys of `ResourceKind` (kindKeys.ts), each entry filed under its own key: a missing
 * key, a key not declared there, or a definition filed under another kind's key is a compile error.
 */
function kindTable<
  T extends { [K in ResourceKind]: KindDefinition<K> } & {
    [K in keyof T]: K extends ResourceKind ? KindDefinition<K> : never;
  },
>(table: T): T {
  return table;
}

/** The names users see, which are also the last part of each type token. */
export type KindType = (typeof KINDS)[ResourceKind]["type"];

export function kindType(kind: ResourceKind): KindType {
  return KINDS[kind].type;
}
