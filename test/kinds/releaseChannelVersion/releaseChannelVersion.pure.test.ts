// Pure rules of ReleaseChannelVersion: check by its declaration (one of versionId and bundleId, a sane rollout
// gate), the diff that judges a gate again until it passed for the recorded version, and the rollout gate's
// counting and verdict.
import { releaseChannelVersionKind } from "../../../provider/kinds/releaseChannelVersion/definition";
import {
  countRollout,
  describeRollout,
  judgeRollout,
  pollIntervalOf,
} from "../../../provider/kinds/releaseChannelVersion/rolloutGate";
import { pluginHandler } from "../../../provider/framework";
import type { ReleaseChannelDeviceStatus } from "../../../provider/client";

const ID = "3f2504e0-4f89-41d3-9a0c-0305e82c3301";
const OTHER = "9a2504e0-4f89-41d3-9a0c-0305e82c3302";

describe("ReleaseChannelVersion check and diff", () => {
  it("ReleaseChannelVersion takes exactly one of versionId and bundleId, and a sane gate", async () => {
    const handler = pluginHandler(releaseChannelVersionKind);
    const both = await handler.check({}, { appId: ID, releaseChannelId: ID, versionId: ID, bundleId: OTHER });
    expect((both.failures ?? []).map((f) => f.property)).toEqual(["versionId"]);
    const gate = await handler.check(
      {},
      {
        appId: ID,
        releaseChannelId: ID,
        versionId: ID,
        rollout: { share: 0.9, timeoutSeconds: 0, extra: 1 },
      },
    );
    expect((gate.failures ?? []).map((f) => f.property)).toEqual(["rollout"]);
    expect((gate.failures ?? [])[0].reason).toMatch(
      /timeoutSeconds must be a number of seconds from 1 to 21600/,
    );
  });

  it("bounds a gate's polling at check: an interval of a second or more, within the timeout, at most 6 hours", async () => {
    const handler = pluginHandler(releaseChannelVersionKind);
    const reasons = async (rollout: object) =>
      (
        (await handler.check({}, { appId: ID, releaseChannelId: ID, versionId: ID, rollout })).failures ?? []
      ).map((f) => `${f.property}: ${f.reason}`);
    expect(await reasons({ share: 1, timeoutSeconds: 5, pollIntervalSeconds: 0.000001 })).toEqual([
      expect.stringMatching(
        /^rollout: rollout.pollIntervalSeconds: .*at least 1 and at most rollout.timeoutSeconds/,
      ),
    ]);
    expect(await reasons({ share: 1, timeoutSeconds: 5, pollIntervalSeconds: 10 })).toEqual([
      expect.stringMatching(/^rollout: rollout.pollIntervalSeconds: .*at most rollout.timeoutSeconds/),
    ]);
    expect(await reasons({ share: 1, timeoutSeconds: 86_400 })).toEqual([
      expect.stringMatching(/^rollout: rollout.timeoutSeconds: .*from 1 to 21600 \(6 hours\)/),
    ]);
    expect(await reasons({ share: 1, timeoutSeconds: 0.5 })).toHaveLength(1);
    expect(await reasons({ share: 1, timeoutSeconds: 21_600, pollIntervalSeconds: 1 })).toEqual([]);
    // Left out, the interval is a tenth of the timeout, within 1 to 10 s.
    expect(pollIntervalOf({ share: 1, timeoutSeconds: 5 })).toBe(1);
    expect(pollIntervalOf({ share: 1, timeoutSeconds: 60 })).toBe(6);
    expect(pollIntervalOf({ share: 1, timeoutSeconds: 1800 })).toBe(10);
  });

  it("a gate that has not passed for the recorded version makes the next up judge it again", async () => {
    const handler = pluginHandler(releaseChannelVersionKind);
    const news = { appId: ID, releaseChannelId: ID, versionId: ID, rollout: { share: 1, timeoutSeconds: 5 } };
    // 0.1.0 recorded "unchanged" for a gate it skipped: never judged, so not passed.
    expect((await handler.diff("x", { ...news, rolloutStatus: "unchanged" }, news)).changes).toBe(true);
    // A pass recorded for another version (the channel moved without the state knowing) does not count.
    const elsewhere = { ...news, rolloutStatus: "passed", rolloutVersionId: OTHER };
    expect((await handler.diff("x", elsewhere, news)).changes).toBe(true);
    const here = { ...news, rolloutStatus: "passed", rolloutVersionId: ID };
    expect((await handler.diff("x", here, news)).changes).toBe(false);
  });

  it("a gate that did not pass makes the next up wait again; a passed one does not", async () => {
    const handler = pluginHandler(releaseChannelVersionKind);
    const news = { appId: ID, releaseChannelId: ID, versionId: ID, rollout: { share: 1, timeoutSeconds: 5 } };
    const failed = await handler.diff("x", { ...news, rolloutStatus: "failed" }, news);
    expect(failed.changes).toBe(true);
    const passed = await handler.diff("x", { ...news, rolloutStatus: "passed" }, news);
    expect(passed.changes).toBe(false);
  });
});

describe("the rollout gate's numbers", () => {
  const status = (deviceId: string, s: string, installed: string | null): ReleaseChannelDeviceStatus => ({
    deviceId,
    status: s,
    targetVersion: "2.4.0",
    installedVersion: installed,
    statusTimestamp: "2026-01-01T00:00:00Z",
  });
  const statuses = [
    status("a", "succeeded-update", "2.4.0"),
    status("b", "pending-update", "2.3.0"),
    status("c", "failed-update", "2.3.0"),
    status("d", "succeeded-install", "2.4.0"),
  ];
  const groups: Record<string, string> = { a: "North", b: "North", c: "South", d: "South" };

  it("counts installed, pending and failed, by group, only for the devices that count", () => {
    const count = countRollout(statuses, "2.4.0", (id) => groups[id]);
    expect(count).toMatchObject({ installed: 2, pending: 1, failed: 1 });
    expect(describeRollout(count)).toBe(
      "2 installed, 1 pending, 1 failed (North: 1 installed, 1 pending, 0 failed; South: 1 installed, 0 pending, 1 failed)",
    );
    const north = countRollout(statuses, "2.4.0", (id) => (groups[id] === "North" ? "North" : undefined));
    expect(north).toMatchObject({ installed: 1, pending: 1, failed: 0 });
    // A device whose status is about another target has not installed this one.
    expect(countRollout([status("a", "succeeded-update", "2.3.0")], "2.4.0", () => "x").pending).toBe(1);
  });

  it("fails on any failed device, waits below the share, passes at it; no device counted is no pass", () => {
    expect(
      judgeRollout(
        countRollout(statuses, "2.4.0", (id) => groups[id]),
        0.1,
      ),
    ).toBe("failed");
    const north = countRollout(statuses, "2.4.0", (id) => (groups[id] === "North" ? "North" : undefined));
    expect(judgeRollout(north, 0.6)).toBe("waiting");
    expect(judgeRollout(north, 0.5)).toBe("passed");
    expect(
      judgeRollout(
        countRollout([], "2.4.0", () => "x"),
        1,
      ),
    ).toBe("empty");
    // Statuses of devices outside the counted groups leave the set empty too.
    expect(
      judgeRollout(
        countRollout(statuses, "2.4.0", () => undefined),
        0.1,
      ),
    ).toBe("empty");
  });
});
