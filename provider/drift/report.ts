/**
 * The drift report: the organization against the union of the given stacks' states, kind by kind.
 * - unmanaged: an object of the organization that no stack manages (and no ignore rule names);
 * - claimed: an object that more than one resource declares (of two stacks, or two of one stack): the API
 *   keeps no owner, so each `up` makes it its own and a `destroy` of either deletes it from under the other;
 * - changed: a managed object whose live fields differ from the state's outputs, field by field;
 * - gone: an object a state names that the organization no longer has;
 * each with the audit records about it within the window, newest first.
 */
import type { AuditRecord } from "../client";
import type { ResourceKind } from "../kindKeys";
import { rulesMatching, unusedRules, type IgnoreRule } from "./ignore";
import type { IdReference } from "./driftKind";
import { DRIFT_KINDS, shown, type AttachedItem, type DriftKind, type LiveObject } from "./kinds";
import type { LiveOrganization } from "./live";
import { namesOf, rename } from "./names";
import type { ManagedResource, StackState } from "./state";

export type FindingCategory = "unmanaged" | "claimed" | "changed" | "gone";

export interface AuditView {
  at: string;
  who: string;
  action: string;
  what: string;
}

export interface FieldDifference {
  field: string;
  /** As the state records it (a secret shows as "[secret]"). */
  state: string;
  live: string;
}

export interface Finding {
  category: FindingCategory;
  kind: string;
  label: string;
  /** An organization-wide Admin (users only). */
  admin: boolean;
  /** The resources that manage it, as "<project>/<stack>: <name>" (none for an unmanaged object). */
  managedBy: string[];
  differences: FieldDifference[];
  audit: AuditView[];
}

export interface DriftReport {
  organization: { id: string; name: string; slug: string };
  generatedAt: string;
  /** Audit records are those created at or after this time. */
  auditSince: string;
  stacks: Array<{ stack: string; file: string; resources: number }>;
  /** Kinds compared, by their report name. */
  kinds: string[];
  findings: Finding[];
  ignored: Array<{ kind: string; label: string; reason: string }>;
  /** Ignore rules of compared kinds that matched nothing (see `unusedRules`): a warning, not a finding. */
  unusedIgnoreRules: Array<{ source: string; kind: string; pattern: string }>;
  /** Resources of this provider whose kind the report could not tell (never guessed). */
  unknownResources: string[];
  /** Resources of this provider whose values could not be read (not compared), by file and URN, with why. */
  unreadableResources: Array<{ file: string; urn: string; reason: string }>;
  /** Kinds the states hold that the report does not compare, with how many resources and why. */
  notCompared: Array<{ kind: string; resources: number; reason: string }>;
}

export interface DriftOptions {
  kinds: ResourceKind[];
  /**
   * What the report knows of each kind: the kind table's (`DRIFT_KINDS`) unless given (a test of a kind the
   * provider does not have yet gives a table with it: `driftKindsOf`).
   */
  driftKinds?: Record<ResourceKind, DriftKind>;
  ignore: readonly IgnoreRule[];
  /** ISO time: audit records before it are not read. */
  auditSince: string;
  now?: () => Date;
}

const resourceLabel = (r: ManagedResource) => `${r.stack}: ${r.name}`;

