/**
 * What the drift report knows of each resource kind: how to read the kind's live objects, which object a
 * resource of the state stands for, which of its outputs to compare, and which audit records concern it. One
 * entry per kind of the provider, so a kind added to the provider's table is a compile error here until it has
 * an entry.
 */
import type { ReleaseChannel, Role } from "../client";
import type { ResourceKind } from "../kindKeys";
import { KINDS } from "../kinds";
import { comparedOf } from "../framework/properties";
import { rolesOf } from "../kinds/user/roles";
import { contentKinds } from "./contentKinds";
import { groupPaths, lower, str, text, type DriftKind, type LegacyDriftKind } from "./driftKind";
import { experienceKind } from "./experienceKinds";

export { groupPaths, type AttachedItem, type DriftKind, type LiveObject } from "./driftKind";

const groupRoleList = (value: unknown) =>
  Array.isArray(value)
    ? value.map((r: { roleId?: unknown; groupId?: unknown }) => `${str(r?.roleId)}@${str(r?.groupId)}`).sort()
    : [];

const channelLabel = (rc: ReleaseChannel) => `"${rc.app.name} / ${rc.name}"`;

function attachmentKind(owner: "group" | "device"): LegacyDriftKind {
  const ownerKey = owner === "group" ? "groupId" : "deviceId";
  return {
    title: owner === "group" ? "Release channels on groups" : "Release channels on devices",
    noun: owner === "group" ? "groupReleaseChannel" : "deviceReleaseChannel",
    key: (r) => `${str(r.outputs[ownerKey])}/${str(r.outputs.releaseChannelId)}`,
    compared: {},
    stateLabel: (r) =>
      `release channel ${str(r.outputs.releaseChannelId)} on ${owner} ${str(r.outputs[ownerKey])}`,
    itemOf: (r) => ({ id: str(r.outputs.releaseChannelId) }),
    itemNames: async (org) => new Map((await org.releaseChannels()).map((rc) => [rc.id, rc.name])),
    // The documents do not say whether such a record names the owner or the channel: either is taken. Under
    // the owner, only a record about a release channel of this name (a rename, another channel: not this).
    concerns: (record, item) =>
      (item !== undefined && record.resourceId === item.id) ||
      (/release.?channel/i.test(`${record.action} ${record.description}`) &&
        (item?.name === undefined || record.description.includes(`'${item.name}'`))),
    read: async (org, managed) => {
      const named = managed.map((r) => str(r.outputs[ownerKey]));
      let owners: Map<string, string>;
      let lists: Map<string, ReleaseChannel[]>;
      if (owner === "group") {
        const groups = await org.groups();
        const paths = groupPaths(groups);
        owners = new Map(groups.map((g) => [g.id, `group "${paths.get(g.id)}"`]));
        // Only a configured group holds content; a named one is read whatever it is, to see what it lost.
        lists = await org.groupChannels([...groups.filter((g) => g.isConfigured).map((g) => g.id), ...named]);
      } else {
        const devices = await org.devices();
        owners = new Map(devices.map((d) => [d.id, `device "${d.name}" (${d.serialNumber})`]));
        // A device in a group runs its group's channels; its own attachments are read where it has no group.
        lists = await org.deviceChannels([...devices.filter((d) => !d.group).map((d) => d.id), ...named]);
      }
      return [...lists].flatMap(([ownerId, channels]) =>
        channels.map((rc) => {
          const label = `${channelLabel(rc)} on ${owners.get(ownerId) ?? `${owner} ${ownerId}`}`;
          return {
            key: `${ownerId}/${rc.id}`,
            label,
            fields: {},
            auditIds: [ownerId, rc.id],
            item: { id: rc.id, name: rc.name },
            names: [label],
          };
        }),
      );
    },
  };
}

function roleText(roleId: string, roles: Map<string, Role>): string {
  return roles.get(roleId)?.name ?? roleId;
}

const LEGACY_DRIFT_KINDS: Partial<Record<ResourceKind, LegacyDriftKind>> = {
  user: {
    title: "Users",
    noun: "user",
    // By e-mail, the natural key: a pending invitation's resource has no user id yet.
    key: (r) => (typeof r.outputs.email === "string" ? r.outputs.email.toLowerCase() : undefined),
    compared: {
      firstName: text,
      lastName: text,
      email: lower,
      defaultRoleId: text,
      groupRoles: groupRoleList,
    },
    stateLabel: (r) => str(r.outputs.email ?? r.id),
    read: async (org) => {
      const [users, roles, groups] = await Promise.all([org.users(), org.roles(), org.groups()]);
      const roleById = new Map(roles.map((r) => [r.id, r]));
      const paths = groupPaths(groups);
      return users.map((user) => {
        const { defaultRoleId, groupRoles } = rolesOf(user);
        const orgRole = user.accessControls.find((ac) => ac.protectable.type === "organization")?.role;
        const roleTexts = [
          ...(defaultRoleId ? [roleText(defaultRoleId, roleById)] : []),
          ...groupRoles.map(
            (r) => `${roleText(r.roleId, roleById)} on "${paths.get(r.groupId) ?? r.groupId}"`,
          ),
        ];
        const name = `${user.firstName} ${user.lastName}`.trim();
        return {
          key: user.email.toLowerCase(),
          label: `${user.email}${name ? ` (${name})` : ""}: ${roleTexts.join(", ") || "no role"}`,
          fields: {
            firstName: user.firstName,
            lastName: user.lastName,
            email: user.email,
            defaultRoleId,
            groupRoles,
          },
          auditIds: [user.id],
          admin: orgRole?.type === "organization" && orgRole.name === "Admin",
          names: [user.email, name],
        };
      });
    },
  },
  groupReleaseChannel: attachmentKind("group"),
  deviceReleaseChannel: attachmentKind("device"),
  theme: {
    title: "Themes",
    noun: "theme",
    key: (r) => r.id,
    compared: {
      name: text,
      background1: lower,
      background2: lower,
      text: lower,
      accent1: lower,
      accent2: lower,
      accent3: lower,
    },
    stateLabel: (r) => `"${str(r.outputs.name ?? r.id)}"`,
    read: async (org) =>
      // The service's own themes are nobody's to manage.
      (await org.themes())
        .filter((t) => !t.isSystemOwned)
        .map((t) => ({
          key: t.id,
          label: `"${t.name}"`,
          fields: { ...t },
          auditIds: [t.id],
          names: [t.name],
        })),
  },
  headsetExperience: experienceKind("headset"),
  deviceExperience: experienceKind("device"),
  ...contentKinds,
};

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
          { ...facet, noun: definition.kind, compared: comparedOf(definition.properties) },
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
