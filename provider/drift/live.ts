/**
 * The organization as the drift report reads it: each kind once, from its list pages, through the one paced
 * client (its throttle shares the organization's budget with anything else running). Lists are read only when a
 * kind asks for them, and each is read at most once per report.
 *
 * Release-channel attachments and a device's own files and videos have no organization-wide list in the API:
 * they are read one list per owner (each configured group, each ungrouped device, and each owner a stack names),
 * a few at a time. Experiences have no list at all: only those a stack manages are read, one per owner.
 */
import type {
  App,
  AppBundle,
  AuditRecord,
  Custom3DEnvironment,
  DeviceExperience,
  DeviceFile,
  DeviceMgmtClient,
  Device,
  ExperienceHolder,
  Group,
  HeadsetExperience,
  Image,
  ImageType,
  Organization,
  ReleaseChannel,
  Tag,
  Theme,
  Role,
  User,
  Video,
  AppBuild,
} from "../client";
import { DeviceMgmtError, NotFoundError } from "../client";
import { mapConcurrently } from "../framework";

/** Per-owner reads at once; the client's throttle still paces them. */
const OWNER_CONCURRENCY = 8;

export class LiveOrganization {
  readonly #client: DeviceMgmtClient;
  readonly #cache = new Map<string, Promise<unknown>>();
  readonly #progress: (line: string) => void;

  constructor(client: DeviceMgmtClient, progress: (line: string) => void = () => {}) {
    this.#client = client;
    this.#progress = progress;
  }

