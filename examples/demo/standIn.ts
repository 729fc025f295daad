/**
 * The demo without a Pulumi CLI: examples/org runs through the engine stand-in (engine-stand-in/: the real SDK
 * runs the program, the real dynamic-provider plugin runs the provider) against the embedded emulator, and the
 * run is shown as a user would see it: preview, up, an edit previewed as a pull request shows it, a second up
 * that changes nothing, and the organization as the API then reports it.
 */
import { rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { createEngine, type Engine, type Program, type RunResult } from "../../engine-stand-in";
import { DeviceMgmtClient } from "../../provider/client";
import { EMULATOR_STATE_FILE, PULUMI_STATE_FILE, stateFolder } from "./folder";
import { formatOrganization, readOrganization } from "./orgReport";
import {
  DEMO_KIOSK_PIN,
  EDIT_DESCRIPTION,
  editedProgram,
  exampleSettings,
  organizationProgram,
} from "./programs";
import { durationLine, errorLines, outputLines, stepLines, summaryLine } from "./report";

const root = resolve(__dirname, "../..");
const STACK = "demo";

/** The demo's first line: why the stand-in, and where the real CLI comes from. */
export function standInBanner(reason: string): string {
  return (
    `demo: using the built-in engine stand-in (engine-stand-in/) because no Pulumi CLI was found (${reason}); ` +
    `install the real CLI from https://www.pulumi.com/docs/install/ and \`npm run demo\` runs \`pulumi up\` instead.`
  );
}

type Print = (line: string) => void;

/** A failed step: the message names the step, so the one-line error at exit says where it stopped. */
function failed(step: string, result: RunResult): Error {
  return new Error([`${step} failed:`, ...errorLines(result.errors)].join("\n"));
}

async function show(
  print: Print,
  heading: string,
  run: () => Promise<RunResult>,
  mode: "preview" | "up",
  options: { details?: boolean; outputs?: boolean } = {},
): Promise<RunResult> {
  print("");
  print(heading);
  const started = Date.now();
  const result = await run();
  if (!result.ok) throw failed(heading.replace(/:$/, ""), result);
  print("");
  print(stepLines(result, options).join("\n"));
  for (const warning of result.warnings) print(`  warning: ${warning}`);
  if (options.outputs) print(["", ...outputLines(result)].join("\n"));
  print("");
  print(summaryLine(result, mode));
  if (mode === "up") print(durationLine(Date.now() - started));
  return result;
}

export async function runWithStandIn(reason: string, print: Print = console.log): Promise<void> {
  print(standInBanner(reason));
  const folder = stateFolder();
  const statePath = join(folder, EMULATOR_STATE_FILE);
  // The stand-in keeps Pulumi's state in memory only, so an organization left by an earlier demo in this
  // folder would hold resources this run cannot adopt: every run starts from the emulator's seed.
  rmSync(statePath, { force: true });

  let emulator: RunningEmulator | undefined;
  let engine: Engine | undefined;
  try {
    emulator = await startEmulator({ port: 0, statePath, quiet: true });
    const token = emulator.tokens.multiOrgAdmin;
    const client = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: token });
    const loaner = (await client.devices.all()).find((d) => d.name === "Headset 08");
    if (!loaner) throw new Error("the emulator's seed has no device named Headset 08");
    const settings = exampleSettings(loaner.id);

    engine = await createEngine({
      cwd: root, // the plugin resolves pulumi-devicemgmt/runtime from here, as from a user's project
      project: "devicemgmt-example-org",
      stack: STACK,
      config: { "devicemgmt:baseUrl": emulator.baseUrl },
      secretConfig: { "devicemgmt:apiToken": token, "devicemgmt-example-org:kioskPin": DEMO_KIOSK_PIN },
    });
    const live = engine;
    const original: Program = organizationProgram(settings);

    await show(print, `Previewing update (${STACK}), examples/org:`, () => live.preview(original), "preview");
    await show(print, `Updating (${STACK}):`, () => live.up(original), "up", { outputs: true });
    print("");
    print(`Edit: ${EDIT_DESCRIPTION}.`);
    await show(
      print,
      "Previewing the edit, as the pull request's preview comment would show it (nothing is applied):",
      () => live.preview(editedProgram(settings)),
      "preview",
      { details: true },
    );
    await show(
      print,
      `Updating (${STACK}) again with examples/org unchanged:`,
      () => live.up(original),
      "up",
    );
    await live.saveState(join(folder, PULUMI_STATE_FILE));

    print("");
    print(formatOrganization(await readOrganization(client)).join("\n"));
    print("");
    print(
      [
        "Where to look next:",
        `  - the organization, kept in ${statePath}: bring it back with`,
        `      npm run emulator -- --state ${statePath}`,
        `  - the stand-in's Pulumi state (secrets encrypted): ${join(folder, PULUMI_STATE_FILE)}`,
        "  - the program: examples/org/organization.ts; the edit: examples/demo/programs.ts",
      ].join("\n"),
    );
  } finally {
    await engine?.close();
    await emulator?.close();
  }
}
