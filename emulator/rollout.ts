/**
 * Simulated rollouts. After a release channel's version changes (or a device is first reached by a channel),
 * each device it reaches moves from pending to installed at a point within `durationMs` on the emulator clock
 * that is fixed by a hash of the device and the version, so all have moved once `durationMs` has passed. The
 * clock is wall time plus an offset that the control endpoint advances, so tests step through a rollout without
 * sleeping. Fault control makes chosen devices (or a seeded share of them) fail, or stay pending for ever; it
 * applies to installs due from the moment it is set (a device that already installed stays installed).
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import type { ChannelRollout, OrgTables, ReleaseChannel } from "./model";

/**
 * What a rollout reads of an organization (the store's OrgState is one): the devices a channel reaches through
 * their group or directly. Declared here so the store, which owns the simulator, is not imported back.
 */
export type RolloutScope = Pick<OrgTables, "groups" | "devices" | "releaseChannels"> & {
  deviceIdsIn(groupId: string): ReadonlySet<string>;
};

export interface RolloutConfig {
  /** Time (ms on the emulator clock) by which every reached device has installed (or failed). */
  durationMs: number;
  /** Devices whose installs fail once their time comes (status failed-install / failed-update). */
  failingDeviceIds: string[];
  /** Devices whose installs never progress (pending for ever). */
  stalledDeviceIds: string[];
  /** Share (0..1) of the other devices whose installs fail, drawn by a hash of seed, device and version. */
  failureRate: number;
  seed: number;
}

export const DEFAULT_ROLLOUT: RolloutConfig = {
  durationMs: 60_000,
  failingDeviceIds: [],
  stalledDeviceIds: [],
  failureRate: 0,
  seed: 1,
};

const ids = z.array(z.guid().transform((id) => id.toLowerCase())).max(10_000);

export const rolloutConfigPatchSchema = z
  .object({
    durationMs: z
      .number()
      .int()
      .min(0)
      .max(365 * 24 * 3_600_000),
    failingDeviceIds: ids,
    stalledDeviceIds: ids,
    failureRate: z.number().min(0).max(1),
    seed: z.number().int(),
  })
  .partial()
  .strict();

export const clockAdvanceSchema = z.strictObject({
  ms: z
    .number()
    .int()
    .min(0)
    .max(365 * 24 * 3_600_000),
});

export type InstallStatus =
  | "pending-install"
  | "pending-update"
  | "succeeded-install"
  | "succeeded-update"
  | "failed-install"
  | "failed-update";

export interface DeviceInstallStatus {
  deviceId: string;
  status: InstallStatus;
  targetVersion: string;
  installedVersion: string | null;
  statusTimestamp: string;
}

/** A number in (0, 1] fixed by its key. */
function fraction(key: string): number {
  return (createHash("sha256").update(key).digest().readUInt32BE(0) + 1) / 0x1_0000_0000;
}

const later = (a: string, b: string) => (a > b ? a : b);

export class RolloutSimulator {
  private current: RolloutConfig;
  /**
   * Fault history on the emulator clock, so a change applies to installs due from then on only: the periods in
   * which each device was marked failing, when each stalled device was marked, the failure rate's periods.
   */
  private readonly failingPeriods = new Map<string, [number, number][]>();
  private readonly stalledSince = new Map<string, number>();
  private readonly ratePeriods: { since: number; rate: number; seed: number }[] = [];

  constructor(
    /** How far the clock was advanced; persisted with the state. */
    public clockOffsetMs = 0,
    initial: Partial<RolloutConfig> = {},
  ) {
    this.current = { ...DEFAULT_ROLLOUT, ...rolloutConfigPatchSchema.parse(initial) };
    // Faults given at start apply to every install.
    for (const id of this.current.failingDeviceIds) this.failingPeriods.set(id, [[-Infinity, Infinity]]);
    for (const id of this.current.stalledDeviceIds) this.stalledSince.set(id, -Infinity);
    this.ratePeriods.push({ since: -Infinity, rate: this.current.failureRate, seed: this.current.seed });
  }

  get config(): RolloutConfig {
    return {
      ...this.current,
      failingDeviceIds: [...this.current.failingDeviceIds],
      stalledDeviceIds: [...this.current.stalledDeviceIds],
    };
  }

  /** Throws a ZodError on an invalid patch. */
  update(patch: Partial<RolloutConfig>): RolloutConfig {
    const valid = rolloutConfigPatchSchema.parse(patch);
    const now = this.nowMs();
    if (valid.failingDeviceIds) {
      for (const [id, periods] of this.failingPeriods) {
        const last = periods[periods.length - 1];
        if (!valid.failingDeviceIds.includes(id) && last[1] === Infinity) last[1] = now;
      }
      for (const id of valid.failingDeviceIds) {
        const periods = this.failingPeriods.get(id) ?? [];
        if (periods.at(-1)?.[1] !== Infinity) periods.push([now, Infinity]);
        this.failingPeriods.set(id, periods);
      }
    }
    if (valid.stalledDeviceIds) {
      for (const id of [...this.stalledSince.keys()])
        if (!valid.stalledDeviceIds.includes(id)) this.stalledSince.delete(id);
      for (const id of valid.stalledDeviceIds) if (!this.stalledSince.has(id)) this.stalledSince.set(id, now);
    }
    this.current = { ...this.current, ...valid };
    if (valid.failureRate !== undefined || valid.seed !== undefined)
      this.ratePeriods.push({ since: now, rate: this.current.failureRate, seed: this.current.seed });
    return this.config;
  }

