import * as fs from "node:fs";
import * as path from "node:path";

/** The repository root, whether the bench runs from its sources or from a compiled copy inside the repository. */
export function findRepoRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, "package.json");
    if (fs.existsSync(manifest) && JSON.parse(fs.readFileSync(manifest, "utf8")).name === "pulumi-devicemgmt")
      return dir;
    if (path.dirname(dir) === dir) throw new Error(`no pulumi-devicemgmt package.json above ${from}`);
  }
}
