// The example policy pack (examples/policy) reviewing a Pulumi YAML project on the provider plugin: the real CLI,
// the YAML language host and the plugin installed from its tarball, as test/plugin/yaml.test.ts runs them, with
// `--policy-pack examples/policy` (started through test/engine's policyPackLauncher: this CLI has no nodejs
// language host). The rules match the plugin's type tokens (`devicemgmt:index:<Kind>`) as they match the
// classes': a mandatory rule that fails stops the run before the resource it judges is created, and one that
// passes lets the project through. Every verdict is read from the engine's policy events, every effect from the
// organization through the emulator.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { DeviceMgmtClient } from "../../provider/client";
import { offlineEnvironment, readyPulumiCli } from "../../tools/pulumi-cli";
import { readyYamlHost } from "../../tools/pulumi-language-yaml";
import { installPlugin, packPlugin } from "../../tools/plugin";
import { policyPackLauncher } from "../engine";

const repoRoot = path.resolve(__dirname, "../..");
const OUTSIDE_ADMIN = "outside.admin@contractor.example";

/** A folder with a configured lab below it on a release channel, and an organization Admin from outside. */
const PROJECT = `name: devicemgmt-policy-yaml
runtime: yaml
config:
  channelId:
    type: string
variables:
  adminRoleId:
    fn::invoke:
      function: devicemgmt:getRole
      arguments:
        name: Admin
        type: organization
      return: id
resources:
  emea:
    type: devicemgmt:Group
    properties:
      name: Policy EMEA
  lab:
    type: devicemgmt:Group
    properties:
      name: Policy Lab
      parentId: \${emea.id}
      configured: true
  labChannel:
    type: devicemgmt:GroupReleaseChannel
    properties:
      groupId: \${lab.id}
      releaseChannelId: \${channelId}
  outsideAdmin:
    type: devicemgmt:User
    properties:
      firstName: Outside
      lastName: Admin
      email: ${OUTSIDE_ADMIN}
      defaultRoleId: \${adminRoleId}
`;

let emulator: RunningEmulator;
let dir: string;
let project: string;
let env: NodeJS.ProcessEnv;
let pulumiBinary: string;
let pack: string;
let ids: { adminRoleId: string; channelId: string; otherChannelId: string };

interface Run {
  code: number | null;
  output: string;
  violations: { policy: string; level: string; message: string; urn: string }[];
}

/** One CLI command in the project folder with the pack, its policy events read from the event log. */
function pulumi(args: string[], policyConfig?: object): Promise<Run> {
  const events = path.join(dir, `events-${Date.now()}.json`);
  const policy: string[] = [];
  if (policyConfig) {
    const file = path.join(dir, `policy-config-${Date.now()}.json`);
    fs.writeFileSync(file, JSON.stringify(policyConfig));
    policy.push("--policy-pack", pack, "--policy-pack-config", file, "--event-log", events);
  }
  return new Promise((resolve, reject) => {
    const child = spawn(pulumiBinary, [...args, ...policy, "--non-interactive"], { cwd: project, env });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      const violations = fs.existsSync(events)
        ? fs
            .readFileSync(events, "utf8")
            .split("\n")
            .filter(Boolean)
            .map(
              (line) =>
                (
                  JSON.parse(line) as {
                    policyEvent?: {
                      policyName: string;
                      enforcementLevel: string;
                      message: string;
                      resourceUrn?: string;
                    };
                  }
                ).policyEvent,
            )
            .filter((e) => e !== undefined)
            .map((e) => ({
              policy: e.policyName,
              level: e.enforcementLevel,
              message: e.message,
              urn: e.resourceUrn ?? "",
            }))
        : [];
      resolve({ code, output, violations });
    });
  });
}

async function pulumiOk(...args: string[]): Promise<Run> {
  const run = await pulumi(args);
  if (run.code !== 0) throw new Error(`pulumi ${args.join(" ")} exited ${run.code}:\n${run.output}`);
  return run;
}

/**
 * Every rule of the pack that needs config gets some (the CLI refuses a pack config missing a required field);
 * the two under test get `adminDomains` and the folder's channel, the others a config this project passes.
 */
function packConfig(adminDomains: string[], folderChannelId: string) {
  return {
    "devicemgmt-admin-domains": { adminRoleId: ids.adminRoleId, allowedDomains: adminDomains },
    "devicemgmt-max-admins": { adminRoleId: ids.adminRoleId, maxAdmins: 3 },
    "devicemgmt-folder-channel": { folderName: "Policy EMEA", channelId: folderChannelId },
    "devicemgmt-group-names": { pattern: "^[A-Z][A-Za-z0-9 ]+$" },
    "devicemgmt-migration-targets": { allowedSlugs: [] },
    "devicemgmt-site-device-tags": { siteTags: {} },
    "devicemgmt-production-from-beta": { productionChannelIds: [] },
  };
}

