// What the drift report costs an organization of 1000 users and 200 groups (20 folders, 180 configured sites
// with a release channel each): the requests the emulator counted, printed, with no 429. A count, not a time.
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { DeviceMgmtClient } from "../../provider/client";
import { EXIT } from "../../provider/drift/cli";
import { mapConcurrently } from "../../provider/export/read";
import { runDrift } from "./support";

const USERS = 1000;
const REGIONS = 19;
const SITES = 180;
const GROUPS = 1 + REGIONS + SITES;

let emulator: RunningEmulator;
/** The emulator's rate-limit clock runs this far ahead of the wall clock, so the report starts a fresh window. */
let clockAhead = 0;
let workDir: string;
let emptyState: string;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, now: () => Date.now() + clockAhead });
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "drift-cost-"));
  emptyState = path.join(workDir, "empty.json");
  fs.writeFileSync(emptyState, JSON.stringify({ version: 3, deployment: { resources: [] } }));
  const setup = new DeviceMgmtClient({
    baseUrl: emulator.baseUrl,
    apiToken: emulator.tokens.admin,
    requestsPerMinute: 100_000,
  });
  const roles = await setup.roles.all();
  const member = roles.find((r) => r.name === "Member")!.id;
  const viewer = roles.find((r) => r.name === "Group Viewer")!.id;
  const app = (await setup.apps.all()).find((a) => a.name === "Safety Briefing")!;
  const stable = (await setup.apps.releaseChannels(app.id).all())[0].id;
  const root = await setup.groups.create({ name: "Cost Company", parentId: null });
  const regions = await mapConcurrently(
    Array.from({ length: REGIONS }, (_, i) => i),
    16,
    (i) => setup.groups.create({ name: `Region ${i}`, parentId: root.id }),
    () => {},
  );
  const sites = await mapConcurrently(
    Array.from({ length: SITES }, (_, i) => i),
    16,
    async (i) => {
      const site = await setup.groups.create({ name: `Site ${i}`, parentId: regions[i % REGIONS].id });
      await setup.groups.configure(site.id);
      await setup.groups.addReleaseChannel(site.id, stable);
      return site;
    },
    () => {},
  );
  await mapConcurrently(
    Array.from({ length: USERS }, (_, i) => i),
    16,
    (i) =>
      setup.users.create({
        firstName: `Cost${i}`,
        lastName: "User",
        email: `cost.user${i}@acme.example`,
        defaultRoleId: member,
        groupRoles: [{ roleId: viewer, groupId: sites[i % SITES].id }],
      }),
    () => {},
  );
  expect(emulator.stats().byStatus["429"]).toBeUndefined();
  clockAhead += 61_000;
}, 300_000);

afterAll(async () => {
  await emulator?.close();
});

const env = () => ({ DEVICEMGMT_BASE_URL: emulator.baseUrl, DEVICEMGMT_API_TOKEN: emulator.tokens.readOnly });
const OWNER_ROUTES = ["GET /groups/{groupId}/release-channels", "GET /devices/{deviceId}/release-channels"];

test("users and groups: under one request per 20 objects, every object reported, no 429", async () => {
  emulator.resetStats();
  const run = await runDrift(workDir, ["--kinds", "user,group", "--format", "none", emptyState], env());
  const stats = emulator.stats();
  const objects = USERS + GROUPS;
  console.log(
    `drift report, users and groups: ${objects} objects (all unmanaged), ${stats.requests} requests ` +
      `(${(stats.requests / objects).toFixed(4)} per object): ${JSON.stringify(stats.byRoute)}`,
  );
  expect(run.code).toBe(EXIT.unmanagedAdmin);
  // Every seeded and generated user but the report's own, every group; the seeded Admins among them.
  expect(run.report.findings.filter((f) => f.kind === "group")).toHaveLength(GROUPS);
  expect(run.report.findings.filter((f) => f.kind === "user").length).toBeGreaterThanOrEqual(USERS);
  expect(stats.byStatus["429"]).toBeUndefined();
  expect(stats.writes).toBe(0);
  expect(stats.requests).toBeLessThan(objects / 20);
}, 120_000);

test("with release channels: one list per configured group and ungrouped device on top, no 429", async () => {
  emulator.resetStats();
  const run = await runDrift(workDir, ["--format", "none", emptyState], env());
  const stats = emulator.stats();
  const ownerLists = OWNER_ROUTES.reduce((n, route) => n + (stats.byRoute[route] ?? 0), 0);
  const devices = emulator.snapshot().devices;
  const ungrouped = devices.filter((d) => !d.groupId).length;
  const objects = USERS + GROUPS + SITES;
  console.log(
    `drift report, every kind: ${objects} objects, ${stats.requests} requests, of which ${ownerLists} lists of ` +
      `one owner's release channels (${SITES} configured groups, ${ungrouped} ungrouped devices) and ` +
      `${stats.requests - ownerLists} for everything else`,
  );
  expect(run.report.findings.filter((f) => f.kind === "groupReleaseChannel")).toHaveLength(SITES);
  expect(stats.byStatus["429"]).toBeUndefined();
  expect(stats.writes).toBe(0);
  // The API has no organization-wide list of attachments: each owner's list is read once, nothing more.
  expect(stats.byRoute[OWNER_ROUTES[0]]).toBe(SITES);
  expect(stats.byRoute[OWNER_ROUTES[1]] ?? 0).toBe(ungrouped);
  expect(stats.requests - ownerLists).toBeLessThan(objects / 20);
}, 120_000);
