// Issue 39, item 5: an organization that outgrew one stack, exported as several (`devicemgmt-export --split`)
// and managed by them. examples/org is built on the emulator (plus a trainer with roles in both regions), split
// at its regions (EMEA, Americas: depth 2), and each program is run as its own project and stack on the real
// Pulumi CLI, shared first, then the regions, then cross-region. Each adopts its part without a write, a second
// `up` of each changes nothing, the organization is unchanged, and `devicemgmt-drift` given every stack's export
// finds nothing unmanaged — and names an object a further stack declares a second time.
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { startEmulator, type OrgSnapshot, type RunningEmulator } from "../../emulator";
import { DeviceMgmtClient } from "../../provider/client";
import * as dm from "../../provider";
import { EXIT } from "../../provider/drift/cli";
import { declareOrganization } from "../../examples/org/organization";
import { DEFAULT_SITE_DEVICES } from "../../examples/org/sites";
import { createEngine, type Engine } from "../engine";
import { brief, runDrift } from "../drift/support";
import { changes, generatedProgram, runExport, stackConfig, type Exported } from "./support";

const repoRoot = path.resolve(__dirname, "../..");
const PROJECT = "acme-org";
const ORDER = ["shared", "acme-training-americas", "acme-training-emea", "cross-region"];

let emulator: RunningEmulator;
let workDir: string;
let exportDir: string;
let exported: Exported;
let orgBefore: OrgSnapshot;
const engines: Engine[] = [];
const stacks: Record<string, Engine> = {};

/** The write requests the emulator received since its stats were reset, by route. */
const writes = () =>
  Object.fromEntries(Object.entries(emulator.stats().byRoute).filter(([route]) => !route.startsWith("GET ")));

async function engineFor(project: string, cwd: string, config: Record<string, string>): Promise<Engine> {
  const engine = await createEngine({
    cwd,
    project,
    stack: "production",
    config,
    secretConfig: { "devicemgmt:apiToken": emulator.tokens.multiOrgAdmin },
  });
  engines.push(engine);
  return engine;
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, quiet: true });
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "devicemgmt-split-"));
  exportDir = path.join(workDir, PROJECT);
  const admin = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.multiOrgAdmin });
  const loaner = (await admin.devices.all()).find((d) => d.name === "Headset 08")!;
  const example = await engineFor("devicemgmt-example-org", repoRoot, {
    "devicemgmt:baseUrl": emulator.baseUrl,
  });
  const built = await example.up(() =>
    declareOrganization({
      loanerDeviceId: loaner.id,
      stagingSlug: "acme-staging",
      demoDeviceName: "Headset 01",
      emailDomain: "acme.example",
      siteDevices: DEFAULT_SITE_DEVICES,
      kioskPin: pulumi.secret("73914"),
    }),
  );
  expect(built.errors).toEqual([]);
  // A trainer for both regions: the one user neither region can declare alone.
  const groups = await admin.groups.all();
  const roles = await admin.roles.all();
  const roleId = (name: string) => roles.find((r) => r.name === name)!.id;
  const groupId = (name: string) => groups.find((g) => g.name === name)!.id;
  await admin.users.create({
    firstName: "Rosa",
    lastName: "Roaming",
    email: "rosa.roaming@acme.example",
    defaultRoleId: roleId("Read Only"),
    groupRoles: [
      { roleId: roleId("Group Viewer"), groupId: groupId("Berlin Lab") },
      { roleId: roleId("Group Viewer"), groupId: groupId("Austin Lab") },
    ],
  });
  orgBefore = emulator.snapshot();
  exported = await runExport(["--split", "--split-depth", "2"], exportDir, PROJECT, {
    DEVICEMGMT_BASE_URL: emulator.baseUrl,
    DEVICEMGMT_API_TOKEN: emulator.tokens.multiOrgAdmin,
  });
  expect(exported.stderr).not.toMatch(/error/i);
  expect(exported.code).toBe(0);
  // Each program folder is a project: the plugin loads the SDK and the provider from its node_modules.
  for (const folder of ORDER) {
    fs.symlinkSync(path.join(repoRoot, "node_modules"), path.join(exportDir, folder, "node_modules"));
  }
});

