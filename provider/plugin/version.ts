import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

/**
 * The plugin's version: the package's (package.json above this file, from the sources or from dist/). The
 * engine compares it with the version the plugin was installed as, and the schema carries it.
 */
export function pluginVersion(): string {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, "package.json");
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version?: string };
    if (manifest.name === "pulumi-devicemgmt" && manifest.version) return manifest.version;
  }
  throw new Error(`no package.json of pulumi-devicemgmt above ${__dirname}`);
}
