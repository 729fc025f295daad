/**
 * What the tools that build Go binaries share (tools/pulumi-cli, tools/pulumi-language-yaml, tools/sdk): the cache
 * they build into, and the pinned `go build` itself.
 */
import { execFileSync } from "node:child_process";
import { renameSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/**
 * `<cache>/<folder>`: DEVICEMGMT_PULUMI_CACHE moves the cache; the default is per user (XDG_CACHE_HOME or
 * ~/.cache). Folders name their version and platform.
 */
export function toolCache(folder: string): string {
  const base =
    process.env.DEVICEMGMT_PULUMI_CACHE ??
    join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "pulumi-devicemgmt");
  return join(base, folder);
}

/** No toolchain download, no cgo (release builds use neither); go.sum is checked as committed. */
export const PINNED_GO_ENV = {
  GOTOOLCHAIN: "local",
  CGO_ENABLED: "0",
  GOFLAGS: "-mod=readonly -buildvcs=false",
};

/**
 * `go build -o <output> <args>` in the module folder `cwd`, through a temporary file so that a build cut short
 * leaves no binary the next run would take as built; logs `<label>: built in N s`.
 */
export function goBuildInto(
  output: string,
  options: { cwd: string; args: string[]; label: string; log: (line: string) => void },
): void {
  const started = Date.now();
  const temporary = `${output}.${process.pid}.tmp`;
  execFileSync("go", ["build", "-o", temporary, ...options.args], {
    cwd: options.cwd,
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, ...PINNED_GO_ENV },
  });
  renameSync(temporary, output);
  options.log(`${options.label}: built in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}
