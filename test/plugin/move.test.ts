// Moving a stack of the TypeScript classes to the provider plugin without touching the organization (issue #42
// item 8), the steps docs/plugin.md gives: `pulumi stack export` of the TypeScript stack, `devicemgmt-export
// --from-state` writing a Pulumi YAML program that imports each object by id, that program's first `up` on the
// real CLI with the plugin, a second `up` with no changes, and the TypeScript stack forgetting its resources
// (`pulumi state delete --all`, then `pulumi stack rm`). The organization is read through the emulator after each
// step: the same objects with the same ids, nothing written, deleted or duplicated.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parse } from "yaml";
import * as dm from "../../provider";
import { main as exportMain } from "../../provider/export/cli";
import { startEmulator, type OrgSnapshot, type RunningEmulator } from "../../emulator";
import { createEngine, type Engine } from "../engine";
import { CliFolder, pluginCli, previewSteps, type PluginCli } from "./cliProject";

const repoRoot = path.resolve(__dirname, "../..");

let emulator: RunningEmulator;
let dir: string;
let cli: PluginCli;
let typescript: Engine;
/** The organization as the TypeScript stack left it. */
let made: OrgSnapshot;
/** The TypeScript stack's resources: name → id. */
let managed: Record<string, string>;
let yamlStack: CliFolder;

const idsByName = (resources: { urn: string; type: string; id?: string }[], typePrefix: string) =>
  Object.fromEntries(
    resources.filter((r) => r.type.startsWith(typePrefix)).map((r) => [r.urn.split("::").pop(), r.id]),
  );

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "plugin-move-"));
  cli = pluginCli(dir, "plugin-move-passphrase");
  typescript = await createEngine({
    cwd: repoRoot,
    project: "ts-region",
    config: { "devicemgmt:baseUrl": emulator.baseUrl },
    secretConfig: { "devicemgmt:apiToken": emulator.tokens.admin },
  });
});

afterAll(async () => {
  await typescript?.close();
  await emulator?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("moving a TypeScript stack to the plugin", () => {
  it("the TypeScript stack makes a small organization", async () => {
    const result = await typescript.up(() => {
      const readOnly = dm.getRoleOutput({ name: "Read Only", type: "organization" });
      const groupViewer = dm.getRoleOutput({ name: "Group Viewer", type: "group" });
      const production = dm.getReleaseChannelOutput({
        appName: "Training Simulator",
        channelName: "Production",
      });
      const fjords = new dm.Group("fjords", { name: "Fjords" });
      const bergen = new dm.Group(
        "bergen-lab",
        { name: "Bergen Lab", parentId: fjords.id, configured: true },
        { protect: true },
      );
      new dm.GroupReleaseChannel("bergen-simulator", { groupId: bergen.id, releaseChannelId: production.id });
      new dm.User("ingrid", {
        firstName: "Ingrid",
        lastName: "Dahl",
        email: "ingrid.dahl@acme.example",
        defaultRoleId: readOnly.id,
        groupRoles: [{ roleId: groupViewer.id, groupId: bergen.id }],
      });
      new dm.Tag("lobby", { name: "bergen-lobby" });
      // Content: its source is relative to the TypeScript program's folder (here the repository).
      const welcome = new dm.File("welcome", {
        source: "examples/yaml/content/welcome.txt",
        path: "/sdcard/Docs",
      });
      new dm.GroupFile("bergen-welcome", { groupId: bergen.id, fileId: welcome.id });
      return Promise.resolve({});
    });
    expect(result.errors).toEqual([]);
    made = emulator.snapshot();
    managed = idsByName(
      typescript.checkpoint().deployment.resources as never,
      "pulumi-nodejs:dynamic/devicemgmt:",
    );
    expect(Object.keys(managed).sort()).toEqual([
      "bergen-lab",
      "bergen-simulator",
      "bergen-welcome",
      "fjords",
      "ingrid",
      "lobby",
      "welcome",
    ]);
  });

  it("devicemgmt-export --from-state writes a program that imports each object by id", async () => {
    const exported = path.join(dir, "ts-region.json");
    await typescript.saveState(exported);
    let stdout = "";
    let stderr = "";
    const code = await exportMain(
      ["--from-state", exported, "--out", path.join(dir, "yaml-region"), "--program-dir", repoRoot],
      {},
      { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) },
    );
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(stdout).toContain("7 resources, each imported by id");
    expect(stdout).toContain("pulumi state delete --all --force --yes");
    const program = fs.readFileSync(path.join(dir, "yaml-region", "Pulumi.yaml"), "utf8");
    expect(program).toContain("name: ts-region-yaml");
    // References where the TypeScript program had them, the stack's options kept, no hidden input.
    expect(program).toContain(`parentId: "\${fjords.id}"`);
    expect(program).toContain(
      `groupRoles: [{"groupId": "\${bergen-lab.id}", "roleId": "${groupViewerId()}"}]`,
    );
    expect(program).toMatch(/bergen-lab:\n(?:.*\n)*?\s+protect: true/);
    expect(program).not.toMatch(/__provider|__claimant|__organization|adoptId/);
    for (const id of Object.values(managed)) expect(program).toContain(`import: "${id}"`);
    // The YAML program, in another folder, names the same file to upload.
    const { resources } = parse(program) as {
      resources: Record<string, { properties: { source?: string } }>;
    };
    expect(path.resolve(dir, "yaml-region", resources.welcome.properties.source!)).toBe(
      path.join(repoRoot, "examples/yaml/content/welcome.txt"),
    );
  });

  it("the YAML stack's first up imports everything and writes nothing; a second up shows no changes", async () => {
    yamlStack = new CliFolder(cli, path.join(dir, "yaml-region"));
    await yamlStack.initStack("production", emulator.baseUrl, emulator.tokens.admin);
    emulator.resetStats();
    expect(previewSteps((await yamlStack.ok("preview", "--json")).stdout)).toEqual(
      Object.keys(managed)
        .map((name) => `import ${name}`)
        .sort(),
    );
    await yamlStack.ok("up", "--yes");
    await yamlStack.ok("up", "--yes", "--expect-no-changes");
    expect(emulator.stats().writes).toBe(0);
    expect(emulator.snapshot()).toEqual(made);
    expect(idsByName(await yamlStack.resources(), "devicemgmt:index:")).toEqual(managed);
  });

  it("the TypeScript stack forgets its resources without deleting them, and then manages nothing", async () => {
    emulator.resetStats();
    await typescript.cliCommand(["state", "delete", "--all", "--force", "--yes"]);
    expect(typescript.resources().filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/"))).toEqual([]);
    // A destroy of the old stack now has nothing to delete.
    const destroyed = await typescript.destroy();
    expect(destroyed.errors).toEqual([]);
    await typescript.cliCommand(["stack", "rm", "--yes"]);
    expect(emulator.stats().writes).toBe(0);
    expect(emulator.snapshot()).toEqual(made);
    // The YAML stack manages the organization as it is.
    await yamlStack.ok("up", "--yes", "--expect-no-changes");
    expect(emulator.snapshot()).toEqual(made);
  });
});

function groupViewerId(): string {
  return made.users.find((u) => u.email === "ingrid.dahl@acme.example")!.groupRoles[0].roleId;
}
