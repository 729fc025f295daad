// `pulumi import` and the `import` resource option on the real CLI with the provider plugin (issue #42 item 5): a
// region made outside Pulumi (two groups, a user with a group role, a release channel on the lab) is taken into
// YAML stacks. After each step the organization is read through the emulator: nothing written, nothing
// duplicated, the same ids; and the state records the objects as a user declares them.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parse } from "yaml";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { DeviceMgmtClient } from "../../provider/client";
import { holdsSecret } from "../fixtures/secrets";
import { CliFolder, pluginCli, previewSteps, type PluginCli, type StateResource } from "./cliProject";

const MISSING = "00000000-0000-4000-8000-000000000000";

let emulator: RunningEmulator;
let dir: string;
let cli: PluginCli;
/** The objects made outside Pulumi, and the ids a program finds them by. */
let made: {
  region: string;
  lab: string;
  user: string;
  channel: string;
  readOnly: string;
  groupViewer: string;
};

interface Recorded {
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
}

/** The package's resources of a stack by name: type, id and inputs. */
function byName(resources: StateResource[]): Record<string, Recorded> {
  return Object.fromEntries(
    resources
      .filter((r) => r.type.startsWith("devicemgmt:index:"))
      .map((r) => [r.urn.split("::").pop(), { type: r.type, id: r.id, inputs: r.inputs }]),
  );
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "plugin-import-"));
  cli = pluginCli(dir, "plugin-import-passphrase");
  const client = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
  const roles = await client.roles.all();
  const role = (name: string) => roles.find((r) => r.name === name)!.id;
  const region = await client.groups.create({ name: "Fjords", parentId: null });
  const lab = await client.groups.create({ name: "Bergen Lab", parentId: region.id });
  await client.groups.configure(lab.id);
  const channel = (
    await client.apps
      .releaseChannels((await client.apps.all()).find((a) => a.name === "Training Simulator")!.id)
      .all()
  ).find((c) => c.name === "Production")!.id;
  await client.groups.addReleaseChannel(lab.id, channel);
  const user = await client.users.create({
    firstName: "Ingrid",
    lastName: "Dahl",
    email: "ingrid.dahl@acme.example",
    defaultRoleId: role("Read Only"),
    groupRoles: [{ roleId: role("Group Viewer"), groupId: lab.id }],
  });
  made = {
    region: region.id,
    lab: lab.id,
    user: user.id,
    channel,
    readOnly: role("Read Only"),
    groupViewer: role("Group Viewer"),
  };
});

