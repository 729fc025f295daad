/**
 * The plugin's Go SDK, generated from its schema by the Pulumi CLI's own Go code generator
 * (github.com/pulumi/pulumi/pkg/v3/codegen/go, pinned by go.mod beside this file at the CLI's version): what
 * `pulumi package gen-sdk --language go` runs, through the Go language host, which the Go module proxy does not
 * serve (github.com/pulumi/pulumi/sdk/go/pulumi-language-go/v3 answers 403), so the generator is called directly.
 * main.go binds the schema first, which validates it as gen-sdk does.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

const MODULE_DIR = __dirname;
/** What the generated SDK's files import it as: the schema's `language.go.importBasePath` without its package. */
export const SDK_MODULE = "github.com/pulumi-devicemgmt/pulumi-devicemgmt/sdk";

const GO_ENV = { GOTOOLCHAIN: "local", CGO_ENABLED: "0", GOFLAGS: "-mod=readonly -buildvcs=false" };

/** The generator's binary, built once per pinned go.mod into the cache tools/pulumi-cli uses. */
export function ensureSdkGenerator(
  log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): string {
  const pin = readFileSync(join(MODULE_DIR, "go.mod"), "utf8").match(
    /github\.com\/pulumi\/pulumi\/pkg\/v3 (v[\d.]+)/,
  )?.[1];
  const base =
    process.env.DEVICEMGMT_PULUMI_CACHE ??
    join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "pulumi-devicemgmt");
  const binary = join(base, `sdk-go-generator-${pin}-${process.platform}-${process.arch}`, "bin", "sdk-go");
  if (existsSync(binary)) return binary;
  mkdirSync(join(binary, ".."), { recursive: true });
  const started = Date.now();
  log(
    `sdk-go: building the Go SDK generator (pkg/v3 ${pin}) into ${binary}; minutes when the Go cache is cold`,
  );
  const temporary = `${binary}.${process.pid}.tmp`;
  execFileSync("go", ["build", "-trimpath", "-o", temporary, "."], {
    cwd: MODULE_DIR,
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, ...GO_ENV },
  });
  renameSync(temporary, binary);
  log(`sdk-go: built in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return binary;
}

/**
 * Writes the Go SDK of `schemaFile` as a module in `outDir` (`<outDir>/go/devicemgmt`, go.mod naming SDK_MODULE
 * with the generator's pinned requirements), ready for `go build ./...`.
 */
export function generateGoSdk(generator: string, schemaFile: string, outDir: string): void {
  const generated = join(outDir, ".generated");
  rmSync(generated, { recursive: true, force: true });
  execFileSync(generator, [schemaFile, generated], { stdio: ["ignore", "pipe", "pipe"] });
  mkdirSync(join(outDir, "go"), { recursive: true });
  cpSync(join(generated, "devicemgmt"), join(outDir, "go", "devicemgmt"), { recursive: true });
  rmSync(generated, { recursive: true, force: true });
  const goMod = readFileSync(join(MODULE_DIR, "go.mod"), "utf8").replace(
    /^module .*$/m,
    `module ${SDK_MODULE}`,
  );
  writeFileSync(join(outDir, "go.mod"), goMod);
  cpSync(join(MODULE_DIR, "go.sum"), join(outDir, "go.sum"));
}

/**
 * Builds program/main.go (a Go program on the SDK, run through the Go Automation API) inside the SDK module, to
 * `binary`.
 */
export function buildGoProgram(outDir: string, binary: string): void {
  const folder = join(outDir, "cmd", "organization");
  mkdirSync(folder, { recursive: true });
  cpSync(join(MODULE_DIR, "program", "main.go"), join(folder, "main.go"));
  execFileSync("go", ["build", "-o", binary, "./cmd/organization"], {
    cwd: outDir,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...GO_ENV, GOFLAGS: "-mod=mod -buildvcs=false" },
  });
}

/** `go build ./...` of the SDK module: its output when it does not compile. */
export function buildGoSdk(outDir: string): void {
  // -mod=mod: the SDK requires sdk/v3 directly where the generator only reached it; go.sum already holds it.
  execFileSync("go", ["build", "./..."], {
    cwd: outDir,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...GO_ENV, GOFLAGS: "-mod=mod -buildvcs=false" },
  });
}
