/**
 * The demo with the real Pulumi CLI: the embedded emulator on a free port, a local backend and a passphrase
 * secrets provider in a work folder, and `pulumi up --yes` on examples/org (Pulumi.yaml at the repository root).
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { startEmulator } from "../../emulator";
import { DeviceMgmtClient } from "../../provider/client";
import { EMULATOR_STATE_FILE, stateFolder } from "./folder";
import { DEMO_KIOSK_PIN } from "./programs";

const root = resolve(__dirname, "../..");

/** How long the CLI download may take to start answering: offline, the stand-in should follow at once. */
const DOWNLOAD_REACH_TIMEOUT_MS = 5000;

interface PulumiPackage {
  cache: { cacheDir(version: string): string };
  resolve: { isExecutable(file: string): boolean };
  download: {
    installCLI(
      version: string,
      root: string,
      io: { fetchText: (url: string) => Promise<string> },
    ): Promise<void>;
  };
}

/**
 * The CLI: from PATH, else the copy the `pulumi` npm package cached, else that package's download (what its
 * `lib/resolve` does, step by step). The download's first request (the install script) gets a short timeout,
 * so that offline the demo falls back to the stand-in in seconds, and "Downloading" is only said once that
 * request answered, so that offline the stand-in's line is the first the user sees.
 */
export async function findPulumiCli(): Promise<{ cli: string } | { reason: string }> {
  const onPath = spawnSync("pulumi", ["version"], { encoding: "utf8", timeout: 30000 });
  if (onPath.status === 0) return { cli: "pulumi" };

  const pkg: PulumiPackage = {
    cache: require("pulumi/lib/cache"),
    resolve: require("pulumi/lib/resolve"),
    download: require("pulumi/lib/download"),
  };
  const version =
    process.env.PULUMI_VERSION || (require("pulumi/package.json") as { version: string }).version;
  const into = pkg.cache.cacheDir(version);
  const cli = join(into, "bin", process.platform === "win32" ? "pulumi.exe" : "pulumi");
  if (pkg.resolve.isExecutable(cli)) return { cli };

  const fetchText = async (url: string) => {
    const response = await fetch(url, { signal: AbortSignal.timeout(DOWNLOAD_REACH_TIMEOUT_MS) });
    if (!response.ok) throw new Error(`HTTP ${response.status} fetching ${url}`);
    const text = await response.text();
    process.stderr.write(`Downloading pulumi v${version}...\n`);
    return text;
  };
  try {
    await pkg.download.installCLI(version, into, { fetchText });
    return { cli };
  } catch (error) {
    const cause = (error as Error & { cause?: Error }).cause?.message;
    const message = (error as Error).message.split("\n")[0];
    return { reason: `not on PATH, and the download failed: ${message}${cause ? ` (${cause})` : ""}` };
  }
}

function run(
  cli: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  options: { quiet?: boolean } = {},
): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(cli, args, {
      cwd: root,
      env,
      stdio: options.quiet ? "pipe" : ["ignore", "inherit", "inherit"],
    });
    let out = "";
    child.stdout?.on("data", (chunk) => (out += chunk));
    child.stderr?.on("data", (chunk) => (out += chunk));
    child.on("error", fail);
    child.on("exit", (code) =>
      code === 0 ? done(out) : fail(new Error(`pulumi ${args[0]} exited with ${code}\n${out}`)),
    );
  });
}

export async function runWithCli(cli: string): Promise<void> {
  const work = stateFolder();
  const statePath = join(work, EMULATOR_STATE_FILE);
  // A new stack in a new backend each time: an organization left by an earlier run would not be in its state.
  rmSync(statePath, { force: true });
  const emulator = await startEmulator({ port: 0, statePath, quiet: true });
  try {
    const token = emulator.tokens.multiOrgAdmin;
    const client = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: token });
    const loaner = (await client.devices.all()).find((d) => d.name === "Headset 08");
    if (!loaner) throw new Error("the emulator's seed has no device named Headset 08");

    // The stack's config file sits beside Pulumi.yaml (gitignored); a stale one from an earlier demo would carry
    // the encryption salt of a backend that no longer exists, so it is started afresh.
    rmSync(join(root, "Pulumi.demo.yaml"), { force: true });
    rmSync(join(work, "backend"), { recursive: true, force: true });
    mkdirSync(join(work, "backend"), { recursive: true });
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PULUMI_BACKEND_URL: `file://${join(work, "backend")}`,
      PULUMI_CONFIG_PASSPHRASE: "devicemgmt-demo",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_HOME: join(work, "pulumi-home"),
    };
    await run(cli, ["stack", "init", "demo", "--non-interactive"], env, { quiet: true });
    await run(cli, ["config", "set", "devicemgmt:baseUrl", emulator.baseUrl], env, { quiet: true });
    await run(cli, ["config", "set", "--secret", "devicemgmt:apiToken", token], env, { quiet: true });
    await run(cli, ["config", "set", "loanerDeviceId", loaner.id], env, { quiet: true });
    await run(cli, ["config", "set", "--secret", "kioskPin", DEMO_KIOSK_PIN], env, { quiet: true });
    await run(cli, ["up", "--yes", "--non-interactive"], env);
    const outputs = await run(cli, ["stack", "output", "--json"], env, { quiet: true });
    console.log(`\nStack outputs:\n${outputs}`);
    console.log(
      [
        "Where to look next:",
        `  - the organization, kept in ${statePath}: bring it back with`,
        `      npm run emulator -- --state ${statePath}`,
        `    and look at it with`,
        `      curl -H 'Accept: application/json' -H 'Authorization: Bearer <the multi-organization admin token it prints>' http://127.0.0.1:4010/api/v3/group-hierarchy`,
        `  - the program: examples/org/organization.ts (edit it and run the demo again to see a fresh org built)`,
        `  - the Pulumi state (local backend) and secrets (passphrase "devicemgmt-demo"): ${work}`,
      ].join("\n"),
    );
  } finally {
    await emulator.close();
  }
}
