/**
 * The Pulumi CLI this repository runs (tests, demo, bench): the version pinned in `go.mod` beside this file,
 * built from the Go module proxy into a cache outside the work tree, or a `pulumi` already on PATH at that
 * version or newer. Nothing is downloaded at run time: the dynamic-provider plugin script comes from the
 * installed `@pulumi/pulumi` package and sits beside the binary, where the CLI looks for it first.
 *
 * The npm `pulumi` package's wrapper in node_modules/.bin downloads a CLI when it runs, so a `pulumi` under a
 * node_modules folder is never used.
 */
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { goBuildInto, toolCache } from "../goBuild";
import { delimiter, dirname, join, resolve } from "node:path";

// From the sources (ts-node, jest) go.mod is beside this file; from the bench's build folder it is three up.
const MODULE_DIR = existsSync(join(__dirname, "go.mod"))
  ? __dirname
  : resolve(__dirname, "../../../tools/pulumi-cli");
const CLI_PACKAGE = "github.com/pulumi/pulumi/pkg/v3";
const CLI_MAIN = `${CLI_PACKAGE}/cmd/pulumi`;
const VERSION_VARIABLE = "github.com/pulumi/pulumi/sdk/v3/go/common/version.Version";
const PLUGIN_SCRIPT = "pulumi-resource-pulumi-nodejs";

/** The pinned version, as go.mod requires it (e.g. "v3.274.1"). */
export function pinnedVersion(): string {
  const goMod = readFileSync(join(MODULE_DIR, "go.mod"), "utf8");
  const match = goMod.match(/^\s*github\.com\/pulumi\/pulumi\/pkg\/v3 (v\d+\.\d+\.\d+)\b/m);
  if (!match) throw new Error(`tools/pulumi-cli/go.mod does not require ${CLI_PACKAGE} at a release version`);
  return match[1];
}

/**
 * Where the CLI lives: `<cache>/bin/pulumi` with the plugin script beside it. DEVICEMGMT_PULUMI_CACHE moves the
 * cache; the default is per user (XDG_CACHE_HOME or ~/.cache), per version and per platform.
 */
export function cliRoot(version = pinnedVersion()): string {
  return toolCache(`pulumi-cli-${version}-${process.platform}-${process.arch}`);
}

type Log = (line: string) => void;

function versionOf(binary: string): string | undefined {
  const result = spawnSync(binary, ["version"], {
    encoding: "utf8",
    timeout: 30_000,
    env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" },
  });
  const line = result.status === 0 ? result.stdout.trim() : "";
  return /^v?\d+\.\d+\.\d+/.test(line) ? line : undefined;
}

/** a ≥ b for versions like v3.274.1 (pre-release suffixes count as the release they precede, i.e. lower). */
export function atLeast(a: string, b: string): boolean {
  const parse = (v: string) => {
    const [core, pre] = v.replace(/^v/, "").split(/-(.*)/s);
    return { parts: core.split(".").map(Number), pre: pre !== undefined };
  };
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < 3; i++) if (x.parts[i] !== y.parts[i]) return (x.parts[i] ?? 0) > (y.parts[i] ?? 0);
  return !x.pre || y.pre;
}

/** A `pulumi` on PATH at `version` or newer, leaving out every node_modules folder (the npm wrapper downloads). */
function pulumiOnPath(version: string): { binary: string; version: string } | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (!dir || dir.split(/[\\/]/).includes("node_modules")) continue;
    const binary = join(dir, "pulumi");
    if (!existsSync(binary)) continue;
    const found = versionOf(binary);
    if (found && atLeast(found, version)) return { binary, version: found };
  }
  return undefined;
}

/** The dynamic-provider plugin script of the installed SDK (the same script the CLI's archive ships). */
function pluginScript(): string {
  return join(dirname(require.resolve("@pulumi/pulumi/package.json")), PLUGIN_SCRIPT);
}

function placePluginScript(binDir: string): void {
  const target = join(binDir, PLUGIN_SCRIPT);
  copyFileSync(pluginScript(), `${target}.tmp`);
  chmodSync(`${target}.tmp`, 0o755);
  renameSync(`${target}.tmp`, target);
}

