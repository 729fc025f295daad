// The rollout gate through the real plugin: judged until it passes (a create over a channel that already ships
// the version, a refresh in between), no device counted is no pass, and the deadline holds when the
// organization's request budget is spent. The organization is read from the emulator afterwards.
import { awaitRollout, RolloutGateError } from "../../../provider/kinds/releaseChannelVersion/rolloutGate";
import { failure, Managed, startStack, type Stack } from "../../harness/providerStack";

const STATUSES_ROUTE = "GET /apps/{appId}/release-channels/{releaseChannelId}/device-statuses";

interface Org {
  appId: string;
  productionId: string;
  versions: Record<string, string>;
  site: string;
  siteDevices: string[];
}

/** The seeded app's Production channel, and a configured site with three devices that the channel reaches. */
async function organization(stack: Stack): Promise<Org> {
  const app = (await stack.admin.apps.all()).find((a) => a.name === "Training Simulator");
  if (!app) throw new Error("no seeded Training Simulator");
  let productionId = "";
  for await (const channel of stack.admin.apps.releaseChannels(app.id))
    if (channel.name === "Production") productionId = channel.id;
  const versions = Object.fromEntries(
    (await stack.admin.releases.versions(app.id).all()).map((v) => [v.version ?? "", v.id]),
  );
  const group = await stack.admin.groups.create({ name: "Site", parentId: null });
  const site = (await stack.admin.groups.configure(group.id)).id;
  const siteDevices = (await stack.admin.devices.all()).slice(0, 3).map((d) => d.id);
  for (const id of siteDevices) await stack.admin.devices.update(id, { groupId: site });
  await stack.admin.groups.addReleaseChannel(site, productionId);
  stack.emulator.advanceClock(1_000); // the first installs are done
  return { appId: app.id, productionId, versions, site, siteDevices };
}

describe("a gate judged until it passes", () => {
  let stack: Stack;
  let org: Org;
  beforeAll(async () => {
    stack = await startStack({ emulator: { seed: { devices: 6 }, rollouts: { durationMs: 300 } } });
    org = await organization(stack);
  });
  afterAll(() => stack.close());

  const channel = () => stack.emulator.snapshot().releaseChannels.find((c) => c.id === org.productionId);
  const declared = (version: string, rollout: object = {}) => ({
    appId: org.appId,
    releaseChannelId: org.productionId,
    versionId: org.versions[version],
    rollout: { share: 1, timeoutSeconds: 3, pollIntervalSeconds: 1, groupIds: [org.site], ...rollout },
  });

  it("a create over a channel that already ships the version judges the gate (no 'unchanged' pass)", async () => {
    // What the engine runs when it kept nothing of an earlier run: the channel already moved, a device failed.
    stack.emulator.setRollouts({ failingDeviceIds: [org.siteDevices[0]] });
    await stack.admin.releases.setChannelVersion(org.appId, org.productionId, {
      versionId: org.versions["2.4.0"],
    });
    stack.emulator.advanceClock(1_000);
    const managed = await Managed.of(stack.plugin, "releaseChannelVersion", "shipped");
    const error = await failure(managed.create(declared("2.4.0")));
    expect(error.message).toMatch(/failed on 1 device\(s\) of groups .*: 2 installed, 0 pending, 1 failed/);
    await managed.recordPartialFailure(error, declared("2.4.0"));
    expect(managed.outputs).toMatchObject({ version: "2.4.0", rolloutStatus: "failed" });

    // A refresh keeps what the gate saw, so the next up still judges it, and fails while the device fails.
    await managed.read();
    expect(managed.outputs.rolloutStatus).toBe("failed");
    expect((await managed.diff(declared("2.4.0"))).changes).toBe("some");
    stack.emulator.resetStats();
    const again = await failure(managed.update(declared("2.4.0")));
    expect(again.message).toMatch(/failed on 1 device\(s\)/);
    expect(stack.emulator.stats().writes).toBe(0); // judged, not moved
    expect(stack.emulator.stats().byRoute[STATUSES_ROUTE]).toBe(1);
    await managed.recordPartialFailure(again, declared("2.4.0"));

    // The device is fixed and reached anew: it installs, the gate passes, and then holds without a request.
    stack.emulator.setRollouts({ failingDeviceIds: [] });
    await stack.admin.devices.update(org.siteDevices[0], { groupId: null });
    await stack.admin.devices.update(org.siteDevices[0], { groupId: org.site });
    stack.emulator.advanceClock(1_000);
    const passed = await managed.update(declared("2.4.0"));
    expect(passed).toMatchObject({
      rolloutStatus: "passed",
      rolloutVersionId: org.versions["2.4.0"],
      rolloutSummary: expect.stringMatching(/^3 installed, 0 pending, 0 failed/),
    });
    expect((await managed.diff(declared("2.4.0"))).changes).toBe("none");
    await managed.read();
    expect((await managed.diff(declared("2.4.0"))).changes).toBe("none");
    expect(channel()?.version).toBe("2.4.0");

    // A portal move and back leaves the pass about 2.4.0; a move elsewhere the state missed does not keep it.
    await stack.admin.releases.setChannelVersion(org.appId, org.productionId, {
      versionId: org.versions["2.3.0"],
    });
    await managed.read();
    expect((await managed.diff(declared("2.4.0"))).changes).toBe("some");
    const moved = await managed.update(declared("2.4.0"));
    expect(moved).toMatchObject({ rolloutStatus: "passed", previousVersion: "2.3.0" });
    expect(channel()?.version).toBe("2.4.0");
  }, 60_000);

  it("no device counted is a failure that says what was counted and the fix, not a pass", async () => {
    const empty = await stack.admin.groups.create({ name: "Empty", parentId: null });
    await stack.admin.groups.configure(empty.id);
    await stack.admin.groups.addReleaseChannel(empty.id, org.productionId);
    const managed = await Managed.of(stack.plugin, "releaseChannelVersion", "empty");
    const gated = declared("2.4.1", { groupIds: [empty.id], timeoutSeconds: 60 });
    const started = Date.now();
    const error = await failure(managed.create(gated));
    expect(error.message).toMatch(
      new RegExp(
        `counted no device: it counts the devices of rollout.groupIds \\(${empty.id}\\) that the channel ` +
          `reaches, and it reaches none\\. A gate that watches no device cannot pass`,
      ),
    );
    expect(Date.now() - started).toBeLessThan(20_000); // at once, not at the timeout (60 s)
    expect(channel()?.version).toBe("2.4.1");
    await managed.recordPartialFailure(error, gated);
    expect(managed.outputs).toMatchObject({
      rolloutStatus: "failed",
      rolloutSummary: "0 installed, 0 pending, 0 failed",
    });
    expect((await managed.diff(gated)).changes).toBe("some");

    // In process, the same verdict is a RolloutGateError naming the property and the fix.
    const inProcess = await awaitRollout(
      stack.admin,
      { appId: org.appId, releaseChannelId: org.productionId, label: "Production" },
      "2.4.1",
      { share: 1, timeoutSeconds: 60, groupIds: [empty.id] },
    ).catch((e: unknown) => e);
    expect(inProcess).toBeInstanceOf(RolloutGateError);
    expect(inProcess).toMatchObject({
      kind: "ReleaseChannelVersion",
      property: "rollout",
      fix: expect.stringMatching(/^name in rollout.groupIds configured groups the channel is attached to/),
      count: { installed: 0, pending: 0, failed: 0, byGroup: {} },
    });
  }, 30_000);
});

