/**
 * The plugin runs the built package (`require("pulumi-devicemgmt/runtime")` resolves to dist/), so a bench or
 * soak run after a source change without `npm run build` would measure the old code.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { findRepoRoot } from "./repoRoot";

const repoRoot = findRepoRoot(__dirname);

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (entry.name.endsWith(".ts")) newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

export function assertFreshBuild(): void {
  const built = path.join(repoRoot, "dist/provider/runtime.js");
  const builtAt = fs.existsSync(built) ? fs.statSync(built).mtimeMs : 0;
  if (newestSource(path.join(repoRoot, "provider")) > builtAt) {
    throw new Error(
      "provider/ has changed since the last build, and the plugin runs dist/: run `npm run build` first.",
    );
  }
}
