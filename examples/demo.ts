/**
 * `npm run demo`: examples/org against the embedded emulator, run by the real Pulumi CLI (the version
 * tools/pulumi-cli pins: the cached build, a `pulumi` on PATH at that version or newer, or a build with Go; it
 * says what it does). What the CLI prints is shown as it comes: a preview and an `up` of a new stack, an edit
 * previewed as a pull request's preview shows it (`pulumi preview --diff --refresh`, as examples/ci/preview.yml
 * runs it; nothing is applied), a second `up` that must change nothing, and then the organization as the API
 * reports it.
 *
 * The CLI runs examples/org as an Automation API inline program (examples/demo/stack.ts): the CLI built here has
 * no Node.js language host, so the program is loaded by this process, which the CLI drives; the provider still
 * runs in the CLI's dynamic-provider plugin, as in any `pulumi up`.
 *
 * DEVICEMGMT_DEMO_STATE=<folder> keeps what the demo leaves (the emulator's state file, the Pulumi file backend
 * and the stack's settings) in that folder instead of a temporary one; each run starts afresh there.
 */
import { rmSync } from "node:fs";
import type { LocalWorkspace } from "@pulumi/pulumi/automation";
import { join } from "node:path";
import { startEmulator, type RunningEmulator } from "../emulator";
import { DeviceMgmtClient } from "../provider/client";
import { ensurePulumiCli } from "../tools/pulumi-cli";
import { EMULATOR_STATE_FILE, stateFolder } from "./demo/folder";
import { formatOrganization, readOrganization, type UploadedIds } from "./demo/orgReport";
import { EDIT_DESCRIPTION, editedProgram, exampleProgram, exampleSettings } from "./demo/programs";
import { checkpointPath, DEMO_PASSPHRASE, DEMO_STACK, openDemoStack } from "./demo/stack";

const print = (line = "") => process.stdout.write(`${line}\n`);

/** The demo's own lines are marked so, between the CLI's output. */
const heading = (text: string) => print(`\n=== ${text}\n`);

/**
 * A CLI command under a heading. When it fails, what the CLI said is already on the screen (stdout and stderr,
 * as it came), so the error says only which command failed, not the Automation API's copy of it all.
 */
async function command(title: string, run: () => Promise<unknown>): Promise<void> {
  heading(title);
  try {
    await run();
  } catch (error) {
    const code = /^code: (-?\d+)/.exec((error as Error).message)?.[1];
    throw new Error(
      `${title.split(":")[0]} failed${code ? ` (exit code ${code})` : ""}; the CLI's output is above`,
    );
  }
}

async function main(): Promise<void> {
  const cli = ensurePulumiCli();
  const folder = stateFolder();
  const statePath = join(folder, EMULATOR_STATE_FILE);
  // A new organization and a new stack each time: an organization left by an earlier run would not be in the
  // new stack's state, and a stack left by one would hold resources of an organization that is gone.
  rmSync(statePath, { force: true });
  rmSync(join(folder, "backend"), { recursive: true, force: true });
  rmSync(join(folder, `Pulumi.${DEMO_STACK}.yaml`), { force: true });

  let emulator: RunningEmulator | undefined;
  try {
    emulator = await startEmulator({ port: 0, statePath, quiet: true });
    const token = emulator.tokens.multiOrgAdmin;
    const client = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: token });
    const loaner = (await client.devices.all()).find((d) => d.name === "Headset 08");
    if (!loaner) throw new Error("the emulator's seed has no device named Headset 08");

    print(`demo: the emulator of the device-management API listens on ${emulator.baseUrl}`);
    print(`demo: the Pulumi CLI ${cli.version} (${cli.binary}, ${cli.source})`);
    print(
      `demo: the stack "${DEMO_STACK}" (file backend, passphrase secrets) and the organization: ${folder}`,
    );

    const stack = await openDemoStack({ cli, folder, emulator, loanerDeviceId: loaner.id });
    // The CLI's own output, printed as it comes (the diagnostics it writes to stderr go to stderr).
    const show = {
      onOutput: (text: string) => process.stdout.write(text),
      onError: (text: string) => process.stderr.write(text),
      color: process.stdout.isTTY ? ("always" as const) : ("never" as const),
    };
    const workspace = stack.workspace as LocalWorkspace;

    workspace.program = exampleProgram;
    await command("pulumi preview: examples/org on a new stack", () => stack.preview(show));
    await command("pulumi up", () => stack.up(show));
    workspace.program = editedProgram(exampleSettings(loaner.id));
    await command(
      `pulumi preview --diff --refresh: an edit, as examples/ci/preview.yml shows it on a pull request (nothing ` +
        `is applied): ${EDIT_DESCRIPTION}`,
      () => stack.preview({ ...show, diff: true, refresh: true }),
    );
    workspace.program = exampleProgram;
    await command("pulumi up --expect-no-changes: examples/org again, unchanged", () =>
      stack.up({ ...show, expectNoChanges: true }),
    );

    heading("The organization");
    // The ids of what examples/org uploaded (its stack output), to show those objects as the API answers them.
    const uploaded = (await stack.outputs()).uploaded?.value as UploadedIds | undefined;
    print(formatOrganization(await readOrganization(client, uploaded ?? {})).join("\n"));
    print();
    print(
      [
        "Where to look next:",
        `  - the organization, kept in ${statePath}: bring it back with`,
        `      npm run emulator -- --state ${statePath}`,
        `  - the stack's state (file backend, secrets encrypted with the passphrase "${DEMO_PASSPHRASE}"):`,
        `      ${checkpointPath(folder)}`,
        "    and the CLI's view of it:",
        `      cd ${folder} && PULUMI_HOME=$PWD/pulumi-home PULUMI_BACKEND_URL=file://$PWD/backend \\`,
        `        PULUMI_CONFIG_PASSPHRASE=${DEMO_PASSPHRASE} PULUMI_SKIP_UPDATE_CHECK=true ${cli.binary} stack --stack ${DEMO_STACK}`,
        "  - the program: examples/org/organization.ts; the edit: examples/demo/programs.ts",
      ].join("\n"),
    );
  } finally {
    await emulator?.close();
  }
}

main().then(
  // The SDK and the emulator leave nothing that should keep the process, but exit explicitly all the same.
  () => process.exit(0),
  (error: Error) => {
    console.error(`demo: ${error.message}`);
    process.exit(1);
  },
);
