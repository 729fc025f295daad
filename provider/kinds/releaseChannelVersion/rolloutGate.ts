/**
 * The rollout gate of a `ReleaseChannelVersion`: after the channel moves to a version, wait until a share of its
 * devices (optionally only those of given groups) report it installed. A failed install or the timeout fails the
 * update with the numbers, so CI stops and the reviewer sees why.
 */
import { z } from "zod";
import { DeviceMgmtProblem } from "../../errors";
import type { DeviceMgmtClient, ReleaseChannelDeviceStatus } from "../../client";
import { uuid } from "../../framework";

export interface RolloutGate {
  /** The share (0 < share ≤ 1) of the counted devices that must report the version installed. */
  share: number;
  /** Count only the devices of these groups; absent: every device the channel reaches. */
  groupIds?: string[];
  /** How long to wait, in seconds (1 to 21600: six hours). */
  timeoutSeconds: number;
  /** How often to ask, in seconds (at least 1, at most timeoutSeconds; default a tenth of the timeout, 1 to 10). */
  pollIntervalSeconds?: number;
}

/**
 * The gate's bounds. Each poll costs requests from the organization's budget (a device list and the channel's
 * statuses, a page or more each), so an interval below a second would spend the budget every other call of the
 * run shares; a gate longer than six hours outlives a CI job (GitHub's limit) and holds the stack's lock.
 */
export const GATE_BOUNDS = { minIntervalSeconds: 1, maxTimeoutSeconds: 6 * 3600 } as const;

const timeoutReason =
  `rollout.timeoutSeconds must be a number of seconds from ${GATE_BOUNDS.minIntervalSeconds} to ` +
  `${GATE_BOUNDS.maxTimeoutSeconds} (6 hours)`;
const intervalReason =
  `rollout.pollIntervalSeconds must be a number of seconds, at least ${GATE_BOUNDS.minIntervalSeconds} ` +
  `and at most rollout.timeoutSeconds (or leave it out: a tenth of the timeout, 1 to 10 s)`;

export const rolloutSchema = z
  .object(
    {
      share: z
        .number({ error: "rollout.share must be a number above 0 and at most 1 (e.g. 0.9 for 90 %)" })
        .gt(0, { error: "rollout.share must be above 0 and at most 1 (e.g. 0.9 for 90 %)" })
        .lte(1, { error: "rollout.share must be above 0 and at most 1 (e.g. 0.9 for 90 %)" }),
      groupIds: z.array(uuid("rollout.groupIds[]")).optional(),
      timeoutSeconds: z
        .number({ error: timeoutReason })
        .gte(GATE_BOUNDS.minIntervalSeconds, { error: timeoutReason })
        .lte(GATE_BOUNDS.maxTimeoutSeconds, { error: timeoutReason }),
      pollIntervalSeconds: z
        .number({ error: intervalReason })
        .gte(GATE_BOUNDS.minIntervalSeconds, { error: intervalReason })
        .optional(),
    },
    { error: "rollout must be { share, timeoutSeconds, groupIds?, pollIntervalSeconds? }" },
  )
  .strict()
  .refine(
    (gate) => gate.pollIntervalSeconds === undefined || gate.pollIntervalSeconds <= gate.timeoutSeconds,
    {
      error: intervalReason,
      path: ["pollIntervalSeconds"],
    },
  )
  .optional();

/** The interval a gate polls at: as declared, else a tenth of the timeout within 1 to 10 s. */
export function pollIntervalOf(gate: RolloutGate): number {
  return (
    gate.pollIntervalSeconds ??
    Math.min(10, Math.max(GATE_BOUNDS.minIntervalSeconds, gate.timeoutSeconds / 10))
  );
}

/** Where the counted devices stand with the target version, in total and per group ("ungrouped" for none). */
export interface RolloutCount {
  installed: number;
  pending: number;
  failed: number;
  byGroup: Record<string, { installed: number; pending: number; failed: number }>;
}

/** Pure: counts the statuses of the devices that count (`groupOf` answers undefined for a device that does not). */
export function countRollout(
  statuses: readonly ReleaseChannelDeviceStatus[],
  targetVersion: string,
  groupOf: (deviceId: string) => string | undefined,
): RolloutCount {
  const count: RolloutCount = { installed: 0, pending: 0, failed: 0, byGroup: {} };
  for (const status of statuses) {
    const group = groupOf(status.deviceId);
    if (group === undefined) continue;
    const outcome =
      status.targetVersion === targetVersion && status.installedVersion === targetVersion
        ? "installed"
        : status.status.startsWith("failed")
          ? "failed"
          : "pending";
    count[outcome]++;
    const entry = (count.byGroup[group] ??= { installed: 0, pending: 0, failed: 0 });
    entry[outcome]++;
  }
  return count;
}

/**
 * Pure: "passed", "failed" (a device failed), "waiting", or "empty": no device counts, so nothing can show the
 * version installed, and passing would let a gate that watches nothing (a typo in groupIds, a channel no device
 * gets) pass every rollout.
 */
export function judgeRollout(count: RolloutCount, share: number): "passed" | "failed" | "waiting" | "empty" {
  if (count.failed > 0) return "failed";
  const total = count.installed + count.pending;
  if (total === 0) return "empty";
  return count.installed / total >= share ? "passed" : "waiting";
}

