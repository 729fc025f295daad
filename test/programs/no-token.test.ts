// The README's Quick start with `devicemgmt:apiToken` left out, through the Pulumi CLI: the program stops at its
// first lookup with the documented "No API token" error, and nothing reaches the organization. The lookups and
// resources throw at the call (provider/connectionAtCall.ts) because a Node.js language host (~3.260, built from the
// engine's source) was seen to wait 10 minutes without a word on a rejection inside an `apply`. That host cannot
// run here (not installed; the Go module proxy answers 403 for it; this CLI build has none), so this runs the
// program inline (the Automation API is its host) and test/resources/connection-at-call.test.ts asserts the
// synchronous throw itself for every lookup and kind; that a throw is reported by every host is the premise.
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { createEngine, type Engine, type RunResult } from "../engine";
import * as dm from "../../provider";

const repoRoot = path.resolve(__dirname, "../..");

/** The README's Quick start program. */
function quickStart(): void {
  const admin = dm.getRoleOutput({ name: "Admin", type: "organization" });
  const groupAdmin = dm.getRoleOutput({ name: "Group Admin", type: "group" });
  const production = dm.getReleaseChannelOutput({ appName: "Training Simulator", channelName: "Production" });

  const emea = new dm.Group("emea", { name: "EMEA" });
  const berlin = new dm.Group("berlin", { name: "Berlin Lab", parentId: emea.id, configured: true });
  new dm.GroupReleaseChannel("berlin-sim", { groupId: berlin.id, releaseChannelId: production.id });
  new dm.User("emil", {
    firstName: "Emil",
    lastName: "Lindqvist",
    email: "emil@acme.example",
    defaultRoleId: admin.id,
    groupRoles: [{ roleId: groupAdmin.id, groupId: berlin.id }],
  });
}

let emulator: RunningEmulator;
let engine: Engine;
const saved = process.env.DEVICEMGMT_API_TOKEN;

beforeAll(async () => {
  // The inline program runs in this process: no token may come from its environment either.
  delete process.env.DEVICEMGMT_API_TOKEN;
  emulator = await startEmulator({ port: 0 });
  engine = await createEngine({
    cwd: repoRoot,
    project: "devicemgmt-no-token",
    config: { "devicemgmt:baseUrl": emulator.baseUrl },
  });
});
afterAll(async () => {
  if (saved !== undefined) process.env.DEVICEMGMT_API_TOKEN = saved;
  await engine?.close();
  await emulator?.close();
});

function expectRefusedBeforeAnything(result: RunResult): void {
  expect(result.ok).toBe(false);
  const programErrors = result.errors.filter((error) => error.op === "program");
  expect(programErrors.map((error) => error.message).join("\n")).toMatch(
    /No API token for devicemgmt.*devicemgmt:apiToken.*DEVICEMGMT_API_TOKEN.*connection: \{ apiToken \}/s,
  );
  expect(result.steps.create).toEqual([]);
  // Nothing was asked of the organization: the first lookup stopped the program before any request.
  expect(emulator.stats().requests).toBe(0);
}

it("preview and up of the Quick start without a token stop at once with the documented error", async () => {
  emulator.resetStats();
  expectRefusedBeforeAnything(await engine.preview(quickStart));
  expectRefusedBeforeAnything(await engine.up(quickStart));
  expect(engine.resources().filter((r) => r.type.includes("devicemgmt"))).toEqual([]);
});

it("a program of resources only (no lookup) stops at the first constructor, before any resource registers", async () => {
  emulator.resetStats();
  const result = await engine.up(() => {
    new dm.Group("emea", { name: "EMEA" });
  });
  expectRefusedBeforeAnything(result);
  expect(engine.resources().filter((r) => r.type.includes("devicemgmt"))).toEqual([]);
});
