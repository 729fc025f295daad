/**
 * The shape of the drift report's per-kind entries (see kinds.ts for the table) and what entries share: how
 * values are put in comparable form, and group paths for labels.
 */
import type { AuditRecord, Group, ImageType } from "../client";
import type { LiveOrganization } from "./live";
import type { ManagedResource } from "./managed";

/** An object of the organization, as the report compares and names it. */
export interface LiveObject {
  /** What a managed resource's `key` must equal to stand for this object. */
  key: string;
  /** How a person finds it in the portal. */
  label: string;
  /**
   * Compared with the state's outputs of the same names: the kind's declared live → state mapping of the object
   * (`liveStateOf` in framework/properties.ts), never written again here.
   */
  fields: Record<string, unknown>;
  /** The ids audit records name when they are about this object. */
  auditIds: string[];
  /** For an attachment: the attached item, which audit records name or mention. */
  item?: AttachedItem;
  /** Holds the organization-wide role named Admin. */
  admin?: boolean;
  /** What the ignore file's patterns are matched against (e-mail, group path, …), besides the key. */
  names: string[];
}

/** What an attachment attaches: audit records name it by id, or mention it by name in their description. */
export interface AttachedItem {
  id: string;
  name?: string;
}

/**
 * The list the report names an id from, each read at most once per report: an organization-wide list, the images
 * of one type (the API lists images by type only), or the builds or bundles of one app (listed per app).
 */
export type NameSource =
  | {
      list:
        | "roles"
        | "groups"
        | "devices"
        | "releaseChannels"
        | "apps"
        | "files"
        | "videos"
        | "themes"
        | "custom3DEnvironments";
    }
  | { list: "images"; type: ImageType }
  | { list: "builds" | "bundles"; appId: string };

/** An id of the organization that a finding shows, and the list its name comes from. */
export interface IdReference {
  id: string;
  from: NameSource;
}

/**
 * What a kind's definition says of it for the drift report (`drift` in framework/kind.ts). The report adds the
 * rest from the definition (see `DriftKind`), so that nothing is said twice. `comparedOutputs` names outputs that
 * are no declared property but that the live object shows too (a channel's version name beside its id): compared
 * with the live field of the same name, absent and null alike.
 */
export type DriftFacet = Omit<DriftKind, "noun" | "compared"> & { comparedOutputs?: readonly string[] };

/** A kind as the drift report uses it: its facet, its key as the noun, its compared fields from its properties. */
export interface DriftKind {
  /** Heading in the report. */
  title: string;
  /** The kind's name in the ignore file and in the JSON output: its key in the kind table. */
  noun: string;
  /**
   * The kind's live objects (the owners a stack names are read too, so that what they lost shows). Absent for a
   * kind whose resource is an action rather than an object the organization lists.
   */
  read?: (org: LiveOrganization, managed: ManagedResource[]) => Promise<LiveObject[]>;
  /** Why the kind's resources are not compared, when `read` is absent (the report lists them with it). */
  notCompared?: string;
  /** The key of the live object a resource stands for, or undefined when it stands for none yet. */
  key: (resource: ManagedResource) => string | undefined;
  /**
   * Outputs compared with the live fields of the same names, each with its equality: the kind's properties that
   * the API shows (`fromLive`), with their own `equal` (`comparedOf` in framework/properties.ts).
   */
  compared: Record<string, (recorded: unknown, live: unknown) => boolean>;
  /** A property the program left out is not managed, so it is compared only where the inputs declare it. */
  declaredOnly?: boolean;
  /**
   * False for objects that exist whether or not anyone declares them (devices are enrolled on the headset,
   * not created): one no stack manages is not reported.
   */
  reportsUnmanaged?: boolean;
  /** A gone object's label, from the state alone. */
  stateLabel: (resource: ManagedResource) => string;
  /** Narrows the audit records naming one of `auditIds` to those about this object. */
  concerns?: (record: AuditRecord, item: AttachedItem | undefined) => boolean;
  /** The attached item a resource of an attachment kind names (its name is filled in by the report). */
  itemOf?: (resource: ManagedResource) => AttachedItem;
  /** Names of attached items by id, for a gone attachment whose state knows its item by id only. */
  itemNames?: (org: LiveOrganization) => Promise<Map<string, string>>;
  /**
   * Why this one resource cannot be compared, where the kind's others can (a group's tag set: the API does not
   * show a group's tags); such a resource is listed under "not compared" with the reason.
   */
  uncompared?: (resource: ManagedResource) => string | undefined;
  /**
   * The ids a compared field's value (as the state records it, or live) holds, each with the list that names it
   * (the report reads only the lists its findings need).
   */
  references?: (field: string, value: unknown, resource: ManagedResource) => IdReference[];
  /** The ids a gone object's label (`stateLabel`) holds, each with the list that names it. */
  labelReferences?: (resource: ManagedResource) => IdReference[];
}

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
