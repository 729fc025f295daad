/**
 * The Pulumi YAML language host (`pulumi-language-yaml`) the YAML project tests run: the version pinned in
 * `go.mod` beside this file, built from the Go module proxy into the cache tools/pulumi-cli uses, once. The CLI
 * finds it where release archives ship it, beside the `pulumi` binary: a link in the CLI's folder (tools/pulumi-cli's
 * cliRoot) points at the build. Nothing is downloaded at run time, and no PATH entry is needed (the CLI warns about
 * a bundled plugin found on PATH, and refuses to `plugin install` one).
 *
 * The host has its own module (it needs github.com/pulumi/pulumi/pkg/v3 v3.206.0, the CLI v3.274.1): its
 * go.mod here was made by `go get -tool github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml@<version>`.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readlinkSync, rmSync, symlinkSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { cliRoot } from "../pulumi-cli";
import { goBuildInto, toolCache } from "../goBuild";

// From the sources (ts-node, jest) go.mod is beside this file; from the bench's build folder it is three up.
const MODULE_DIR = existsSync(join(__dirname, "go.mod"))
  ? __dirname
  : resolve(__dirname, "../../../tools/pulumi-language-yaml");
const HOST_MODULE = "github.com/pulumi/pulumi-yaml";
const HOST_MAIN = `${HOST_MODULE}/cmd/pulumi-language-yaml`;
const VERSION_VARIABLE = `${HOST_MODULE}/pkg/version.Version`;
export const YAML_HOST = "pulumi-language-yaml";

/** The pinned version, as go.mod requires it (e.g. "v1.25.0"). */
export function pinnedYamlVersion(): string {
  const goMod = readFileSync(join(MODULE_DIR, "go.mod"), "utf8");
  const match = goMod.match(/^\s*github\.com\/pulumi\/pulumi-yaml (v\d+\.\d+\.\d+)\b/m);
  if (!match)
    throw new Error(`tools/pulumi-language-yaml/go.mod does not require ${HOST_MODULE} at a release`);
  return match[1];
}

/** `<cache>/pulumi-language-yaml-<version>-<platform>-<arch>`, beside the CLI's folder (tools/pulumi-cli). */
export function yamlHostRoot(version = pinnedYamlVersion()): string {
  return toolCache(`${YAML_HOST}-${version}-${process.platform}-${process.arch}`);
}

export interface YamlHost {
  /** The build, in its own cache folder. */
  binary: string;
  /** The link beside the pinned CLI's `pulumi` that the CLI runs. */
  besideCli: string;
  version: string;
  source: "cache" | "built";
}

type Log = (line: string) => void;

function build(version: string, output: string, log: Log): void {
  log(
    `pulumi-language-yaml: building ${version} from the Go module proxy (${HOST_MAIN}, pinned by ` +
      `tools/pulumi-language-yaml/go.mod) into ${dirname(output)}; the first build downloads about 200 modules ` +
      `and compiles for several minutes`,
  );
  goBuildInto(output, {
    cwd: MODULE_DIR,
    args: ["-trimpath", "-ldflags", `-s -w -X ${VERSION_VARIABLE}=${version}`, HOST_MAIN],
    label: "pulumi-language-yaml",
    log,
  });
}

/** Links the build beside the CLI's binary (the CLI's folder is made by tools/pulumi-cli; made here if absent). */
function placeBesideCli(binary: string): string {
  const binDir = join(cliRoot(), "bin");
  const link = join(binDir, YAML_HOST);
  mkdirSync(binDir, { recursive: true });
  const current = existsSync(link) ? readlinkSync(link) : undefined;
  if (current !== binary) {
    rmSync(link, { force: true });
    symlinkSync(binary, link);
  }
  return link;
}

/**
 * The host, made ready: the cached build (a build is renamed into place only when complete), else a build; linked
 * beside the pinned CLI either way.
 */
export function ensureYamlHost(log: Log = (line) => process.stderr.write(`${line}\n`)): YamlHost {
  const version = pinnedYamlVersion();
  const binDir = join(yamlHostRoot(version), "bin");
  const binary = join(binDir, YAML_HOST);
  if (existsSync(binary)) return { binary, besideCli: placeBesideCli(binary), version, source: "cache" };
  if (spawnSync("go", ["version"], { encoding: "utf8" }).status !== 0)
    throw new Error(
      `pulumi-language-yaml: no ${binary} and no Go toolchain to build it: install Go 1.24.7 or newer ` +
        `(https://go.dev/dl/)`,
    );
  mkdirSync(binDir, { recursive: true });
  rmSync(binary, { force: true });
  build(version, binary, log);
  return { binary, besideCli: placeBesideCli(binary), version, source: "built" };
}

/** The host ensureYamlHost made ready, without building: for tests run after `npm run pulumi-language-yaml`. */
export function readyYamlHost(): YamlHost {
  const version = pinnedYamlVersion();
  const binary = join(yamlHostRoot(version), "bin", YAML_HOST);
  const besideCli = join(cliRoot(), "bin", YAML_HOST);
  if (!existsSync(binary) || !existsSync(besideCli) || readlinkSync(besideCli) !== binary)
    throw new Error(
      `no ${besideCli} linked to ${binary}: run \`npm run pulumi-language-yaml\` first (it builds the pinned host)`,
    );
  return { binary, besideCli, version, source: "cache" };
}
