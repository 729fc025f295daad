/** The persisted form of the store: every table of every organization, as the state file holds it. */
import type { AppBundle, AppFile, AppVersion, Tag } from "./catalogModel";
import type { Custom3DEnvironment, ExperienceRecord, Image, Theme } from "./experienceModel";
import type {
  App,
  AuditRecord,
  Device,
  DeviceModel,
  FileItem,
  Group,
  Organization,
  ReleaseChannel,
  Role,
  User,
  Video,
} from "./model";

export interface StoredState {
  format: "devicemgmt-emulator-state";
  version: 1;
  /** How far the emulator clock was advanced (control endpoint); absent in older files (0). */
  clockOffsetMs?: number;
  deviceModels: DeviceModel[];
  orgs: {
    org: Organization;
    roles: Role[];
    users: User[];
    groups: Group[];
    devices: Device[];
    apps: App[];
    releaseChannels: ReleaseChannel[];
    files: FileItem[];
    videos: Video[];
    /** Oldest first. Absent in state files written before audit records existed. */
    auditLogs?: AuditRecord[];
    /** Absent in state files written before experiences existed: the seeded catalogue is filled in on load. */
    images?: Image[];
    custom3DEnvironments?: Custom3DEnvironment[];
    themes?: Theme[];
    experiences?: ExperienceRecord[];
    /** Absent in state files written before tags and app versions existed: derived on load. */
    tags?: Tag[];
    appVersions?: AppVersion[];
    appBundles?: AppBundle[];
    /** Absent in state files written before bundles could be made: none. */
    appFiles?: AppFile[];
  }[];
}

/** One organization's part of the state file. */
export type StoredOrg = StoredState["orgs"][number];