  #once<T>(key: string, read: () => Promise<T>): Promise<T> {
    let found = this.#cache.get(key) as Promise<T> | undefined;
    if (!found) {
      found = read();
      this.#cache.set(key, found);
    }
    return found;
  }

  organization(): Promise<Organization> {
    return this.#once("organization", () => this.#client.currentOrganization());
  }

  /** Audit records from `since` on, newest first (one pass over the window's pages). */
  auditSince(since: string): Promise<AuditRecord[]> {
    return this.#once(`audit/${since}`, async () => {
      const records = await this.#client.auditLogs.list({ startTime: since }).all();
      this.#progress(`read ${records.length} audit records since ${since}`);
      return records;
    });
  }

  caller(): Promise<User> {
    return this.#once("caller", () => this.#client.currentUser());
  }

  users(): Promise<User[]> {
    return this.#once("users", async () => {
      const users = await this.#client.users.all();
      this.#progress(`read ${users.length} users`);
      return users;
    });
  }

  roles(): Promise<Role[]> {
    return this.#once("roles", () => this.#client.roles.all());
  }

  groups(): Promise<Group[]> {
    return this.#once("groups", async () => {
      const groups = await this.#client.groups.all();
      this.#progress(`read ${groups.length} groups`);
      return groups;
    });
  }

  devices(): Promise<Device[]> {
    return this.#once("devices", async () => {
      const devices = await this.#client.devices.all();
      this.#progress(`read ${devices.length} devices`);
      return devices;
    });
  }

  /** Every app's release channels (to name a channel a state holds by id only). */
  releaseChannels(): Promise<ReleaseChannel[]> {
    return this.#once("release-channels", async () => {
      const apps = await this.apps();
      const lists = await mapConcurrently(
        apps,
        OWNER_CONCURRENCY,
        (app) => this.#client.apps.releaseChannels(app.id).all(),
        () => {},
      );
      return lists.flat();
    });
  }

  themes(): Promise<Theme[]> {
    return this.#once("themes", () => this.#client.themes.list().all());
  }

  apps(): Promise<App[]> {
    return this.#once("apps", () => this.#client.apps.all());
  }

  tags(): Promise<Tag[]> {
    return this.#once("tags", async () => {
      const tags = await this.#client.tags.all();
      this.#progress(`read ${tags.length} tags`);
      return tags;
    });
  }

  files(): Promise<DeviceFile[]> {
    return this.#once("files", () => this.#client.files.all());
  }

  /**
   * These objects by id, for a kind whose objects the API lists per owner only (app bundles: `what` names the
   * reads, `read` is the kind's own); each set of ids is read once per report, and an object that is gone is
   * left out.
   */
  byIds<T>(
    what: string,
    ids: string[],
    read: (client: DeviceMgmtClient, id: string) => Promise<T>,
  ): Promise<T[]> {
    return this.#once(`${what} ${[...ids].sort().join(",")}`, async () => {
      const found = await mapConcurrently(
        [...new Set(ids)],
        OWNER_CONCURRENCY,
        (id) =>
          read(this.#client, id).catch((error: unknown) => {
            if (error instanceof NotFoundError) return undefined;
            throw error;
          }),
        () => {},
      );
      return found.filter((object): object is Awaited<T> => object !== undefined);
    });
  }

  videos(): Promise<Video[]> {
    return this.#once("videos", () => this.#client.videos.all());
  }

  /** The bundles of one app (bundles are listed per app), without their files. */
  appBundlesOf(appId: string): Promise<AppBundle[]> {
    return this.#once(`app-bundles-of/${appId}`, () => this.#client.releases.bundles(appId).all());
  }

  /** The builds of one app (builds are listed per app). */
  appVersions(appId: string): Promise<AppBuild[]> {
    return this.#once(`app-versions/${appId}`, () => this.#client.releases.versions(appId).all());
  }

  /** The images of these ids, read one by one (the API lists images only by type); a gone one is left out. */
  imagesById(ids: string[]): Promise<Image[]> {
    return this.#once(`images/${ids.join(",")}`, async () => {
      const read = await mapConcurrently(
        ids,
        4,
        (id) =>
          this.#client.images.get(id).catch((error: unknown) => {
            if (error instanceof NotFoundError) return undefined;
            throw error;
          }),
        () => {},
      );
      return read.filter((image): image is Image => image !== undefined);
    });
  }

  /** The images of one type (the API lists images by type only). */
  images(type: ImageType): Promise<Image[]> {
    return this.#once(`images-of/${type}`, () => this.#client.images.all(type));
  }

  custom3DEnvironments(): Promise<Custom3DEnvironment[]> {
    return this.#once("custom3DEnvironments", () => this.#client.custom3DEnvironments.all());
  }

  /** The experience of each holder; a holder that is gone, or a device now in a group (409), is left out. */
  headsetExperiences(holders: ExperienceHolder[]): Promise<Map<string, HeadsetExperience | undefined>> {
    return this.#experiences("headset", holders, (h) => this.#client.headsetExperiences.get(h));
  }

  deviceExperiences(holders: ExperienceHolder[]): Promise<Map<string, DeviceExperience | undefined>> {
    return this.#experiences("device", holders, (h) => this.#client.deviceExperiences.get(h));
  }

  /**
   * Each holder's experience by the holder's id; `undefined` where the API answers 404 (gone, or where the API
   * answers so until one is set: the caller tells them apart from the group and device lists). A device that
   * joined a group (409) has no experience of its own: left out, as a gone one.
   */
  async #experiences<T>(
    noun: string,
    holders: ExperienceHolder[],
    get: (holder: ExperienceHolder) => Promise<T>,
  ): Promise<Map<string, T | undefined>> {
    const idOf = (h: ExperienceHolder) => ("groupId" in h ? h.groupId : h.deviceId);
    const results = await mapConcurrently(
      holders,
      OWNER_CONCURRENCY,
      (holder) =>
        get(holder).then(
          (found): { found?: T; absent?: true } => ({ found }),
          (error: unknown): { found?: T; absent?: true } => {
            if (error instanceof NotFoundError) return {};
            if (error instanceof DeviceMgmtError && error.status === 409) return { absent: true as const };
            throw error;
          },
        ),
      () => {},
    );
    if (holders.length) this.#progress(`read ${holders.length} ${noun} experiences`);
    const result = new Map<string, T | undefined>();
    holders.forEach((holder, i) => {
      if (!results[i].absent) result.set(idOf(holder), results[i].found);
    });
    return result;
  }

  /** The files of each of these devices themselves; a device that is gone is left out. */
  deviceFiles(deviceIds: Iterable<string>): Promise<Map<string, DeviceFile[]>> {
    return this.#owners("device", "files", [...new Set(deviceIds)], (id) =>
      this.#client.deviceContent.files(id).all(),
    );
  }

  /** The videos of each of these devices themselves; a device that is gone is left out. */
  deviceVideos(deviceIds: Iterable<string>): Promise<Map<string, Video[]>> {
    return this.#owners("device", "videos", [...new Set(deviceIds)], (id) =>
      this.#client.deviceContent.videos(id).all(),
    );
  }

  /** Release channels attached to each of these groups; a group that is gone is left out. */
  groupChannels(groupIds: Iterable<string>): Promise<Map<string, ReleaseChannel[]>> {
    return this.#owners("group", "release channels", [...new Set(groupIds)], (id) =>
      this.#client.groups.releaseChannels(id).all(),
    );
  }

  /** Release channels attached to each of these devices; a device that is gone is left out. */
  deviceChannels(deviceIds: Iterable<string>): Promise<Map<string, ReleaseChannel[]>> {
    return this.#owners("device", "release channels", [...new Set(deviceIds)], (id) =>
      this.#client.devices.releaseChannels(id).all(),
    );
  }

  async #owners<T>(
    noun: string,
    what: string,
    ids: string[],
    list: (id: string) => Promise<T[]>,
  ): Promise<Map<string, T[]>> {
    const lists = await mapConcurrently(
      ids,
      OWNER_CONCURRENCY,
      (id) =>
        this.#once(`${noun}/${id}/${what}`, () =>
          list(id).catch((error: unknown) => {
            if (error instanceof NotFoundError) return undefined;
            throw error;
          }),
        ),
      () => {},
    );
    if (ids.length) this.#progress(`read the ${what} of ${ids.length} ${noun}s`);
    const result = new Map<string, T[]>();
    ids.forEach((id, i) => {
      if (lists[i]) result.set(id, lists[i]);
    });
    return result;
  }
}
