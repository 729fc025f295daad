// The Go SDK generated from the schema the real CLI gets from the installed plugin (`pulumi package get-schema`):
// it compiles, and it keeps a resource's connection secret as the kind declares (Go's generator writes no
// replace-on-change options; the plugin's diff asks for those replacements itself).
import { execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { offlineEnvironment, readyPulumiCli } from "../../tools/pulumi-cli";
import { installPlugin, packPlugin } from "../../tools/plugin";
import {
  buildGoProgram,
  buildGoSdk,
  ensurePythonEnvironment,
  ensureSdkGenerator,
  generateGoSdk,
  installPythonSdk,
  PYTHON_PROGRAM,
} from "../../tools/sdk";
import { startEmulator, type RunningEmulator } from "../../emulator";

let dir: string;
let emulator: RunningEmulator;
let sdk: string;
let env: NodeJS.ProcessEnv;
let schemaFile: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "sdk-"));
  emulator = await startEmulator({ port: 0 });
});
afterAll(async () => {
  await emulator?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** A program's step (`up [name]`, `destroy`), asynchronously: the emulator answers from this process. */
function runProgram(command: string[], ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command[0], [...command.slice(1), ...args], { cwd: dir, env });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`${args.join(" ")}: ${out}`))));
  });
}

it("generates a Go SDK that compiles and keeps the declarations' secrets", () => {
  const pulumi = readyPulumiCli().binary;
  env = { ...process.env, ...offlineEnvironment(dir, "go-program-passphrase") };
  installPlugin(pulumi, packPlugin(path.join(dir, "plugin")), env);
  schemaFile = path.join(dir, "schema.json");
  fs.writeFileSync(
    schemaFile,
    execFileSync(pulumi, ["package", "get-schema", "devicemgmt", "--non-interactive"], { env, cwd: dir }),
  );
  sdk = path.join(dir, "sdk");
  generateGoSdk(ensureSdkGenerator(), schemaFile, sdk);
  buildGoSdk(sdk);
  const source = (name: string) => fs.readFileSync(path.join(sdk, "go", "devicemgmt", name), "utf8");
  expect(source("group.go")).toContain('pulumi.AdditionalSecretOutputs([]string{\n\t\t"connection",\n\t})');
  expect(source("group.go")).toContain("args.Connection = pulumi.ToSecret(args.Connection)");
  expect(source("group.go")).toContain('ctx.RegisterResource("devicemgmt:index:Group"');
  expect(source("getGroup.go")).toContain('ctx.Invoke("devicemgmt:index:getGroup"');
  // A cold build of the generator takes minutes (Go's cache warm from tools/pulumi-cli: about one).
}, 900_000);

it("runs a Go program on the SDK through the Go Automation API: create, change, destroy", async () => {
  const binary = path.join(dir, "organization");
  buildGoProgram(sdk, binary);
  env = {
    ...env,
    PULUMI_CLI_ROOT: readyPulumiCli().root,
    DEVICEMGMT_BASE_URL: emulator.baseUrl,
    DEVICEMGMT_API_TOKEN: emulator.tokens.admin,
  };
  const groups = () =>
    emulator
      .snapshot()
      .groups.filter((g) => g.name.startsWith("Go "))
      .map((g) => ({ id: g.id, name: g.name, configured: g.isConfigured }))
      .sort((a, b) => a.name.localeCompare(b.name));
  const labId = (await runProgram([binary], "up", "Go Folder")).trim().split("\n").pop();
  const created = groups();
  expect(created.map(({ name, configured }) => ({ name, configured }))).toEqual([
    { name: "Go Folder", configured: false },
    { name: "Go Folder Lab", configured: true },
  ]);
  expect(created[1].id).toBe(labId);
  expect(emulator.snapshot().tags.map((t) => t.name)).toContain("go-sdk");
  await runProgram([binary], "up", "Go Renamed");
  // Renamed in place: the same objects.
  expect(groups()).toEqual([
    { id: created[0].id, name: "Go Renamed", configured: false },
    { id: created[1].id, name: "Go Renamed Lab", configured: true },
  ]);
  await runProgram([binary], "destroy");
  expect(groups()).toEqual([]);
  expect(emulator.snapshot().tags.map((t) => t.name)).not.toContain("go-sdk");
}, 600_000);

it("runs a Python program on the generated Python SDK through the Python Automation API", async () => {
  const python = ensurePythonEnvironment();
  installPythonSdk(ensureSdkGenerator(), python, schemaFile, path.join(dir, "python-sdk"));
  env = {
    ...env,
    PULUMI_CLI_ROOT: readyPulumiCli().root,
    DEVICEMGMT_BASE_URL: emulator.baseUrl,
    DEVICEMGMT_API_TOKEN: emulator.tokens.admin,
  };
  const program = [python, PYTHON_PROGRAM];
  const groups = () =>
    emulator
      .snapshot()
      .groups.filter((g) => g.name.startsWith("Py "))
      .map((g) => ({ id: g.id, name: g.name, configured: g.isConfigured }))
      .sort((a, b) => a.name.localeCompare(b.name));
  const labId = (await runProgram(program, "up", "Py Folder")).trim().split("\n").pop();
  const created = groups();
  expect(created.map(({ name, configured }) => ({ name, configured }))).toEqual([
    { name: "Py Folder", configured: false },
    { name: "Py Folder Lab", configured: true },
  ]);
  expect(created[1].id).toBe(labId);
  await runProgram(program, "up", "Py Renamed");
  expect(groups()).toEqual([
    { id: created[0].id, name: "Py Renamed", configured: false },
    { id: created[1].id, name: "Py Renamed Lab", configured: true },
  ]);
  await runProgram(program, "destroy");
  expect(groups()).toEqual([]);
  expect(emulator.snapshot().tags.map((t) => t.name)).not.toContain("python-sdk");
}, 600_000);
