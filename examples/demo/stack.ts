/**
 * The demo's stack, opened through the Automation API with the CLI that tools/pulumi-cli made ready.
 *
 * The program runs as an Automation API inline program (the CLI runs it through this process) rather than
 * from a Pulumi.yaml with `runtime: nodejs`: the CLI built here has no Node.js language host
 * (pulumi-language-nodejs), only the dynamic-provider plugin script beside it. `main` is the repository root, the
 * working directory of that plugin, so `require("pulumi-devicemgmt/runtime")` resolves from there as from a
 * user's project. The workspace (its Pulumi.yaml and Pulumi.demo.yaml), the file backend, the passphrase secrets
 * and PULUMI_HOME all live in the demo's state folder, never in the repository's own Pulumi.yaml stack files.
 */
import { LocalWorkspace, PulumiCommand, type Stack } from "@pulumi/pulumi/automation";
import { join, resolve } from "node:path";
import type { RunningEmulator } from "../../emulator";
import { offlineEnvironment, type PulumiCli } from "../../tools/pulumi-cli";
import { DEMO_KIOSK_PIN } from "./programs";

export const DEMO_PROJECT = "devicemgmt-example-org";
export const DEMO_STACK = "demo";
export const DEMO_PASSPHRASE = "devicemgmt-demo";

const root = resolve(__dirname, "../..");

/** The stack's checkpoint in the file backend of `folder` (what `pulumi stack export` prints). */
export function checkpointPath(folder: string): string {
  return join(folder, "backend", ".pulumi", "stacks", DEMO_PROJECT, `${DEMO_STACK}.json`);
}

/**
 * A new stack in `folder` with the config the README tells users to set: the API's address, its token (secret),
 * the loaner device and the kiosk PIN (secret).
 */
export async function openDemoStack(options: {
  cli: PulumiCli;
  folder: string;
  emulator: RunningEmulator;
  loanerDeviceId: string;
}): Promise<Stack> {
  const { cli, folder, emulator } = options;
  const stack = await LocalWorkspace.createOrSelectStack(
    { projectName: DEMO_PROJECT, stackName: DEMO_STACK, program: async () => undefined },
    {
      pulumiCommand: await PulumiCommand.get({ root: cli.root }),
      envVars: offlineEnvironment(folder, DEMO_PASSPHRASE),
      workDir: folder,
      projectSettings: { name: DEMO_PROJECT, runtime: "nodejs", main: root },
    },
  );
  await stack.setAllConfig({
    "devicemgmt:baseUrl": { value: emulator.baseUrl },
    "devicemgmt:apiToken": { value: emulator.tokens.multiOrgAdmin, secret: true },
    loanerDeviceId: { value: options.loanerDeviceId },
    kioskPin: { value: DEMO_KIOSK_PIN, secret: true },
  });
  return stack;
}
