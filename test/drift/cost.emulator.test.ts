// What the drift report costs an organization of 1000 users and 200 groups (20 folders, 180 configured sites
// with a release channel each): the requests the emulator counted, printed, with no 429. A count, not a time.
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { DeviceMgmtClient } from "../../provider/client";
import { EXIT } from "../../provider/drift/cli";
import { mapConcurrently } from "../../provider/framework";
import { runDrift, stackExport } from "./support";

const USERS = 1000;
const REGIONS = 19;
const SITES = 180;
const GROUPS = 1 + REGIONS + SITES;
/** Tags of the catalogue, besides the seeded ones: each reported unmanaged, read in one pass of list pages. */
const TAGS = 250;

let emulator: RunningEmulator;
/** The emulator's rate-limit clock runs this far ahead of the wall clock, so the report starts a fresh window. */
let clockAhead = 0;
let workDir: string;
let emptyState: string;
let siteIds: string[];

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
  await mapConcurrently(
    Array.from({ length: TAGS }, (_, i) => i),
    16,
    (i) => setup.tags.create(`cost-tag-${i}`),
    () => {},
  );
  siteIds = sites.map((s) => s.id);
  expect(emulator.stats().byStatus["429"]).toBeUndefined();
  clockAhead += 61_000;
}, 300_000);

afterAll(async () => {
  await emulator?.close();
});

const env = () => ({ DEVICEMGMT_BASE_URL: emulator.baseUrl, DEVICEMGMT_API_TOKEN: emulator.tokens.readOnly });
const OWNER_ROUTES = [
  "GET /groups/{groupId}/release-channels",
  "GET /devices/{deviceId}/release-channels",
  "GET /devices/{deviceId}/files",
  "GET /devices/{deviceId}/videos",
];

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

test("every kind: one list per configured group and ungrouped device on top, no 429", async () => {
  emulator.resetStats();
  const run = await runDrift(workDir, ["--format", "none", emptyState], env());
  const stats = emulator.stats();
  const ownerLists = OWNER_ROUTES.reduce((n, route) => n + (stats.byRoute[route] ?? 0), 0);
  const devices = emulator.snapshot().devices;
  const ungrouped = devices.filter((d) => !d.groupId).length;
  const tags = run.report.findings.filter((f) => f.kind === "tag").length;
  const objects = USERS + GROUPS + SITES + tags;
  console.log(
    `drift report, every kind: ${objects} objects, ${stats.requests} requests, of which ${ownerLists} lists of ` +
      `one owner's release channels, files or videos (${SITES} configured groups, ${ungrouped} ungrouped ` +
      `devices) and ${stats.requests - ownerLists} for everything else: ${JSON.stringify(stats.byRoute)}`,
  );
  expect(run.report.findings.filter((f) => f.kind === "groupReleaseChannel")).toHaveLength(SITES);
  expect(tags).toBeGreaterThanOrEqual(TAGS);
  expect(stats.byStatus["429"]).toBeUndefined();
  expect(stats.writes).toBe(0);
  // The API has no organization-wide list of attachments: each owner's list is read once, nothing more.
  expect(stats.byRoute[OWNER_ROUTES[0]]).toBe(SITES);
  for (const route of OWNER_ROUTES.slice(1)) expect(stats.byRoute[route] ?? 0).toBe(ungrouped);
  // The catalogue's tags in one pass of list pages (100 a page).
  expect(stats.byRoute["GET /tags"]).toBe(Math.ceil(tags / 100));
  expect(stats.requests - ownerLists).toBeLessThan(objects / 20);
}, 120_000);

test("managed experiences, tag sets and channel versions: one GET per experience (no list in the API), the rest from list pages", async () => {
  const reader = new DeviceMgmtClient({
    baseUrl: emulator.baseUrl,
    apiToken: emulator.tokens.admin,
    requestsPerMinute: 100_000,
  });
  const [apps, files, videos] = await Promise.all([
    reader.apps.all(),
    reader.files.all(),
    reader.videos.all(),
  ]);
  const channels = (await Promise.all(apps.map((a) => reader.apps.releaseChannels(a.id).all()))).flat();
  const tagSets = [
    ...apps.map((a) => ["app", a.id, a.tags] as const),
    ...files.map((f) => ["file", f.id, f.tags] as const),
    ...videos.map((v) => ["video", v.id, v.tags] as const),
  ];
  const file = path.join(workDir, "managed.json");
  fs.writeFileSync(
    file,
    stackExport("cost", [
      ...siteIds.map((groupId) => ({
        type: "HeadsetExperience",
        id: groupId,
        props: { groupId, mode: "default-home" },
      })),
      ...tagSets.map(([ownerType, ownerId, tags]) => ({
        type: "TagSet",
        id: `${ownerType}/${ownerId}`,
        props: { ownerType, ownerId, tags: tags ?? [] },
      })),
      ...channels.map((rc) => ({
        type: "ReleaseChannelVersion",
        id: `${rc.app.id}/${rc.id}`,
        props: {
          appId: rc.app.id,
          releaseChannelId: rc.id,
          versionId: rc.version.id,
          version: rc.version.version,
        },
      })),
    ]),
  );
  clockAhead += 61_000;
  emulator.resetStats();
  const run = await runDrift(
    workDir,
    ["--kinds", "headsetExperience,tagSet,releaseChannelVersion", "--format", "none", file],
    env(),
  );
  const stats = emulator.stats();
  const managed = SITES + tagSets.length + channels.length;
  const perExperience = stats.byRoute["GET /groups/{groupId}/headset-experience"] ?? 0;
  console.log(
    `drift report, ${managed} managed experiences, tag sets and channel versions: ${stats.requests} requests, ` +
      `of which ${perExperience} experience reads (${SITES} managed) and ${stats.requests - perExperience} for ` +
      `everything else: ${JSON.stringify(stats.byRoute)}`,
  );
  expect(run.code).not.toBe(EXIT.failed);
  // Tag sets and channel versions as they were: nothing changed.
  expect(run.report.findings.filter((f) => f.kind !== "headsetExperience")).toEqual([]);
  expect(stats.byStatus["429"]).toBeUndefined();
  expect(stats.writes).toBe(0);
  expect(perExperience).toBe(SITES);
  // Tag sets and channel versions from the owners' list pages, read once each: no request per resource.
  expect(stats.byRoute).toEqual({
    "GET /current-organization": 1,
    "GET /current-user": 1,
    "GET /groups": Math.ceil(GROUPS / 100),
    "GET /devices": 1,
    "GET /groups/{groupId}/headset-experience": SITES,
    "GET /apps": 1,
    "GET /apps/{appId}/release-channels": apps.length,
    "GET /files": 1,
    "GET /videos": 1,
  });
}, 120_000);
