// examples/yaml as a user runs it: a copy of the project folder, the real CLI (tools/pulumi-cli), the YAML language
// host (tools/pulumi-language-yaml) and the provider plugin installed into PULUMI_HOME from its tarball
// (tools/plugin), a file backend and the emulator. Each step is asserted on the organization through the API.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as dm from "../../provider";
import { startEmulator, type OrgSnapshot, type RunningEmulator } from "../../emulator";
import { offlineEnvironment, readyPulumiCli } from "../../tools/pulumi-cli";
import { readyYamlHost } from "../../tools/pulumi-language-yaml";
import { installPlugin, packPlugin } from "../../tools/plugin";
import { createEngine } from "../engine";
import { stateSizePerResource } from "../bench/stateSize";
import { holdsSecret } from "../fixtures/secrets";

const repoRoot = path.resolve(__dirname, "../..");
const PASSPHRASE = "yaml-example-passphrase";

let emulator: RunningEmulator;
let dir: string;
let project: string;
let env: NodeJS.ProcessEnv;
let pulumiBinary: string;
/** Everything every CLI run printed: no token may be in it. */
let printed = "";

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** One CLI command in the project folder, asynchronously: the emulator answers from this process meanwhile. */
function pulumiCommand(...args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(pulumiBinary, [...args, "--non-interactive"], { cwd: project, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      printed += stdout + stderr;
      resolve({ code, stdout, stderr });
    });
  });
}

async function pulumiOk(...args: string[]): Promise<Run> {
  const run = await pulumiCommand(...args);
  if (run.code !== 0)
    throw new Error(`pulumi ${args.join(" ")} exited ${run.code}:\n${run.stdout}\n${run.stderr}`);
  return run;
}

/** The region of examples/yaml as a person would compare it: names and places, not ids. */
function region(snapshot: OrgSnapshot) {
  const groups = new Map(snapshot.groups.map((g) => [g.id, g]));
  const nordics = snapshot.groups.filter(
    (g) => g.name === "Nordics" || g.parentId === findId(snapshot, "Nordics"),
  );
  return {
    groups: nordics
      .map(
        (g) =>
          `${g.parentId ? groups.get(g.parentId)?.name : "(root)"} > ${g.name}${g.isConfigured ? " [configured]" : ""}`,
      )
      .sort(),
    channels: snapshot.groupReleaseChannels
      .filter((a) => groups.get(a.groupId)?.name === "Stockholm Lab")
      .map((a) => a.releaseChannelId),
    users: snapshot.users
      .filter((u) => u.email === "astrid.berg@acme.example")
      .map((u) => `${u.firstName} ${u.lastName}: ${u.accessControls.map((ac) => ac.roleName).join(",")}`),
    tags: snapshot.tags.filter((t) => t.name === "stockholm-lobby").map((t) => t.name),
    // The welcome file, where it is on the lab's headsets.
    files: snapshot.groups
      .filter((g) => g.name === "Stockholm Lab")
      .flatMap((g) => g.fileIds.map((id) => snapshot.files.find((f) => f.id === id)))
      .map((f) => `${f?.location}/${f?.filename}`),
  };
}

const findId = (snapshot: OrgSnapshot, name: string) =>
  snapshot.groups.find((g) => g.name === name)?.id ?? "-";
const stagingGroups = () =>
  emulator
    .snapshot("acme-staging")
    .groups.filter((g) => g.name.startsWith("Nordics"))
    .map((g) => g.name);

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "yaml-example-"));
  pulumiBinary = readyPulumiCli().binary;
  // PULUMI_DEBUG_COMMANDS: `--event-log`, the engine's events as the Automation API reads them, is one of these.
  env = { ...process.env, ...offlineEnvironment(dir, PASSPHRASE), PULUMI_DEBUG_COMMANDS: "true" };
  delete env.DEVICEMGMT_API_TOKEN; // the stack's config is the only token
  delete env.DEVICEMGMT_BASE_URL;
  readyYamlHost(); // beside the CLI, where the CLI looks for its bundled language hosts
  installPlugin(pulumiBinary, packPlugin(path.join(dir, "plugin")), env);
  project = path.join(dir, "project");
  fs.cpSync(path.join(repoRoot, "examples", "yaml"), project, { recursive: true });
  await pulumiOk("stack", "init", "dev");
  await pulumiOk("config", "set", "devicemgmt:baseUrl", emulator.baseUrl);
  await pulumiOk("config", "set", "--secret", "devicemgmt:apiToken", emulator.tokens.multiOrgAdmin);
  await pulumiOk("config", "set", "stagingBaseUrl", emulator.baseUrl);
  await pulumiOk("config", "set", "--secret", "stagingApiToken", emulator.tokens.multiOrgAdminSecondary);
});

