/**
 * The organization as the drift report reads it: each kind once, from its list pages, through the one paced
 * client (its throttle shares the organization's budget with anything else running). Lists are read only when a
 * kind asks for them, and each is read at most once per report.
 *
 * Release-channel attachments have no organization-wide list in the API: they are read one list per owner
 * (each configured group, each ungrouped device, and each owner a stack names), a few at a time.
 */
import type {
  AuditRecord,
  DeviceMgmtClient,
  Device,
  Group,
  Organization,
  ReleaseChannel,
  Theme,
  Role,
  User,
} from "../client";
import { NotFoundError } from "../client";
import { mapConcurrently } from "../export/read";

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
      const apps = await this.#client.apps.all();
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

  /** Release channels attached to each of these groups; a group that is gone is left out. */
  groupChannels(groupIds: Iterable<string>): Promise<Map<string, ReleaseChannel[]>> {
    return this.#owners("group", [...new Set(groupIds)], (id) =>
      this.#client.groups.releaseChannels(id).all(),
    );
  }

  /** Release channels attached to each of these devices; a device that is gone is left out. */
  deviceChannels(deviceIds: Iterable<string>): Promise<Map<string, ReleaseChannel[]>> {
    return this.#owners("device", [...new Set(deviceIds)], (id) =>
      this.#client.devices.releaseChannels(id).all(),
    );
  }

  async #owners(
    noun: string,
    ids: string[],
    list: (id: string) => Promise<ReleaseChannel[]>,
  ): Promise<Map<string, ReleaseChannel[]>> {
    const lists = await mapConcurrently(
      ids,
      OWNER_CONCURRENCY,
      (id) =>
        this.#once(`${noun}/${id}/release-channels`, () =>
          list(id).catch((error: unknown) => {
            if (error instanceof NotFoundError) return undefined;
            throw error;
          }),
        ),
      () => {},
    );
    if (ids.length) this.#progress(`read the release channels of ${ids.length} ${noun}s`);
    const result = new Map<string, ReleaseChannel[]>();
    ids.forEach((id, i) => {
      if (lists[i]) result.set(id, lists[i]);
    });
    return result;
  }
}
