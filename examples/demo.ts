/**
 * The main job: `npm run demo`. Starts the embedded emulator on a free port with a temporary state folder,
 * uses a local Pulumi backend and a passphrase secrets provider in a temporary folder, and runs
 * `pulumi up --yes` on examples/org. Where the Pulumi CLI cannot be had, it says so in one line and fails.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startEmulator } from "../emulator";
import { DeviceMgmtClient } from "../provider/client";

const root = resolve(__dirname, "..");

/** The CLI from PATH, else from the `pulumi` npm package (which downloads it where the internet is reachable). */
async function findPulumiCli(): Promise<string> {
  const onPath = spawnSync("pulumi", ["version"], { encoding: "utf8" });
  if (onPath.status === 0) return "pulumi";
  const { resolve: resolveCli } = require("pulumi/lib/resolve") as { resolve: () => Promise<string> };
  return resolveCli();
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

async function main(): Promise<void> {
  let cli: string;
  try {
    cli = await findPulumiCli();
  } catch (error) {
    const reason = (error as Error).message.split("\n")[0];
    console.error(
      `demo: the Pulumi CLI is not available here and could not be downloaded (${reason}); install it (https://www.pulumi.com/docs/install/) or put \`pulumi\` on PATH, then run \`npm run demo\` again.`,
    );
    process.exit(2);
  }

  const work = mkdtempSync(join(tmpdir(), "devicemgmt-demo-"));
  const emulator = await startEmulator({
    port: 0,
    statePath: join(work, "emulator-state.json"),
    quiet: true,
  });
  const token = emulator.tokens.multiOrgAdmin;
  const client = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: token });
  const loaner = (await client.devices.all()).find((d) => d.name === "Headset 08");
  if (!loaner) throw new Error("the emulator's seed has no device named Headset 08");

  // The stack's config file sits beside Pulumi.yaml (gitignored); a stale one from an earlier demo would carry
  // the encryption salt of a backend that no longer exists, so it is started afresh.
  rmSync(join(root, "Pulumi.demo.yaml"), { force: true });
  mkdirSync(join(work, "backend"), { recursive: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PULUMI_BACKEND_URL: `file://${join(work, "backend")}`,
    PULUMI_CONFIG_PASSPHRASE: "devicemgmt-demo",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_HOME: join(work, "pulumi-home"),
  };
  try {
    await run(cli, ["stack", "init", "demo", "--non-interactive"], env, { quiet: true });
    await run(cli, ["config", "set", "devicemgmt:baseUrl", emulator.baseUrl], env, { quiet: true });
    await run(cli, ["config", "set", "--secret", "devicemgmt:apiToken", token], env, { quiet: true });
    await run(cli, ["config", "set", "loanerDeviceId", loaner.id], env, { quiet: true });
    await run(cli, ["up", "--yes", "--non-interactive"], env);
    const outputs = await run(cli, ["stack", "output", "--json"], env, { quiet: true });
    console.log(`\nStack outputs:\n${outputs}`);
    console.log(
      [
        "Where to look next:",
        `  - the organization, kept in ${join(work, "emulator-state.json")}: bring it back with`,
        `      npm run emulator -- --state ${join(work, "emulator-state.json")}`,
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

main().catch((error: Error) => {
  console.error(`demo: ${error.message}`);
  process.exit(1);
});
