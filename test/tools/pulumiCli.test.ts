// How the repository finds its Pulumi CLI (tools/pulumi-cli): the pinned version, a newer `pulumi` on PATH
// taken as it is, an older one or the npm wrapper under node_modules never used. Fake `pulumi` scripts stand in
// for the CLI here; nothing is built.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { atLeast, cliRoot, ensurePulumiCli, pinnedVersion } from "../../tools/pulumi-cli";

let folder: string;
const saved = { PATH: process.env.PATH, cache: process.env.DEVICEMGMT_PULUMI_CACHE };

/** A fake `pulumi` in `dir` answering `version` with `version`, and leaving a mark when it runs. */
function fakePulumi(dir: string, version: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "pulumi");
  writeFileSync(file, `#!/bin/sh\ntouch "${dir}/ran"\necho ${version}\n`);
  chmodSync(file, 0o755);
  return file;
}

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "pulumi-cli-test-"));
  process.env.DEVICEMGMT_PULUMI_CACHE = join(folder, "cache");
});

afterEach(() => {
  process.env.PATH = saved.PATH;
  if (saved.cache === undefined) delete process.env.DEVICEMGMT_PULUMI_CACHE;
  else process.env.DEVICEMGMT_PULUMI_CACHE = saved.cache;
  rmSync(folder, { recursive: true, force: true });
});

test("the pinned version is the one tools/pulumi-cli/go.mod requires of pkg/v3 and of sdk/v3", () => {
  const goMod = readFileSync(join(__dirname, "../../tools/pulumi-cli/go.mod"), "utf8");
  expect(pinnedVersion()).toMatch(/^v3\.\d+\.\d+$/);
  expect(goMod).toContain(`github.com/pulumi/pulumi/pkg/v3 ${pinnedVersion()}`);
  expect(goMod).toContain(`github.com/pulumi/pulumi/sdk/v3 ${pinnedVersion()}`);
});

test("versions compare by number, a pre-release below its release", () => {
  expect(atLeast("v3.274.1", "v3.274.1")).toBe(true);
  expect(atLeast("v3.280.0", "v3.274.1")).toBe(true);
  expect(atLeast("v3.274.0", "v3.274.1")).toBe(false);
  expect(atLeast("v3.99.0", "v3.274.1")).toBe(false);
  expect(atLeast("v3.274.1-alpha.1", "v3.274.1")).toBe(false);
});

test("a newer pulumi on PATH is used (linked beside the plugin script), the npm wrapper under node_modules never runs", () => {
  const wrapperDir = join(folder, "node_modules", ".bin");
  fakePulumi(wrapperDir, "v3.999.0");
  const newer = fakePulumi(join(folder, "usr-bin"), "v3.300.0");
  process.env.PATH = [wrapperDir, join(folder, "usr-bin"), saved.PATH].join(":");
  const cli = ensurePulumiCli(() => undefined);
  expect(cli).toMatchObject({ source: "path", version: "v3.300.0", root: cliRoot() });
  expect(realpathSync(cli.binary)).toBe(realpathSync(newer));
  expect(existsSync(join(cli.root, "bin", "pulumi-resource-pulumi-nodejs"))).toBe(true);
  expect(existsSync(join(wrapperDir, "ran"))).toBe(false);
});

test("with only an older pulumi and no Go, it refuses and says what to install", () => {
  fakePulumi(join(folder, "old"), "v3.100.0");
  mkdirSync(join(folder, "empty"));
  process.env.PATH = [join(folder, "old"), join(folder, "empty")].join(":");
  expect(() => ensurePulumiCli(() => undefined)).toThrow(
    new RegExp(
      `no Pulumi CLI ${pinnedVersion()} or newer on PATH and no Go toolchain to build it: install Go`,
    ),
  );
});
