/** The in-memory state of all organizations, with the derived indexes the rules need (tree, group members). */
import {
  Table,
  type App,
  type AuditRecord,
  type Device,
  type DeviceModel,
  type FileItem,
  type Group,
  type Organization,
  type OrgTables,
  type ReleaseChannel,
  type Role,
  type User,
  type Video,
} from "./model";
import { SYSTEM_ROLES } from "./permissions";
import { ExperienceBook, type Custom3DEnvironment, type Image, type Theme } from "./experienceModel";
import { seedExperienceCatalogue } from "./experienceSeed";
import type { AppBundle, AppFile, AppVersion, Tag } from "./catalogModel";
import { seedTags, seedVersions } from "./catalogSeed";
import { RolloutSimulator } from "./rollout";
import type { StoredOrg, StoredState } from "./storedState";

/** Audit records kept per organization; the oldest are dropped beyond this (the real service keeps more). */
export const MAX_AUDIT_RECORDS = 10_000;

function addToIndex<K>(index: Map<K, Set<string>>, key: K, id: string): void {
  let ids = index.get(key);
  if (!ids) index.set(key, (ids = new Set()));
  ids.add(id);
}

function removeFromIndex<K>(index: Map<K, Set<string>>, key: K, id: string): void {
  const ids = index.get(key);
  if (!ids) return;
  ids.delete(id);
  if (ids.size === 0) index.delete(key);
}

export class OrgState implements OrgTables {
  readonly org: Organization;
  readonly roles: Table<Role>;
  readonly users: Table<User>;
  readonly groups: Table<Group>;
  readonly devices: Table<Device>;
  readonly apps: Table<App>;
  readonly releaseChannels: Table<ReleaseChannel>;
  readonly files: Table<FileItem>;
  readonly videos: Table<Video>;
  /** Audit records, oldest first. */
  readonly auditLogs: AuditRecord[];
  readonly images: Table<Image>;
  readonly custom3DEnvironments: Table<Custom3DEnvironment>;
  readonly themes: Table<Theme>;
  /** Headset and device experiences of groups and devices. */
  readonly experiences: ExperienceBook;
  readonly tags: Table<Tag>;
  readonly appVersions: Table<AppVersion>;
  readonly appBundles: Table<AppBundle>;
  /** The data files uploaded for app bundles (GET /apps/{appId}/files). */
  readonly appFiles: Table<AppFile>;
  /** parent id (null = root) -> child group ids */
  private readonly childIds = new Map<string | null, Set<string>>();
  /** group id -> ids of the devices in it */
  private readonly memberIds = new Map<string, Set<string>>();

  constructor(data: StoredOrg) {
    this.org = data.org;
    this.roles = new Table(data.roles);
    this.users = new Table(data.users);
    this.groups = new Table(data.groups);
    this.devices = new Table(data.devices);
    this.apps = new Table(data.apps);
    this.releaseChannels = new Table(data.releaseChannels);
    this.files = new Table(data.files);
    this.videos = new Table(data.videos);
    this.auditLogs = data.auditLogs ?? [];
    // Seeded here rather than in seed.ts so a state file from before experiences existed gains them too.
    const catalogue = data.themes ? undefined : seedExperienceCatalogue(data.org.slug);
    this.images = new Table(data.images ?? catalogue?.images);
    this.custom3DEnvironments = new Table(data.custom3DEnvironments ?? catalogue?.custom3DEnvironments);
    this.themes = new Table(data.themes ?? catalogue?.themes);
    this.experiences = new ExperienceBook(data.experiences);
    // Derived on load when absent, so a state file from before tags and app versions existed gains them.
    this.tags = new Table(data.tags ?? seedTags(data));
    const versions = data.appVersions ? undefined : seedVersions(data);
    this.appVersions = new Table(data.appVersions ?? versions?.versions);
    this.appBundles = new Table(data.appBundles ?? versions?.bundles);
    this.appFiles = new Table(data.appFiles);
    for (const group of data.groups) group.tags ??= [];
    // State files written before device content and sharing existed lack these fields.
    for (const device of data.devices) {
      device.files ??= [];
      device.videos ??= [];
    }
    for (const channel of data.releaseChannels) channel.sharedWithOrgIds ??= [];
    // System roles keep up with the emulator: those of an older state file gain permissions added since (e.g.
    // AUDIT_LOG__VIEW), so Admin is not locked out of an operation that did not exist when the file was written.
    for (const role of data.roles) {
      const system = role.isOwnedBySystem
        ? SYSTEM_ROLES.find((r) => r.name === role.name && r.type === role.type)
        : undefined;
      for (const permission of system?.permissions ?? [])
        if (!role.permissions.includes(permission)) role.permissions.push(permission);
    }
    for (const group of data.groups) addToIndex(this.childIds, group.parentId, group.id);
    for (const device of data.devices)
      if (device.groupId) addToIndex(this.memberIds, device.groupId, device.id);
  }

