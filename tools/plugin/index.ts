/**
 * The provider plugin as the CLI installs a third-party plugin: a tarball holding `pulumi-resource-devicemgmt`,
 * a launcher that runs Node on the built plugin entry (dist/provider/plugin/main.js), installed with
 * `pulumi plugin install resource devicemgmt <version> --file <tarball>` into PULUMI_HOME. Nothing is fetched:
 * the launcher names this machine's Node and the package's built files by absolute path, so the tarball is for
 * this machine (docs/plugin.md).
 */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pluginVersion } from "../../provider/plugin/version";

export const PLUGIN_NAME = "devicemgmt";
export const PLUGIN_BINARY = `pulumi-resource-${PLUGIN_NAME}`;

// From the sources (ts-node, jest) the repository is two up; from a build folder under it, three.
const ROOT = existsSync(join(__dirname, "../../package.json"))
  ? resolve(__dirname, "../..")
  : resolve(__dirname, "../../..");

/** The built plugin entry of this repository (`npm run build` makes it). */
export function builtEntry(): string {
  const entry = join(ROOT, "dist/provider/plugin/main.js");
  if (!existsSync(entry)) throw new Error(`no ${entry}: run \`npm run build\` first`);
  return entry;
}

const quoted = (path: string) => {
  if (path.includes("'")) throw new Error(`cannot write a launcher for a path with a quote: ${path}`);
  return `'${path}'`;
};

export interface PackedPlugin {
  tarball: string;
  version: string;
}

/**
 * Writes `<outDir>/pulumi-resource-devicemgmt-v<version>-<platform>-<arch>.tar.gz`: the launcher, running `node`
 * (this process's, Node 22 or newer) on `entry`.
 */
export function packPlugin(
  outDir: string,
  { entry = builtEntry(), node = process.execPath, version = pluginVersion() } = {},
): PackedPlugin {
  mkdirSync(outDir, { recursive: true });
  const folder = mkdtempSync(join(outDir, "plugin-"));
  try {
    const launcher = join(folder, PLUGIN_BINARY);
    writeFileSync(launcher, `#!/bin/sh\nexec ${quoted(node)} ${quoted(entry)} "$@"\n`);
    chmodSync(launcher, 0o755);
    const arch = process.arch === "x64" ? "amd64" : process.arch;
    const tarball = join(outDir, `${PLUGIN_BINARY}-v${version}-${process.platform}-${arch}.tar.gz`);
    execFileSync("tar", ["-czf", tarball, "-C", folder, PLUGIN_BINARY]);
    return { tarball, version };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** `pulumi plugin install resource devicemgmt <version> --file <tarball>`, into `env`'s PULUMI_HOME. */
export function installPlugin(pulumi: string, packed: PackedPlugin, env: NodeJS.ProcessEnv): void {
  execFileSync(
    pulumi,
    [
      "plugin",
      "install",
      "resource",
      PLUGIN_NAME,
      packed.version,
      "--file",
      packed.tarball,
      "--non-interactive",
    ],
    { env, stdio: ["ignore", "pipe", "pipe"] },
  );
}