afterAll(async () => {
  for (const engine of engines) await engine.close();
  await emulator?.close();
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

it("writes one folder per program and a README with the order, shared first and cross-region last", () => {
  expect(fs.readdirSync(exportDir).sort()).toEqual(["README.md", ...ORDER].sort());
  for (const folder of ORDER) {
    expect(fs.readdirSync(path.join(exportDir, folder))).toEqual(
      expect.arrayContaining([
        "index.ts",
        "Pulumi.yaml",
        "Pulumi.production.yaml",
        "README.md",
        "package.json",
      ]),
    );
    expect(fs.readFileSync(path.join(exportDir, folder, "Pulumi.yaml"), "utf8")).toContain(
      `name: "${PROJECT}-${folder}"`,
    );
  }
  const readme = exported.files["README.md"];
  const at = ORDER.map((folder) => readme.indexOf(`(cd ${folder} `));
  expect([...at].sort((a, b) => a - b)).toEqual(at);
  expect(exported.stdout).toMatch(/^Wrote 4 programs/);
  // The uploaded content is the organization's: downloaded beside the shared program only.
  expect(fs.existsSync(path.join(exportDir, "shared", "content"))).toBe(true);
  expect(fs.existsSync(path.join(exportDir, "acme-training-emea", "content"))).toBe(false);
  const index = (folder: string) => fs.readFileSync(path.join(exportDir, folder, "index.ts"), "utf8");
  expect(index("cross-region")).toMatch(/new dm\.User\(\s*"rosa-roaming",/);
  expect(index("acme-training-emea")).toMatch(/new dm\.Group\(\s*"london-warehouse",/);
  expect(index("acme-training-emea")).toContain(`dm.getGroupOutput({ name: "Acme Training" })`);
});

it("adopts, over all its programs, exactly the objects the single program adopts, each once", async () => {
  const adoptIn = (dir: string, project: string) =>
    Object.values(
      JSON.parse(stackConfig(path.join(dir, "Pulumi.production.yaml"))[`${project}:adopt`]) as Record<
        string,
        string
      >,
    );
  const single = path.join(workDir, "single");
  const whole = await runExport([], single, PROJECT, {
    DEVICEMGMT_BASE_URL: emulator.baseUrl,
    DEVICEMGMT_API_TOKEN: emulator.tokens.multiOrgAdmin,
  });
  expect(whole.code).toBe(0);
  const split = ORDER.flatMap((folder) => adoptIn(path.join(exportDir, folder), `${PROJECT}-${folder}`));
  expect(split.length).toBeGreaterThan(30);
  expect(new Set(split).size).toBe(split.length);
  expect(split.sort()).toEqual(adoptIn(single, PROJECT).sort());
});

it("each stack adopts its part, in order, writing only its experiences' settings as they are, and a second up of each changes nothing", async () => {
  emulator.resetStats();
  for (const folder of ORDER) {
    const dir = path.join(exportDir, folder);
    const config = stackConfig(path.join(dir, "Pulumi.production.yaml"));
    const adopt = JSON.parse(config[`${PROJECT}-${folder}:adopt`] ?? "{}") as Record<string, string>;
    const engine = await engineFor(`${PROJECT}-${folder}`, dir, {
      ...config,
      // The kiosk's PIN, as the generated README tells its owner to set it.
      ...(folder === "acme-training-emea"
        ? { [`${PROJECT}-${folder}:londonWarehouseAdminPin`]: "73914" }
        : {}),
    });
    stacks[folder] = engine;
    const first = await engine.up(generatedProgram(dir));
    expect({ folder, ...changes(first) }).toMatchObject({
      folder,
      errors: [],
      update: [],
      replace: [],
      delete: [],
    });
    const adopted = first.steps.create.filter((s) => s.name in adopt);
    expect(Object.fromEntries(adopted.map((s) => [s.name, s.id]))).toEqual(adopt);
  }
  // An experience is its site's one configuration, with no id to adopt: its create sets the same settings
  // again (the organization's snapshot shows nothing changed). Every other object is adopted without a write.
  expect(writes()).toEqual({
    "POST /groups/{groupId}/headset-experience/arborxr-home": 1,
    "POST /groups/{groupId}/headset-experience/arborxr-kiosk": 1,
  });
  expect(emulator.snapshot()).toEqual(orgBefore);

  emulator.resetStats();
  for (const folder of ORDER) {
    const again = await stacks[folder].up(generatedProgram(path.join(exportDir, folder)));
    expect({ folder, ...changes(again) }).toEqual({
      folder,
      errors: [],
      create: [],
      update: [],
      replace: [],
      delete: [],
    });
  }
  expect(writes()).toEqual({});
  expect(emulator.snapshot()).toEqual(orgBefore);
});

it("devicemgmt-drift with every stack's export finds nothing unmanaged, and names an object a further stack declares too", async () => {
  const files: string[] = [];
  for (const folder of ORDER) {
    const file = path.join(workDir, `${folder}.json`);
    await stacks[folder].saveState(file);
    files.push(file);
  }
  const env = { DEVICEMGMT_BASE_URL: emulator.baseUrl, DEVICEMGMT_API_TOKEN: emulator.tokens.multiOrgAdmin };
  const clean = await runDrift(workDir, files, env);
  const unmanaged = clean.report.findings.filter((f) => f.category === "unmanaged").map(brief);
  expect(unmanaged).toEqual([]);
  expect(clean.report.findings.map(brief)).toEqual([]);
  expect(clean.code).toBe(EXIT.clean);

  // A further stack that adopts Berlin Lab, which the EMEA stack declares: both now make it theirs.
  const berlin = stacks["acme-training-emea"].resource("berlin-lab");
  const extra = await engineFor("acme-berlin-extra", repoRoot, { "devicemgmt:baseUrl": emulator.baseUrl });
  const up = await extra.up(() => {
    new dm.Group("berlin-again", {
      name: "Berlin Lab",
      parentId: berlin.outputs.parentId as string,
      configured: true,
      adoptId: berlin.id as string,
    });
  });
  expect(up.errors).toEqual([]);
  const extraFile = path.join(workDir, "extra.json");
  await extra.saveState(extraFile);
  const twice = await runDrift(workDir, [...files, extraFile], env);
  expect(twice.report.findings.map(brief)).toEqual([expect.stringMatching(/^claimed group .*Berlin Lab/)]);
  expect(twice.code).toBe(EXIT.found);
});