/** The numbers as a reviewer reads them. */
export function describeRollout(count: RolloutCount): string {
  const groups = Object.entries(count.byGroup)
    .map(([group, c]) => `${group}: ${c.installed} installed, ${c.pending} pending, ${c.failed} failed`)
    .join("; ");
  return (
    `${count.installed} installed, ${count.pending} pending, ${count.failed} failed` +
    (groups ? ` (${groups})` : "")
  );
}

const NOTHING_COUNTED: RolloutCount = { installed: 0, pending: 0, failed: 0, byGroup: {} };

/**
 * The rollout did not reach its share in time, a device failed, or no device counted: the channel stays on the
 * new version, and the next `up` judges the gate again.
 */
export class RolloutGateError extends DeviceMgmtProblem {
  constructor(
    message: string,
    readonly count: RolloutCount,
    fix = "look at the failing or pending devices; declare the previous version to roll back",
  ) {
    super(message, { kind: "ReleaseChannelVersion", property: "rollout", fix });
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The poll's count, or undefined when `ms` passed first. The abandoned poll is dropped, not cancelled: the client
 * cannot withdraw a request queued in the throttle, so the poll's remaining requests (a page of devices or of
 * statuses at a time) may still go out once the budget allows, while the plugin lives.
 */
async function within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), Math.max(0, ms));
  });
  work.catch(() => undefined); // a poll abandoned at the deadline must not fail the process later
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Waits for the gate; resolves with the count that passed it, rejects RolloutGateError with the numbers. Every
 * poll goes through the client, so through the organization's throttle: it spends the request budget the run
 * shares, and waits as any other call when that budget is spent. The deadline holds even then: a poll still
 * unanswered one interval after it fails the gate with the last numbers seen.
 */
export async function awaitRollout(
  client: DeviceMgmtClient,
  channel: { appId: string; releaseChannelId: string; label: string },
  targetVersion: string,
  gate: RolloutGate,
): Promise<RolloutCount> {
  const deadline = Date.now() + gate.timeoutSeconds * 1000;
  const intervalMs = pollIntervalOf(gate) * 1000;
  const where = gate.groupIds?.length ? ` of groups ${gate.groupIds.join(", ")}` : "";
  const timedOut = (count: RolloutCount, note = "") =>
    new RolloutGateError(
      `The rollout of ${targetVersion} on ${channel.label} did not reach ${Math.round(gate.share * 100)} % ` +
        `installed${where} within ${gate.timeoutSeconds} s: ${describeRollout(count)}${note}. The channel ` +
        `delivers ${targetVersion} now; the next up judges the gate again, or declare the previous version to roll back.`,
      count,
    );
  let last = NOTHING_COUNTED;
  for (;;) {
    const poll = (async () => {
      const groupOf = await groupsOfDevices(client, gate.groupIds);
      const statuses = await client.releases.deviceStatuses(channel.appId, channel.releaseChannelId).all();
      return countRollout(statuses, targetVersion, groupOf);
    })();
    const count = await within(poll, deadline + intervalMs - Date.now());
    if (count === undefined)
      throw timedOut(
        last,
        " (the last poll got no answer in time: the request budget was spent, or the service is slow)",
      );
    last = count;
    const verdict = judgeRollout(count, gate.share);
    if (verdict === "passed") return count;
    if (verdict === "failed") {
      throw new RolloutGateError(
        `The rollout of ${targetVersion} on ${channel.label} failed on ${count.failed} device(s)${where}: ` +
          `${describeRollout(count)}. The channel delivers ${targetVersion} now; the next up judges the gate ` +
          `again, or declare the previous version to roll back.`,
        count,
      );
    }
    if (verdict === "empty") throw emptyGate(channel.label, targetVersion, gate);
    // The last poll is at the deadline: the gate waits its whole timeout, and a poll at most one interval past it.
    const left = deadline - Date.now();
    if (left <= 0) throw timedOut(count);
    await sleep(Math.min(intervalMs, left));
  }
}

/** No device counted: which ones were asked for, and how to make the gate watch some. */
function emptyGate(label: string, targetVersion: string, gate: RolloutGate): RolloutGateError {
  const counted = gate.groupIds?.length
    ? `the devices of rollout.groupIds (${gate.groupIds.join(", ")}) that the channel reaches, and it reaches none`
    : "every device the channel reaches, and it reaches none";
  return new RolloutGateError(
    `The rollout gate of ${targetVersion} on ${label} counted no device: it counts ${counted}. A gate that ` +
      `watches no device cannot pass. The channel delivers ${targetVersion} now; the next up judges the gate again.`,
    NOTHING_COUNTED,
    gate.groupIds?.length
      ? "name in rollout.groupIds configured groups the channel is attached to (GroupReleaseChannel; a group " +
          "attached in the same program: make this resource depend on it), or leave groupIds out"
      : "attach the channel to the groups or devices it should reach (GroupReleaseChannel, DeviceReleaseChannel; " +
          "in the same program: make this resource depend on them), or remove the gate",
  );
}

/** Which group each counted device is in: every device ("ungrouped" without one), or only the given groups'. */
async function groupsOfDevices(
  client: DeviceMgmtClient,
  groupIds: string[] | undefined,
): Promise<(deviceId: string) => string | undefined> {
  const devices = await client.devices.all(groupIds?.length ? { groupIds } : {});
  const groups = new Map(
    devices.map((d) => [d.id, d.group ? `${d.group.name} (${d.group.id})` : "ungrouped"]),
  );
  return groupIds?.length ? (id) => groups.get(id) : (id) => groups.get(id) ?? "ungrouped";
}
