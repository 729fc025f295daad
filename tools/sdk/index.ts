/**
 * The plugin's Go, Python and C# SDKs, generated from its schema by the Pulumi CLI's own code generators
 * (github.com/pulumi/pulumi/pkg/v3/codegen/go and python, pinned by go.mod beside this file at the CLI's version;
 * codegen/dotnet by dotnet/go.mod at v3.206.0): what `pulumi package gen-sdk --language go|python|dotnet` runs,
 * through the language hosts, which the Go module proxy does not serve (github.com/pulumi/pulumi/sdk/go/
 * pulumi-language-go/v3 answers 403), so the generators are called directly. Each binds the schema first, which
 * validates it as gen-sdk does.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { goBuildInto, PINNED_GO_ENV, toolCache } from "../goBuild";
import { join } from "node:path";

const MODULE_DIR = __dirname;
/** What the generated SDK's files import it as: the schema's `language.go.importBasePath` without its package. */
export const SDK_MODULE = "github.com/pulumi-devicemgmt/pulumi-devicemgmt/sdk";

/**
 * A generator's binary (the Go module in `moduleDir`), built once per pinned go.mod into the cache tools/pulumi-cli
 * uses.
 */
function ensureGenerator(moduleDir: string, name: string, log: (line: string) => void): string {
  const pin = readFileSync(join(moduleDir, "go.mod"), "utf8").match(
    /^\s*github\.com\/pulumi\/pulumi\/pkg\/v3 (v\d+\.\d+\.\d+)\b/m,
  )?.[1];
  // The cache folder is named by the pin: without one, every go.mod would share a folder and its binary.
  if (!pin)
    throw new Error(
      `${join(moduleDir, "go.mod")} does not require github.com/pulumi/pulumi/pkg/v3 at a release`,
    );
  const binary = join(toolCache(`${name}-${pin}-${process.platform}-${process.arch}`), "bin", name);
  if (existsSync(binary)) return binary;
  mkdirSync(join(binary, ".."), { recursive: true });
  log(`sdk: building ${name} (pkg/v3 ${pin}) into ${binary}; minutes when the Go cache is cold`);
  goBuildInto(binary, { cwd: moduleDir, args: ["-trimpath", "."], label: "sdk", log });
  return binary;
}

/** The Go and Python SDK generator (main.go beside this file, pkg/v3 at the CLI's version). */
export function ensureSdkGenerator(
  log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): string {
  return ensureGenerator(MODULE_DIR, "sdk-generator", log);
}

/**
 * The C# SDK generator (dotnet/main.go): pkg/v3 v3.206.0, the last version here with codegen/dotnet (later ones
 * moved it to pulumi-dotnet, which the Go module proxy does not serve), the version the YAML host builds with.
 */
export function ensureDotnetSdkGenerator(
  log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): string {
  return ensureGenerator(join(MODULE_DIR, "dotnet"), "dotnet-sdk-generator", log);
}

/**
 * Writes the C# SDK of `schemaFile` into `outDir`: a project (`<rootNamespace>.Devicemgmt.csproj`), a file per
 * resource and function, `Inputs/` and `Outputs/` for the object types, `Config/`, and `version.txt` with the
 * schema's version: the project embeds that file, and the SDK asks the engine for the plugin at its version, but
 * the generator leaves it to release pipelines to write. Nothing compiles it here (no .NET toolchain).
 */
export function generateDotnetSdk(generator: string, schemaFile: string, outDir: string): void {
  rmSync(outDir, { recursive: true, force: true });
  execFileSync(generator, [schemaFile, outDir], { stdio: ["ignore", "pipe", "pipe"] });
  const version = (JSON.parse(readFileSync(schemaFile, "utf8")) as { version: string }).version;
  writeFileSync(join(outDir, "version.txt"), `${version}\n`);
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
  cpSync(join(MODULE_DIR, "go-program", "main.go"), join(folder, "main.go"));
  execFileSync("go", ["build", "-o", binary, "./cmd/organization"], {
    cwd: outDir,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...PINNED_GO_ENV, GOFLAGS: "-mod=mod -buildvcs=false" },
  });
}

const PYTHON_SDK = "3.272.0";

/**
 * A Python environment with the `pulumi` package (PyPI, the newest release at or below the CLI's version) for the
 * Python SDK and program: a venv in the cache, made once.
 */
export function ensurePythonEnvironment(
  log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): string {
  const venv = toolCache(`python-venv-pulumi-${PYTHON_SDK}`);
  const python = join(venv, "bin", "python");
  if (existsSync(join(venv, ".ready"))) return python;
  log(`sdk: making ${venv} with pulumi ${PYTHON_SDK} from PyPI`);
  execFileSync("python3", ["-m", "venv", venv], { stdio: ["ignore", "pipe", "pipe"] });
  // semver and parver: what the generated SDK imports; wheel: to install the generated SDK without build isolation.
  execFileSync(
    python,
    ["-m", "pip", "install", "--quiet", `pulumi==${PYTHON_SDK}`, "semver", "parver", "wheel"],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  writeFileSync(join(venv, ".ready"), "");
  return python;
}

/**
 * Generates the Python SDK of `schemaFile` into `outDir` at the schema's version (the generator writes 0.0.0,
 * which release pipelines replace; the SDK asks the engine for the plugin at this version) and installs it into
 * the environment of `python`.
 */
export function installPythonSdk(
  generator: string,
  python: string,
  schemaFile: string,
  outDir: string,
): void {
  execFileSync(generator, [schemaFile, outDir, "python"], { stdio: ["ignore", "pipe", "pipe"] });
  const version = (JSON.parse(readFileSync(schemaFile, "utf8")) as { version: string }).version;
  const setup = join(outDir, "setup.py");
  writeFileSync(
    setup,
    readFileSync(setup, "utf8").replace(/^VERSION = "0\.0\.0"$/m, `VERSION = "${version}"`),
  );
  execFileSync(
    python,
    ["-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", "--force-reinstall", outDir],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
}

/** The Python program's file (python-program/organization.py). */
export const PYTHON_PROGRAM = join(MODULE_DIR, "python-program", "organization.py");

/** `go build ./...` of the SDK module: its output when it does not compile. */
export function buildGoSdk(outDir: string): void {
  // -mod=mod: the SDK requires sdk/v3 directly where the generator only reached it; go.sum already holds it.
  execFileSync("go", ["build", "./..."], {
    cwd: outDir,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...PINNED_GO_ENV, GOFLAGS: "-mod=mod -buildvcs=false" },
  });
}
