// What `pulumi stack init` (a stack's config, its token encrypted) and `npm pack` write at the repository root
// is never committed by accident; a stack config file elsewhere is not ignored by these rules.
import { spawnSync } from "child_process";
import * as path from "path";

const repoRoot = path.resolve(__dirname, "../..");

/** Whether git ignores `file` (a path that need not exist), by the repository's .gitignore. */
function ignored(file: string): boolean {
  const result = spawnSync("git", ["check-ignore", "--quiet", "--no-index", file], { cwd: repoRoot });
  if (result.status !== 0 && result.status !== 1)
    throw new Error(`git check-ignore failed: ${result.stderr}`);
  return result.status === 0;
}

it("ignores the root's Pulumi.<stack>.yaml and npm pack's tarball, not the project file or files below", () => {
  expect(ignored("Pulumi.dev.yaml")).toBe(true);
  expect(ignored("Pulumi.production.yaml")).toBe(true);
  expect(ignored("pulumi-devicemgmt-0.1.0.tgz")).toBe(true);
  expect(ignored("Pulumi.yaml")).toBe(false);
  expect(ignored("examples/org/Pulumi.dev.yaml")).toBe(false);
  expect(ignored("test/fixtures/pulumi-devicemgmt-0.1.0.tgz")).toBe(false);
});