// The documents do not say what a refusal for the rate limit carries: tested with Retry-After and without.
describe.each([
  { reading: "429 with Retry-After", noRetryAfter: false },
  { reading: "429 without Retry-After (strict)", noRetryAfter: true },
])("the gate's polls and the organization's request budget ($reading)", ({ noRetryAfter }) => {
  const LIMIT = 30;
  let stack: Stack;
  let org: Org;
  beforeAll(async () => {
    stack = await startStack({
      emulator: {
        seed: { devices: 4 },
        rollouts: { durationMs: 300 },
        rateLimit: { limit: LIMIT, windowMs: 60_000 },
        strict: { noRetryAfter },
      },
    });
    org = await organization(stack);
  });
  afterAll(() => stack.close());

  /** Spends the organization's window (the server counts per organization) down to `left` requests. */
  async function spendDownTo(left: number): Promise<void> {
    for (;;) {
      const response = await fetch(`${stack.emulator.baseUrl}/groups`, {
        headers: { authorization: `Bearer ${stack.emulator.tokens.admin}`, accept: "application/json" },
      });
      await response.arrayBuffer();
      if (Number(response.headers.get("x-ratelimit-remaining")) <= left) return;
    }
  }

  it("polls spend the shared budget; when it is spent the gate still fails at its deadline, not at the window's reset", async () => {
    stack.emulator.setRollouts({ stalledDeviceIds: [org.siteDevices[0]] });
    const managed = await Managed.of(stack.plugin, "releaseChannelVersion", "budget");
    const gated = {
      appId: org.appId,
      releaseChannelId: org.productionId,
      versionId: org.versions["2.4.0"],
      rollout: { share: 1, timeoutSeconds: 3, pollIntervalSeconds: 1, groupIds: [org.site] },
    };
    // Enough for the check, the move and a poll or two; not for the gate's 4 polls (2 requests each).
    await spendDownTo(8);
    stack.emulator.resetStats();
    const started = Date.now();
    const error = await failure(managed.create(gated));
    const elapsed = Date.now() - started;
    expect(error.message).toMatch(
      /did not reach 100 % installed of groups .* within 3 s: .*got no answer in time/,
    );
    // The deadline (3 s) plus at most one interval (1 s), and slack for a loaded machine; the window resets
    // about a minute after it opened (on main the gate ran 60.8 s).
    expect(elapsed).toBeGreaterThanOrEqual(3_000);
    expect(elapsed).toBeLessThan(20_000);
    const stats = stack.emulator.stats();
    expect(stats.byRoute[STATUSES_ROUTE] ?? 0).toBeLessThanOrEqual(4);
    // The throttle counted the polls against the budget: at most its one probe of a window others spent.
    expect(stats.byStatus["429"] ?? 0).toBeLessThanOrEqual(1);
    expect(stack.emulator.snapshot().releaseChannels.find((c) => c.id === org.productionId)?.version).toBe(
      "2.4.0",
    );
  }, 90_000);
});