export async function driftReport(
  org: LiveOrganization,
  states: StackState[],
  options: DriftOptions,
): Promise<DriftReport> {
  const [organization, caller] = await Promise.all([org.organization(), org.caller()]);
  const driftKinds = options.driftKinds ?? DRIFT_KINDS;
  const findings: Array<
    Finding & {
      auditIds: string[];
      /** The ids its label (when gone) and differences show, with the lists that name them. */
      references: IdReference[];
      item?: AttachedItem;
      itemNames?: DriftKind["itemNames"];
      concerns?: (r: AuditRecord, item?: AttachedItem) => boolean;
    }
  > = [];
  const ignored: DriftReport["ignored"] = [];
  const usedRules = new Set<IgnoreRule>();
  const all = states.flatMap((s) => s.resources);

  // Every kind's live objects, read once each (the kinds read concurrently; the client paces them).
  const uncompared = (r: ManagedResource) => driftKinds[r.kind].uncompared?.(r);
  // A resource of a kind whose objects are another kind's (a copy of a group: `relation`) stands for an object
  // of that kind: it is matched and compared with that kind's live objects.
  const standsFor = (r: ManagedResource) => driftKinds[r.kind].objectsOf ?? r.kind;
  const liveByKind = await Promise.all(
    options.kinds.map(async (kind) => {
      const managed = all.filter((r) => standsFor(r) === kind && uncompared(r) === undefined);
      const read = driftKinds[kind].read;
      return { kind, managed, live: read ? await read(org, managed) : undefined };
    }),
  );

  for (const { kind, managed, live } of liveByKind) {
    const definition = driftKinds[kind];
    if (!live) continue;
    const liveByKey = new Map<string, LiveObject>(live.map((o) => [o.key, o]));
    const managedByKey = new Map<string, ManagedResource[]>();
    for (const resource of managed) {
      const key = definition.key(resource);
      if (key !== undefined) managedByKey.set(key, [...(managedByKey.get(key) ?? []), resource]);
    }
    const concerns = definition.concerns;
    for (const object of live) {
      const resources = managedByKey.get(object.key);
      if (resources) {
        // Several exports of one stack name the same resource (the same URN): that is one claim. Listed by
        // stack and name, not in the order a state happens to hold them.
        const claimants = [...new Map(resources.map((r) => [r.urn, r])).values()].sort((a, b) =>
          resourceLabel(a).localeCompare(resourceLabel(b)),
        );
        if (claimants.length > 1) {
          findings.push(finding("claimed", definition.noun, object, claimants, [], concerns));
        }
        const compared = resources.map((resource) => differencesOf(definition, resource, object));
        const differences = compared.flatMap((c) => c.differences);
        if (differences.length) {
          findings.push({
            ...finding("changed", definition.noun, object, resources, differences, concerns),
            references: compared.flatMap((c) => c.references),
          });
        }
        continue;
      }
      if (definition.reportsUnmanaged === false) continue;
      if (kind === "user" && object.auditIds.includes(caller.id)) {
        ignored.push({ kind: definition.noun, label: object.label, reason: "the API token's own user" });
        continue;
      }
      const matching = rulesMatching(options.ignore, definition.noun, [object.key, ...object.names]);
      for (const used of matching) usedRules.add(used);
      const rule = matching[0];
      if (rule) {
        ignored.push({
          kind: definition.noun,
          label: object.label,
          reason: `${rule.source}: ${rule.pattern}`,
        });
        continue;
      }
      findings.push(finding("unmanaged", definition.noun, object, [], [], concerns));
    }
    for (const [key, resources] of managedByKey) {
      if (liveByKey.has(key)) continue;
      // An invitation not accepted yet has no user to find; that is not drift.
      if (resources.every((r) => r.outputs.pending === true)) continue;
      const ids = [...new Set(resources.flatMap((r) => [r.id, ...r.id.split("/")]))];
      const gone: LiveObject = {
        key,
        label: definition.stateLabel(resources[0]),
        fields: {},
        auditIds: ids,
        names: [],
        ...(definition.itemOf ? { item: definition.itemOf(resources[0]) } : {}),
      };
      findings.push({
        ...finding("gone", definition.noun, gone, resources, [], concerns),
        references: definition.labelReferences?.(resources[0]) ?? [],
        ...(definition.itemNames ? { itemNames: definition.itemNames } : {}),
      });
    }
  }

  // A gone attachment's state knows its item by id only; audit records may mention it by name.
  const goneItems = findings.filter((f) => f.category === "gone" && f.item && f.itemNames);
  const itemNames = new Map<string, string>();
  for (const f of goneItems) {
    const name = (await f.itemNames!(org)).get(f.item!.id);
    f.item = { ...f.item!, name };
    if (name !== undefined) itemNames.set(f.item.id.toLowerCase(), `"${name}"`);
  }
  if (findings.length) {
    const records = await org.auditSince(options.auditSince);
    const byResource = new Map<string, AuditRecord[]>();
    for (const record of records) {
      if (!record.resourceId) continue;
      byResource.set(record.resourceId, [...(byResource.get(record.resourceId) ?? []), record]);
    }
    for (const f of findings) {
      const seen = new Set<number>();
      const about = f.auditIds
        .flatMap((id) => byResource.get(id) ?? [])
        .filter((r) => !seen.has(r.id) && seen.add(r.id) && (!f.concerns || f.concerns(r, f.item)));
      f.audit = about
        .sort((a, b) => (a.createdAt === b.createdAt ? b.id - a.id : a.createdAt < b.createdAt ? 1 : -1))
        .map((r) => ({ at: r.createdAt, who: r.userEmail, action: r.action, what: r.description }));
    }
  }

  // Ids in differences and gone labels read better with the names the organization gives them; the
  // organization's fuller names (a channel with its app's) win over an item's own.
  const names = new Map([
    ...itemNames,
    ...(await namesOf(
      org,
      findings.flatMap((f) => f.references),
    )),
  ]);
  const order: FindingCategory[] = ["unmanaged", "claimed", "changed", "gone"];
  return {
    organization: { id: organization.id, name: organization.name, slug: organization.slug },
    generatedAt: (options.now?.() ?? new Date()).toISOString(),
    auditSince: options.auditSince,
    stacks: states.map((s) => ({ stack: s.stack, file: s.file, resources: s.resources.length })),
    kinds: options.kinds.map((k) => driftKinds[k].noun),
    findings: findings
      .map(
        ({
          auditIds: _ids,
          references: _references,
          concerns: _concerns,
          item: _item,
          itemNames: _names,
          ...f
        }) => ({
          ...f,
          // A gone object is known by the ids its state holds: name them where the organization still does.
          label: f.category === "gone" ? rename(f.label, names) : f.label,
          differences: f.differences.map((d) => ({
            ...d,
            state: rename(d.state, names),
            live: rename(d.live, names),
          })),
        }),
      )
      .sort(
        (a, b) =>
          order.indexOf(a.category) - order.indexOf(b.category) ||
          Number(b.admin) - Number(a.admin) ||
          a.kind.localeCompare(b.kind) ||
          a.label.localeCompare(b.label),
      ),
    ignored,
    unusedIgnoreRules: unusedRules(
      options.ignore,
      usedRules,
      options.kinds.map((k) => driftKinds[k].noun),
    ).map(({ source, kind, pattern }) => ({ source, kind, pattern })),
    unknownResources: states.flatMap((s) => s.unknown),
    unreadableResources: states.flatMap((s) => s.unreadable.map((u) => ({ file: s.file, ...u }))),
    notCompared: notComparedOf(all, driftKinds),
  };

  function finding(
    category: FindingCategory,
    kind: string,
    object: LiveObject,
    resources: ManagedResource[],
    differences: FieldDifference[],
    concerns: DriftKind["concerns"],
  ) {
    return {
      category,
      kind,
      label: object.label,
      admin: object.admin === true,
      managedBy: resources.map(resourceLabel),
      differences,
      audit: [] as AuditView[],
      auditIds: [...new Set([...object.auditIds, ...resources.flatMap((r) => [r.id])])],
      references: [] as IdReference[],
      ...(object.item ? { item: object.item } : {}),
      ...(concerns ? { concerns } : {}),
    };
  }
}

