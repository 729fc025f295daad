// The Go SDK generated from the schema the real CLI gets from the installed plugin (`pulumi package get-schema`):
// it compiles, and it keeps a resource's connection secret as the kind declares (Go's generator writes no
// replace-on-change options; the plugin's diff asks for those replacements itself).
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { offlineEnvironment, readyPulumiCli } from "../../tools/pulumi-cli";
import { installPlugin, packPlugin } from "../../tools/plugin";
import { buildGoSdk, ensureSdkGenerator, generateGoSdk } from "../../tools/sdk-go";

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "sdk-go-"));
});
afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

it("generates a Go SDK that compiles and keeps the declarations' secrets", () => {
  const pulumi = readyPulumiCli().binary;
  const env = { ...process.env, ...offlineEnvironment(dir, "unused") };
  installPlugin(pulumi, packPlugin(path.join(dir, "plugin")), env);
  const schemaFile = path.join(dir, "schema.json");
  fs.writeFileSync(
    schemaFile,
    execFileSync(pulumi, ["package", "get-schema", "devicemgmt", "--non-interactive"], { env, cwd: dir }),
  );
  const sdk = path.join(dir, "sdk");
  generateGoSdk(ensureSdkGenerator(), schemaFile, sdk);
  buildGoSdk(sdk);
  const source = (name: string) => fs.readFileSync(path.join(sdk, "go", "devicemgmt", name), "utf8");
  expect(source("group.go")).toContain('pulumi.AdditionalSecretOutputs([]string{\n\t\t"connection",\n\t})');
  expect(source("group.go")).toContain("args.Connection = pulumi.ToSecret(args.Connection)");
  expect(source("group.go")).toContain('ctx.RegisterResource("devicemgmt:index:Group"');
  expect(source("getGroup.go")).toContain('ctx.Invoke("devicemgmt:index:getGroup"');
  // A cold build of the generator takes minutes (Go's cache warm from tools/pulumi-cli: about one).
}, 900_000);
