// The example CI workflows' commands (examples/ci) run by the Pulumi CLI and the real plugin against the
// emulator: the drift job's `pulumi preview --refresh --expect-no-changes` (read-only token) and the deploy
// job's `pulumi up --refresh` (write token), both with the token in DEVICEMGMT_API_TOKEN as the workflows set
// it. Each asserts what the job reports and the organization afterwards.
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { createEngine, type Engine, type RunResult } from "../engine";
import { DeviceMgmtClient } from "../../provider/client";
import { Group, User } from "../../provider";

const repoRoot = path.resolve(__dirname, "../..");

let emulator: RunningEmulator;
let engine: Engine;
let adminRole: string;

/** The job step's environment: the token only in the environment, as the workflows pass it. */
const job = (token: string) => ({ env: { DEVICEMGMT_API_TOKEN: token } });

/** The drift job's command: `pulumi preview --refresh --expect-no-changes`, with the read-only token. */
const driftJob = () => ({ refresh: true, expectNoChanges: true, ...job(emulator.tokens.readOnly) });

/** What the preview plans: `--expect-no-changes` fails the job when it plans any create, update, replace or delete. */
const plannedChanges = (result: RunResult) =>
  [...result.steps.create, ...result.steps.update, ...result.steps.replace, ...result.steps.delete].map(
    (s) => `${s.kind} ${s.name}`,
  );

const program = () => () => {
  const lab = new Group("lab", { name: "Berlin Lab" });
  new User("emil", {
    firstName: "Emil",
    lastName: "Lindqvist",
    email: "emil@acme.example",
    defaultRoleId: adminRole,
    groupRoles: [],
  });
  return { labId: lab.id };
};

beforeEach(async () => {
  emulator = await startEmulator({ port: 0 });
  const admin = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
  adminRole = (await admin.roles.all()).find((r) => r.name === "Admin")!.id;
  engine = await createEngine({ cwd: repoRoot, config: { "devicemgmt:baseUrl": emulator.baseUrl } });
  const first = await engine.up(program(), job(emulator.tokens.admin));
  expect(first.errors).toEqual([]);
});
afterEach(async () => {
  await engine?.close();
  await emulator?.close();
});

const portalRename = async () => {
  const admin = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
  await admin.groups.update(engine.resource("lab").id!, { name: "Berlin Lab (portal)", parentId: null });
};

describe("drift job: pulumi preview --refresh --expect-no-changes (read-only token)", () => {
  test("no drift: the refresh reads everything, finds nothing, and the preview plans no change", async () => {
    const result = await engine.preview(program(), driftJob());
    expect(result.errors).toEqual([]);
    expect(result.refreshSteps!.same.map((s) => s.name).sort()).toEqual(["emil", "lab"]);
    expect(result.refreshSteps!.update).toEqual([]);
    expect(plannedChanges(result)).toEqual([]);
  });

  test("a portal rename: the job fails naming the group, and the preview saves nothing", async () => {
    await portalRename();
    const before = engine.resource("lab").outputs;
    const result = await engine.preview(program(), driftJob());
    // `--expect-no-changes` fails the job once the preview plans a change (the CLI exits non-zero).
    expect(result.ok).toBe(false);
    expect(result.errors.map((e) => e.message)).toEqual([
      expect.stringContaining("no changes were expected"),
    ]);
    expect(result.output).toMatch(/~ .*lab.* update/);
    expect(result.refreshSteps!.update.map((s) => s.name)).toEqual(["lab"]);
    expect(plannedChanges(result)).toEqual(["update lab"]);
    expect(result.steps.update[0].changedValues).toEqual({
      name: { old: "Berlin Lab (portal)", new: "Berlin Lab" },
    });
    expect(engine.resource("lab").outputs).toEqual(before); // a preview's refresh is not saved
    expect(
      emulator
        .snapshot()
        .groups.filter((g) => g.name.startsWith("Berlin Lab"))
        .map((g) => g.name),
    ).toEqual(["Berlin Lab (portal)"]);
  });
});

describe("deploy job: pulumi up --refresh (write token)", () => {
  test("a portal rename is read, then put back by the update; the next drift job is clean", async () => {
    await portalRename();
    const labId = engine.resource("lab").id;
    const result = await engine.up(program(), { refresh: true, ...job(emulator.tokens.admin) });
    expect(result.errors).toEqual([]);
    expect(result.refreshSteps!.update.map((s) => s.name)).toEqual(["lab"]);
    expect(result.steps.update.map((s) => s.name)).toEqual(["lab"]);
    expect(
      emulator
        .snapshot()
        .groups.filter((g) => g.id === labId)
        .map((g) => g.name),
    ).toEqual(["Berlin Lab"]);
    expect(emulator.snapshot().users.filter((u) => u.email === "emil@acme.example")).toHaveLength(1);

    const drift = await engine.preview(program(), driftJob());
    expect(drift.errors).toEqual([]);
    expect(plannedChanges(drift)).toEqual([]);
  });

  test("an object deleted in the portal is read as gone and created again, once", async () => {
    const admin = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
    await admin.groups.delete(engine.resource("lab").id!);
    const result = await engine.up(program(), { refresh: true, ...job(emulator.tokens.admin) });
    expect(result.errors).toEqual([]);
    expect(result.refreshSteps!.delete.map((s) => s.name)).toEqual(["lab"]);
    expect(result.steps.create.map((s) => s.name)).toEqual(["lab"]);
    expect(emulator.snapshot().groups.filter((g) => g.name === "Berlin Lab")).toHaveLength(1);
  });
});