afterAll(async () => {
  await emulator?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("pulumi import into a YAML stack", () => {
  let project: CliFolder;
  let generated: string;
  let imported: Record<string, Recorded>;

  beforeAll(async () => {
    project = new CliFolder(cli, path.join(dir, "imported"));
    project.writeProject("name: imported-region\nruntime: yaml\n");
    await project.initStack("dev", emulator.baseUrl, emulator.tokens.admin);
  });

  it("imports a group, a user and a release-channel attachment by id, writing nothing", async () => {
    const before = emulator.snapshot();
    emulator.resetStats();
    const file = path.join(dir, "import.json");
    fs.writeFileSync(
      file,
      JSON.stringify({
        resources: [
          { type: "devicemgmt:index:Group", name: "fjords", id: made.region },
          { type: "devicemgmt:index:Group", name: "bergen", id: made.lab },
          { type: "devicemgmt:index:User", name: "ingrid", id: made.user },
          {
            type: "devicemgmt:index:GroupReleaseChannel",
            name: "bergenSimulator",
            id: `${made.lab}/${made.channel}`,
          },
        ],
      }),
    );
    await project.ok("import", "--file", file, "--out", "generated.yaml", "--protect=false", "--yes");
    expect(emulator.stats().writes).toBe(0);
    expect(emulator.snapshot()).toEqual(before);

    imported = byName(await project.resources());
    // The inputs a user declares (plus the organization the resource lives in, a hidden input).
    expect(imported).toEqual({
      fjords: {
        type: "devicemgmt:index:Group",
        id: made.region,
        inputs: { name: "Fjords", configured: false, __organization: before.organization.id },
      },
      bergen: {
        type: "devicemgmt:index:Group",
        id: made.lab,
        inputs: {
          name: "Bergen Lab",
          parentId: made.region,
          configured: true,
          __organization: before.organization.id,
        },
      },
      ingrid: {
        type: "devicemgmt:index:User",
        id: made.user,
        inputs: {
          firstName: "Ingrid",
          lastName: "Dahl",
          email: "ingrid.dahl@acme.example",
          defaultRoleId: made.readOnly,
          groupRoles: [{ roleId: made.groupViewer, groupId: made.lab }],
          invite: false,
          __organization: before.organization.id,
        },
      },
      bergenSimulator: {
        type: "devicemgmt:index:GroupReleaseChannel",
        id: `${made.lab}/${made.channel}`,
        inputs: { groupId: made.lab, releaseChannelId: made.channel, __organization: before.organization.id },
      },
    });
  });

  it("prints a program that refers to the imported parents by resource, not by id", () => {
    generated = fs.readFileSync(path.join(project.folder, "generated.yaml"), "utf8");
    const { resources } = parse(generated) as {
      resources: Record<string, { type: string; properties: object }>;
    };
    expect(resources.bergen.properties).toEqual({
      name: "Bergen Lab",
      parentId: "${fjords.id}",
      configured: true,
    });
    expect(resources.bergenSimulator.properties).toEqual({
      groupId: "${bergen.id}",
      releaseChannelId: made.channel,
    });
    expect(resources.ingrid.properties).toMatchObject({
      groupRoles: [{ roleId: made.groupViewer, groupId: "${bergen.id}" }],
    });
  });

  it("that program, run as is, shows no changes and changes nothing", async () => {
    project.writeProject(`name: imported-region\nruntime: yaml\n${generated}`);
    const before = emulator.snapshot();
    emulator.resetStats();
    await project.ok("preview", "--expect-no-changes");
    await project.ok("up", "--yes", "--expect-no-changes");
    await project.ok("refresh", "--yes", "--expect-no-changes");
    expect(emulator.stats().writes).toBe(0);
    expect(emulator.snapshot()).toEqual(before);
    // The same objects (a run records the inputs check gives, `parentId: null` of a root group among them).
    const ids = (state: Record<string, Recorded>) =>
      Object.fromEntries(Object.entries(state).map(([name, r]) => [name, `${r.type} ${r.id}`]));
    expect(ids(byName(await project.resources()))).toEqual(ids(imported));
  });

  it("keeps the token out of the state, the program and everything the CLI printed", async () => {
    const exported = (await project.ok("stack", "export")).stdout;
    for (const text of [exported, generated, cli.printed.join("\n")])
      expect(holdsSecret(text, emulator.tokens.admin)).toBe(false);
  });

  it("refuses an id the organization does not hold, naming it, and leaves the stack as it was", async () => {
    const before = await project.resources();
    const refused = await project.run("import", "devicemgmt:index:Group", "ghost", MISSING, "--yes");
    expect(refused.code).not.toBe(0);
    expect(refused.stdout + refused.stderr).toContain(
      `There is no Group with id "${MISSING}" in organization ${emulator.snapshot().organization.id}`,
    );
    expect(refused.stdout + refused.stderr).not.toContain("does not support importing");
    expect(await project.resources()).toEqual(before);
  });
});

describe("the import resource option in a YAML program", () => {
  /** The region as a user declares it: references, lookups, no default spelled out. */
  const program = (ids: { region: string; lab: string; user: string; attachment: string }) => `
name: adopted-region
runtime: yaml
variables:
  readOnly:
    fn::invoke:
      function: devicemgmt:getRole
      arguments: { name: Read Only, type: organization }
      return: id
  groupViewer:
    fn::invoke:
      function: devicemgmt:getRole
      arguments: { name: Group Viewer, type: group }
      return: id
  simulatorProduction:
    fn::invoke:
      function: devicemgmt:getReleaseChannel
      arguments: { appName: Training Simulator, channelName: Production }
      return: id
resources:
  fjords:
    type: devicemgmt:Group
    properties: { name: Fjords }
    options: { import: ${ids.region} }
  bergen:
    type: devicemgmt:Group
    properties: { name: Bergen Lab, parentId: "\${fjords.id}", configured: true }
    options: { import: ${ids.lab} }
  bergenSimulator:
    type: devicemgmt:GroupReleaseChannel
    properties: { groupId: "\${bergen.id}", releaseChannelId: "\${simulatorProduction}" }
    options: { import: ${ids.attachment} }
  ingrid:
    type: devicemgmt:User
    properties:
      firstName: Ingrid
      lastName: Dahl
      email: ingrid.dahl@acme.example
      defaultRoleId: \${readOnly}
      groupRoles:
        - { roleId: "\${groupViewer}", groupId: "\${bergen.id}" }
    options: { import: ${ids.user} }
`;

  it("imports the objects on the first up, and a second up shows no changes; nothing is written", async () => {
    const project = new CliFolder(cli, path.join(dir, "adopted"));
    project.writeProject(
      program({
        region: made.region,
        lab: made.lab,
        user: made.user,
        attachment: `${made.lab}/${made.channel}`,
      }),
    );
    await project.initStack("dev", emulator.baseUrl, emulator.tokens.admin);
    const before = emulator.snapshot();
    emulator.resetStats();
    expect(previewSteps((await project.ok("preview", "--json")).stdout)).toEqual(
      ["import bergen", "import bergenSimulator", "import fjords", "import ingrid"].sort(),
    );
    await project.ok("up", "--yes");
    await project.ok("up", "--yes", "--expect-no-changes");
    expect(emulator.stats().writes).toBe(0);
    expect(emulator.snapshot()).toEqual(before);
    const state = byName(await project.resources());
    expect(Object.fromEntries(Object.entries(state).map(([name, r]) => [name, r.id]))).toEqual({
      fjords: made.region,
      bergen: made.lab,
      bergenSimulator: `${made.lab}/${made.channel}`,
      ingrid: made.user,
    });
  });

  it("refuses an id the organization does not hold at preview, naming it", async () => {
    const project = new CliFolder(cli, path.join(dir, "ghost"));
    project.writeProject(
      `name: ghost\nruntime: yaml\nresources:\n  ghost:\n    type: devicemgmt:Group\n` +
        `    properties: { name: Ghost }\n    options: { import: ${MISSING} }\n`,
    );
    await project.initStack("dev", emulator.baseUrl, emulator.tokens.admin);
    const refused = await project.run("preview");
    expect(refused.code).not.toBe(0);
    expect(refused.stdout + refused.stderr).toContain(`There is no Group with id "${MISSING}"`);
  });
});
