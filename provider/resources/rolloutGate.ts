/**
 * The rollout gate of a `ReleaseChannelVersion`: after the channel moves to a version, wait until a share of its
 * devices (optionally only those of given groups) report it installed. A failed install or the timeout fails the
 * update with the numbers, so CI stops and the reviewer sees why.
 */
import { z } from "zod";
import { DeviceMgmtProblem } from "../errors";
import type { DeviceMgmtClient, ReleaseChannelDeviceStatus } from "../client";
import { uuid } from "./framework";

export interface RolloutGate {
  /** The share (0 < share ≤ 1) of the counted devices that must report the version installed. */
  share: number;
  /** Count only the devices of these groups; absent: every device the channel reaches. */
  groupIds?: string[];
  /** How long to wait, in seconds. */
  timeoutSeconds: number;
  /** How often to ask, in seconds (default 10, or less for a short timeout). */
  pollIntervalSeconds?: number;
}

export const rolloutSchema = z
  .object(
    {
      share: z
        .number({ error: "rollout.share must be a number above 0 and at most 1 (e.g. 0.9 for 90 %)" })
        .gt(0, { error: "rollout.share must be above 0 and at most 1 (e.g. 0.9 for 90 %)" })
        .lte(1, { error: "rollout.share must be above 0 and at most 1 (e.g. 0.9 for 90 %)" }),
      groupIds: z.array(uuid("rollout.groupIds[]")).optional(),
      timeoutSeconds: z
        .number({ error: "rollout.timeoutSeconds must be a number of seconds above 0" })
        .positive({ error: "rollout.timeoutSeconds must be a number of seconds above 0" }),
      pollIntervalSeconds: z
        .number({ error: "rollout.pollIntervalSeconds must be a number of seconds above 0" })
        .positive({ error: "rollout.pollIntervalSeconds must be a number of seconds above 0" })
        .optional(),
    },
    { error: "rollout must be { share, timeoutSeconds, groupIds?, pollIntervalSeconds? }" },
  )
  .strict()
  .optional();

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

/** Pure: "passed", "failed" (a device failed), or "waiting". No device to count passes. */
export function judgeRollout(count: RolloutCount, share: number): "passed" | "failed" | "waiting" {
  if (count.failed > 0) return "failed";
  const total = count.installed + count.pending;
  return total === 0 || count.installed / total >= share ? "passed" : "waiting";
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

/** The rollout did not reach its share in time, or a device failed: the channel stays on the new version. */
export class RolloutGateError extends DeviceMgmtProblem {
  constructor(
    message: string,
    readonly count: RolloutCount,
  ) {
    super(message, {
      kind: "ReleaseChannelVersion",
      property: "rollout",
      fix: "look at the failing or pending devices; declare the previous version to roll back",
    });
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits for the gate; resolves with the count that passed it, rejects RolloutGateError with the numbers. */
export async function awaitRollout(
  client: DeviceMgmtClient,
  channel: { appId: string; releaseChannelId: string; label: string },
  targetVersion: string,
  gate: RolloutGate,
): Promise<RolloutCount> {
  const deadline = Date.now() + gate.timeoutSeconds * 1000;
  const intervalMs = (gate.pollIntervalSeconds ?? Math.min(10, gate.timeoutSeconds / 10)) * 1000;
  for (;;) {
    const groupOf = await groupsOfDevices(client, gate.groupIds);
    const statuses = await client.releases.deviceStatuses(channel.appId, channel.releaseChannelId).all();
    const count = countRollout(statuses, targetVersion, groupOf);
    const verdict = judgeRollout(count, gate.share);
    if (verdict === "passed") return count;
    const where = gate.groupIds?.length ? ` of groups ${gate.groupIds.join(", ")}` : "";
    if (verdict === "failed") {
      throw new RolloutGateError(
        `The rollout of ${targetVersion} on ${channel.label} failed on ${count.failed} device(s)${where}: ` +
          `${describeRollout(count)}. The channel delivers ${targetVersion} now; declare the previous version to roll back.`,
        count,
      );
    }
    if (Date.now() + intervalMs > deadline) {
      throw new RolloutGateError(
        `The rollout of ${targetVersion} on ${channel.label} did not reach ${Math.round(gate.share * 100)} % ` +
          `installed${where} within ${gate.timeoutSeconds} s: ${describeRollout(count)}. The channel delivers ` +
          `${targetVersion} now; the next up waits again, or declare the previous version to roll back.`,
        count,
      );
    }
    await sleep(intervalMs);
  }
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