/** The resources not compared, by kind and reason: a whole kind's (`notCompared`), or one resource's (`uncompared`). */
function notComparedOf(
  all: ManagedResource[],
  driftKinds: Record<ResourceKind, DriftKind>,
): DriftReport["notCompared"] {
  const counts = new Map<string, { kind: string; resources: number; reason: string }>();
  for (const resource of all) {
    const definition = driftKinds[resource.kind];
    const reason = definition.notCompared ?? definition.uncompared?.(resource);
    if (reason === undefined) continue;
    const key = `${definition.noun}\n${reason}`;
    const entry = counts.get(key) ?? { kind: definition.noun, resources: 0, reason };
    entry.resources += 1;
    counts.set(key, entry);
  }
  return [...counts.values()];
}

/**
 * The outputs that differ from the live object, as JSON text (names are put in afterwards), and the ids both
 * values hold with the lists that name them.
 */
function differencesOf(
  definition: DriftKind,
  resource: ManagedResource,
  object: LiveObject,
): { differences: FieldDifference[]; references: IdReference[] } {
  const differences: FieldDifference[] = [];
  const references: IdReference[] = [];
  if (resource.outputs.pending === true) return { differences, references };
  // A resource of a related kind (a copy of a group) records what it knows of the object: only that is compared.
  const related = resource.kind !== definition.noun;
  for (const [field, same] of Object.entries(definition.compared)) {
    if (definition.declaredOnly && !resource.declared.includes(field)) continue;
    if (related && !(field in resource.outputs)) continue;
    // An absent output is compared as absent (a root group's parentId, a user without group roles).
    const recorded = resource.outputs[field];
    const secret = recorded !== null && typeof recorded === "object" && "secret" in recorded;
    // A secret of the state cannot be compared without decrypting it, which the report never does.
    if (secret) continue;
    const live = object.fields[field];
    if (!same(recorded, live)) {
      differences.push({ field, state: shown(recorded), live: shown(live) });
      for (const value of [recorded, live]) {
        references.push(...(definition.references?.(field, value, resource) ?? []));
      }
    }
  }
  return { differences, references };
}