  toStored(): StoredOrg {
    return {
      org: this.org,
      roles: [...this.roles.values()],
      users: [...this.users.values()],
      groups: [...this.groups.values()],
      devices: [...this.devices.values()],
      apps: [...this.apps.values()],
      releaseChannels: [...this.releaseChannels.values()],
      files: [...this.files.values()],
      videos: [...this.videos.values()],
      auditLogs: this.auditLogs,
      images: [...this.images.values()],
      custom3DEnvironments: [...this.custom3DEnvironments.values()],
      themes: [...this.themes.values()],
      experiences: [...this.experiences.values()],
      tags: [...this.tags.values()],
      appVersions: [...this.appVersions.values()],
      appBundles: [...this.appBundles.values()],
      appFiles: [...this.appFiles.values()],
    };
  }

  appendAudit(record: AuditRecord): void {
    this.auditLogs.push(record);
    if (this.auditLogs.length > MAX_AUDIT_RECORDS)
      this.auditLogs.splice(0, this.auditLogs.length - MAX_AUDIT_RECORDS);
  }

  childIdsOf(parentId: string | null): ReadonlySet<string> {
    return this.childIds.get(parentId) ?? new Set();
  }

  deviceIdsIn(groupId: string): ReadonlySet<string> {
    return this.memberIds.get(groupId) ?? new Set();
  }

  /** The group itself, then its parent, up to the root. */
  *selfAndAncestors(groupId: string): Generator<Group> {
    let current = this.groups.get(groupId);
    for (let depth = 0; current && depth <= this.groups.size; depth++) {
      yield current;
      current = current.parentId ? this.groups.get(current.parentId) : undefined;
    }
  }

  isSelfOrDescendant(candidateId: string, ancestorId: string): boolean {
    for (const group of this.selfAndAncestors(candidateId)) if (group.id === ancestorId) return true;
    return false;
  }

  insertGroup(group: Group): void {
    this.groups.insert(group);
    addToIndex(this.childIds, group.parentId, group.id);
  }

  setGroupParent(group: Group, parentId: string | null): void {
    removeFromIndex(this.childIds, group.parentId, group.id);
    group.parentId = parentId;
    addToIndex(this.childIds, parentId, group.id);
  }

  removeGroup(group: Group): void {
    this.groups.delete(group.id);
    this.experiences.forget(group.id);
    removeFromIndex(this.childIds, group.parentId, group.id);
  }

  insertDevice(device: Device): void {
    this.devices.insert(device);
    if (device.groupId) addToIndex(this.memberIds, device.groupId, device.id);
  }

  setDeviceGroup(device: Device, groupId: string | null): void {
    if (device.groupId) removeFromIndex(this.memberIds, device.groupId, device.id);
    device.groupId = groupId;
    if (groupId) addToIndex(this.memberIds, groupId, device.id);
    if (groupId) this.experiences.markJoinedGroup(device.id, new Date().toISOString());
  }

  removeDevice(device: Device): void {
    this.devices.delete(device.id);
    this.experiences.forget(device.id);
    if (device.groupId) removeFromIndex(this.memberIds, device.groupId, device.id);
  }

  findUserByEmail(email: string): User | undefined {
    const wanted = email.toLowerCase();
    for (const user of this.users.values()) if (user.email.toLowerCase() === wanted) return user;
    return undefined;
  }
}

export class Store {
  readonly deviceModels: Table<DeviceModel>;
  /** The emulator clock and the simulated rollouts of release channels. */
  readonly rollouts: RolloutSimulator;
  private readonly byId = new Map<string, OrgState>();
  private readonly bySlug = new Map<string, OrgState>();
  private lastAuditId = 0;

  constructor(state: StoredState) {
    this.deviceModels = new Table(state.deviceModels);
    this.rollouts = new RolloutSimulator(state.clockOffsetMs ?? 0);
    for (const data of state.orgs) {
      const org = new OrgState(data);
      this.byId.set(org.org.id, org);
      this.bySlug.set(org.org.slug, org);
      for (const record of org.auditLogs) this.lastAuditId = Math.max(this.lastAuditId, record.id);
    }
  }

  /** The next audit record id: integers increasing across all organizations, continuing a loaded state. */
  nextAuditId(): number {
    return ++this.lastAuditId;
  }

  toStored(): StoredState {
    return {
      format: "devicemgmt-emulator-state",
      version: 1,
      clockOffsetMs: this.rollouts.clockOffsetMs,
      deviceModels: [...this.deviceModels.values()],
      orgs: [...this.byId.values()].map((org) => org.toStored()),
    };
  }

  orgById(id: string): OrgState | undefined {
    return this.byId.get(id);
  }

  orgBySlug(slug: string): OrgState | undefined {
    return this.bySlug.get(slug);
  }

  organizations(): IterableIterator<OrgState> {
    return this.byId.values();
  }
}