  nowMs(): number {
    return Date.now() + this.clockOffsetMs;
  }

  nowIso(): string {
    return new Date(this.nowMs()).toISOString();
  }

  advance(ms: number): string {
    this.clockOffsetMs += ms;
    return this.nowIso();
  }

  /** The devices a channel reaches (through their group or directly), each with when it was first reached. */
  reached(org: RolloutScope, channel: ReleaseChannel): Map<string, string> {
    const reached = new Map<string, string>();
    for (const group of org.groups.values()) {
      const attachment = group.isConfigured && group.releaseChannels.find((a) => a.id === channel.id);
      if (!attachment) continue;
      for (const deviceId of org.deviceIdsIn(group.id)) {
        const device = org.devices.get(deviceId);
        reached.set(deviceId, later(attachment.attachedAt, device?.groupJoinedAt ?? ""));
      }
    }
    for (const device of org.devices.values()) {
      const attachment = device.releaseChannels.find((a) => a.id === channel.id);
      if (attachment && !reached.has(device.id)) reached.set(device.id, attachment.attachedAt);
    }
    return reached;
  }

  /** Device statuses of a channel, in the organization's device list order. */
  statuses(org: RolloutScope, channel: ReleaseChannel): DeviceInstallStatus[] {
    const reached = this.reached(org, channel);
    const rollout = rolloutOf(channel);
    const now = this.nowMs();
    const order = org.devices.list().filter((d) => reached.has(d.id));
    return order.map((d) => this.statusOf(d.id, reached.get(d.id) as string, rollout, now));
  }

  private statusOf(deviceId: string, reachedAt: string, rollout: ChannelRollout, now: number) {
    const before = rollout.installedBefore[deviceId] ?? null;
    const kind = before === null ? "install" : "update";
    const start = later(rollout.startedAt, reachedAt);
    const base = { deviceId, targetVersion: rollout.version };
    if (before === rollout.version)
      return {
        ...base,
        status: `succeeded-${kind}` as const,
        installedVersion: before,
        statusTimestamp: start,
      };
    const doneAt =
      Date.parse(start) + Math.ceil(this.current.durationMs * fraction(`${deviceId}/${rollout.version}`));
    const stalledSince = this.stalledSince.get(deviceId);
    if ((stalledSince !== undefined && doneAt >= stalledSince) || now < doneAt)
      return {
        ...base,
        status: `pending-${kind}` as const,
        installedVersion: before,
        statusTimestamp: start,
      };
    const statusTimestamp = new Date(doneAt).toISOString();
    const marked = this.failingPeriods.get(deviceId) ?? [];
    const rate = [...this.ratePeriods].reverse().find((p) => p.since <= doneAt) ?? this.ratePeriods[0];
    const fails =
      marked.some(([from, until]) => from <= doneAt && doneAt < until) ||
      (rate.rate > 0 && fraction(`${rate.seed}/${deviceId}/${rollout.version}/failure`) <= rate.rate);
    if (fails)
      return { ...base, status: `failed-${kind}` as const, installedVersion: before, statusTimestamp };
    return {
      ...base,
      status: `succeeded-${kind}` as const,
      installedVersion: rollout.version,
      statusTimestamp,
    };
  }

  /**
   * Point a channel at another version: what each reached device has installed now is remembered, and the new
   * rollout starts at `now` (the request's instant).
   */
  startRollout(
    org: RolloutScope,
    channel: ReleaseChannel,
    versionId: string,
    version: string,
    now: string,
  ): void {
    const installedBefore: Record<string, string | null> = {};
    for (const status of this.statuses(org, channel))
      installedBefore[status.deviceId] = status.installedVersion;
    channel.rollout = { versionId, version, startedAt: now, installedBefore };
  }

  /** Devices with some version of the app installed through any of its channels. */
  installedDeviceCount(org: RolloutScope, appId: string): number {
    const installed = new Set<string>();
    for (const channel of org.releaseChannels.values()) {
      if (channel.appId !== appId) continue;
      for (const status of this.statuses(org, channel))
        if (status.installedVersion !== null) installed.add(status.deviceId);
    }
    return installed.size;
  }
}

/** A channel that was never changed delivers its build since it was created. */
export function rolloutOf(channel: ReleaseChannel): ChannelRollout {
  return (
    channel.rollout ?? {
      versionId: channel.build.id,
      version: channel.build.version,
      startedAt: channel.createdAt,
      installedBefore: {},
    }
  );
}