function goAvailable(): boolean {
  return spawnSync("go", ["version"], { encoding: "utf8", env: process.env }).status === 0;
}

function build(version: string, output: string, log: Log): void {
  log(
    `pulumi-cli: building pulumi ${version} from the Go module proxy (${CLI_MAIN}, pinned by tools/pulumi-cli/go.mod) ` +
      `into ${dirname(output)}; the first build downloads about 300 modules and compiles for several minutes`,
  );
  goBuildInto(output, {
    cwd: MODULE_DIR,
    args: [
      "-trimpath",
      "-tags",
      "osusergo,grpcnotrace",
      "-ldflags",
      `-s -w -X ${VERSION_VARIABLE}=${version}`,
      CLI_MAIN,
    ],
    label: "pulumi-cli",
    log,
  });
}

export interface PulumiCli {
  /** The folder holding bin/pulumi and the plugin script: `PulumiCommand.get({ root })`. */
  root: string;
  binary: string;
  version: string;
  /** Where it came from: "cache", "built" or "path". */
  source: "cache" | "built" | "path";
}

/**
 * The CLI, made ready: the cached build when it answers the pinned version, else a `pulumi` on PATH at that
 * version or newer (linked into the cache folder, beside the plugin script), else a build with Go.
 */
export function ensurePulumiCli(log: Log = (line) => process.stderr.write(`${line}\n`)): PulumiCli {
  const version = pinnedVersion();
  const root = cliRoot(version);
  const binDir = join(root, "bin");
  const binary = join(binDir, "pulumi");
  mkdirSync(binDir, { recursive: true });
  placePluginScript(binDir);

  const cached = existsSync(binary) ? versionOf(binary) : undefined;
  if (cached && atLeast(cached, version)) return { root, binary, version: cached, source: "cache" };

  const onPath = pulumiOnPath(version);
  if (onPath) {
    rmSync(binary, { force: true });
    symlinkSync(onPath.binary, binary);
    log(`pulumi-cli: using ${onPath.binary} (${onPath.version}) from PATH`);
    return { root, binary, version: onPath.version, source: "path" };
  }
  if (!goAvailable())
    throw new Error(
      `pulumi-cli: no Pulumi CLI ${version} or newer on PATH and no Go toolchain to build it: install Go 1.25 or ` +
        `newer (https://go.dev/dl/), or the Pulumi CLI (https://www.pulumi.com/docs/install/)`,
    );
  rmSync(binary, { force: true });
  build(version, binary, log);
  const built = versionOf(binary);
  if (built !== version)
    throw new Error(`pulumi-cli: the built ${binary} answers "${built}", not ${version}`);
  return { root, binary, version, source: "built" };
}

/** The CLI the last ensurePulumiCli made ready, without building: for tests and tools run after it. */
export function readyPulumiCli(): PulumiCli {
  const version = pinnedVersion();
  const root = cliRoot(version);
  const binary = join(root, "bin", "pulumi");
  const found =
    existsSync(binary) && existsSync(join(root, "bin", PLUGIN_SCRIPT)) ? versionOf(binary) : undefined;
  if (!found)
    throw new Error(`no Pulumi CLI in ${root}: run \`npm run pulumi-cli\` first (it builds or finds one)`);
  return { root, binary, version: found, source: "cache" };
}

/**
 * The environment of every `pulumi` process: a file backend and PULUMI_HOME in `folder`, a passphrase secrets
 * provider, and nothing fetched (no update check, no plugin acquisition). `node` ≥ 22 first on PATH: the plugin
 * script runs `node` from PATH.
 */
export function offlineEnvironment(folder: string, passphrase: string): Record<string, string> {
  const backend = join(folder, "backend");
  mkdirSync(backend, { recursive: true });
  return {
    PULUMI_HOME: join(folder, "pulumi-home"),
    PULUMI_BACKEND_URL: `file://${backend}`,
    PULUMI_CONFIG_PASSPHRASE: passphrase,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PATH: [dirname(process.execPath), process.env.PATH ?? ""].join(delimiter),
  };
}