/** What the project makes, as a person would check it in the portal. */
function organization() {
  const snapshot = emulator.snapshot();
  const groups = snapshot.groups.filter((g) => g.name.startsWith("Policy "));
  const lab = groups.find((g) => g.name === "Policy Lab");
  return {
    groups: groups.map((g) => g.name).sort(),
    labChannels: snapshot.groupReleaseChannels
      .filter((a) => a.groupId === lab?.id)
      .map((a) => a.releaseChannelId),
    outsideAdmin: snapshot.users
      .filter((u) => u.email === OUTSIDE_ADMIN)
      .map((u) => u.accessControls.map((ac) => ac.roleName).join(",")),
  };
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "plugin-policy-"));
  pulumiBinary = readyPulumiCli().binary;
  env = {
    ...process.env,
    ...offlineEnvironment(dir, "plugin-policy-passphrase"),
    PULUMI_DEBUG_COMMANDS: "true",
  };
  delete env.DEVICEMGMT_API_TOKEN;
  delete env.DEVICEMGMT_BASE_URL;
  readyYamlHost();
  installPlugin(pulumiBinary, packPlugin(path.join(dir, "plugin")), env);
  pack = policyPackLauncher(path.join(repoRoot, "examples", "policy"), path.join(dir, "launcher"));

  const client = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
  const apps = await client.apps.all();
  const channels = await client.apps
    .releaseChannels(apps.find((a) => a.name === "Training Simulator")!.id)
    .all();
  ids = {
    adminRoleId: (await client.roles.all()).find((r) => r.name === "Admin" && r.type === "organization")!.id,
    channelId: channels.find((c) => c.name === "Production")!.id,
    otherChannelId: channels.find((c) => c.name === "Beta")!.id,
  };

  project = path.join(dir, "project");
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, "Pulumi.yaml"), PROJECT);
  await pulumiOk("stack", "init", "dev");
  await pulumiOk("config", "set", "devicemgmt:baseUrl", emulator.baseUrl);
  await pulumiOk("config", "set", "--secret", "devicemgmt:apiToken", emulator.tokens.admin);
  await pulumiOk("config", "set", "channelId", ids.channelId);
});

afterAll(async () => {
  await emulator?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const NOTHING = { groups: [], labChannels: [], outsideAdmin: [] };

describe("examples/policy on a YAML project through the provider plugin", () => {
  it("a stack rule follows the plugin's groups: a configured lab without the folder's channel fails the preview", async () => {
    const preview = await pulumi(["preview"], packConfig(["contractor.example"], ids.otherChannelId));
    expect(preview.code).not.toBe(0);
    expect(preview.violations).toEqual([
      {
        policy: "devicemgmt-folder-channel",
        level: "mandatory",
        message: expect.stringContaining(
          `Configured group "Policy Lab" (lab) lacks release channel ${ids.otherChannelId}.`,
        ),
        urn: expect.stringMatching(/::devicemgmt:index:Group::lab$/),
      },
    ]);
    expect(organization()).toEqual(NOTHING);
  });

  it("a failing mandatory rule on a plugin User stops it before it is created; the passing one says nothing", async () => {
    // No preview: the resource rule judges the User as the program registers it, before its step.
    const up = await pulumi(["up", "--yes", "--skip-preview"], packConfig(["acme.example"], ids.channelId));
    expect(up.code).not.toBe(0);
    expect(up.violations).toEqual([
      {
        policy: "devicemgmt-admin-domains",
        level: "mandatory",
        message: expect.stringContaining(
          `${OUTSIDE_ADMIN} would be an organization Admin, but Admins must have an address at acme.example.`,
        ),
        urn: expect.stringMatching(/::devicemgmt:index:User::outsideAdmin$/),
      },
    ]);
    expect(organization().outsideAdmin).toEqual([]);
  });

  it("with both rules passing, up creates the project and destroy removes it", async () => {
    const up = await pulumi(
      ["up", "--yes"],
      packConfig(["acme.example", "contractor.example"], ids.channelId),
    );
    expect(up.violations).toEqual([]);
    expect(up.code).toBe(0);
    expect(organization()).toEqual({
      groups: ["Policy EMEA", "Policy Lab"],
      labChannels: [ids.channelId],
      outsideAdmin: ["Admin"],
    });
    await pulumiOk("destroy", "--yes");
    expect(organization()).toEqual(NOTHING);
  });
});