afterAll(async () => {
  await emulator?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const EXPECTED_REGION = {
  groups: ["(root) > Nordics", "Nordics > Stockholm Lab [configured]"],
  users: ["Astrid Berg: Read Only"],
  tags: ["stockholm-lobby"],
  files: ["/sdcard/Docs/welcome.txt"],
};

type CheckpointResources = Parameters<typeof stateSizePerResource>[0];

describe("examples/yaml on the real CLI with the provider plugin", () => {
  let afterUp: OrgSnapshot;
  let exported: CheckpointResources = [];

  it("preview refuses a bad provider setting, naming it and the fix", async () => {
    await pulumiOk("config", "set", "devicemgmt:requestsPerMinute", "0");
    const refused = await pulumiCommand("preview");
    await pulumiOk("config", "rm", "devicemgmt:requestsPerMinute");
    expect(refused.code).not.toBe(0);
    expect(refused.stdout + refused.stderr).toContain(
      'devicemgmt:requestsPerMinute must be a whole number of at least 1, got "0"',
    );
  });

  it("preview plans the region and writes nothing", async () => {
    const before = emulator.snapshot();
    const preview = await pulumiOk("preview", "--json");
    const steps = (JSON.parse(preview.stdout) as { steps: { op: string; urn: string }[] }).steps;
    expect(
      steps
        .filter((s) => s.op === "create")
        .map((s) => s.urn.split("::").pop())
        .sort(),
    ).toEqual(
      [
        "astrid",
        "devicemgmt-yaml-example-dev",
        "lobbyTag",
        "nordics",
        "stagingNordics",
        "staging",
        "stockholm",
        "stockholmSimulator",
        "stockholmWelcome",
        "welcome",
      ].sort(),
    );
    expect(emulator.snapshot()).toEqual(before);
  });

  it("up creates the region in the organization, and the staging folder in the other one", async () => {
    const events = path.join(dir, "up-events.json");
    await pulumiOk("up", "--yes", "--skip-preview", "--event-log", events);
    afterUp = emulator.snapshot();
    // The upload's progress is logged on the File, not on the stack.
    const diagnostics = fs
      .readFileSync(events, "utf8")
      .split("\n")
      .filter(Boolean)
      .map(
        (line) =>
          (JSON.parse(line) as { diagnosticEvent?: { urn?: string; message: string; severity: string } })
            .diagnosticEvent,
      )
      .filter((d) => d?.message.includes("uploaded"));
    expect(diagnostics.length).toBeGreaterThan(0);
    for (const diagnostic of diagnostics)
      expect(diagnostic).toMatchObject({ urn: expect.stringMatching(/::welcome$/), severity: "info" });
    const production = (
      await dm.getReleaseChannel(
        { appName: "Training Simulator", channelName: "Production" },
        { connection: { baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin } },
      )
    ).id;
    expect(region(afterUp)).toEqual({ ...EXPECTED_REGION, channels: [production] });
    // The explicit provider reached the staging organization, and only it.
    expect(stagingGroups()).toEqual(["Nordics (staging)"]);
    expect(afterUp.groups.map((g) => g.name)).not.toContain("Nordics (staging)");
  });

  it("a second up and a refresh change nothing, in the stack or the organization", async () => {
    emulator.resetStats();
    await pulumiOk("up", "--yes", "--expect-no-changes");
    await pulumiOk("refresh", "--yes", "--expect-no-changes");
    expect(emulator.stats().writes).toBe(0);
    expect(emulator.snapshot()).toEqual(afterUp);
  });

  it("the checkpoint and the CLI's output never hold a token in plain text", async () => {
    const checkpoint = (await pulumiOk("stack", "export")).stdout;
    const backend = fs.readdirSync(path.join(dir, "backend"), { recursive: true, encoding: "utf8" });
    const files = backend.map((f) => path.join(dir, "backend", f)).filter((f) => fs.statSync(f).isFile());
    for (const token of [emulator.tokens.multiOrgAdmin, emulator.tokens.multiOrgAdminSecondary]) {
      expect(holdsSecret(checkpoint, token)).toBe(false);
      for (const file of files) expect(holdsSecret(fs.readFileSync(file, "utf8"), token)).toBe(false);
      expect(holdsSecret(printed, token)).toBe(false);
    }
    const resources = (
      JSON.parse(checkpoint) as {
        deployment: { resources: (CheckpointResources[number] & { inputs?: object })[] };
      }
    ).deployment.resources;
    exported = resources;
    // Both providers' tokens are recorded, encrypted.
    const providers = resources.filter((r) => r.type === "pulumi:providers:devicemgmt");
    expect(providers).toHaveLength(2);
    for (const provider of providers) expect(JSON.stringify(provider.inputs)).toContain("ciphertext");
  });

  it("destroy removes the region from both organizations", async () => {
    await pulumiOk("destroy", "--yes");
    expect(region(emulator.snapshot())).toEqual({ groups: [], channels: [], users: [], tags: [], files: [] });
    expect(emulator.snapshot().files.filter((f) => f.filename === "welcome.txt")).toEqual([]);
    expect(stagingGroups()).toEqual([]);
  });

  it("the same region through the dynamic resources makes the same organization (state bytes per resource printed)", async () => {
    const engine = await createEngine({
      cwd: repoRoot,
      project: "yaml-example-dynamic-twin",
      config: { "devicemgmt:baseUrl": emulator.baseUrl },
      secretConfig: { "devicemgmt:apiToken": emulator.tokens.multiOrgAdmin },
    });
    try {
      const result = await engine.up(() => {
        const readOnly = dm.getRoleOutput({ name: "Read Only", type: "organization" });
        const production = dm.getReleaseChannelOutput({
          appName: "Training Simulator",
          channelName: "Production",
        });
        const nordics = new dm.Group("nordics", { name: "Nordics" });
        const stockholm = new dm.Group("stockholm", {
          name: "Stockholm Lab",
          parentId: nordics.id,
          configured: true,
        });
        new dm.GroupReleaseChannel("stockholmSimulator", {
          groupId: stockholm.id,
          releaseChannelId: production.id,
        });
        new dm.User("astrid", {
          firstName: "Astrid",
          lastName: "Berg",
          email: "astrid.berg@acme.example",
          defaultRoleId: readOnly.id,
        });
        new dm.Tag("lobbyTag", { name: "stockholm-lobby" });
        const welcome = new dm.File("welcome", {
          source: "examples/yaml/content/welcome.txt",
          path: "/sdcard/Docs",
        });
        new dm.GroupFile("stockholmWelcome", { groupId: stockholm.id, fileId: welcome.id });
        return Promise.resolve({ nordics: pulumi.output(nordics.id) });
      });
      expect(result.errors).toEqual([]);
      expect(region(emulator.snapshot())).toEqual(region(afterUp));
      const plugin = stateSizePerResource(exported.filter((r) => !r.urn.endsWith("::stagingNordics")));
      const dynamic = stateSizePerResource(engine.checkpoint().deployment.resources as never);
      // Measured, not asserted: the numbers go to the report (docs/plugin.md).
      console.log(
        `state bytes per resource — plugin (YAML): ${JSON.stringify(plugin)}; dynamic: ${JSON.stringify(dynamic)}`,
      );
      expect(plugin.resources).toBe(dynamic.resources);
      expect(plugin.provider).toBe(0);
      await engine.destroy();
    } finally {
      await engine.close();
    }
  });
});
