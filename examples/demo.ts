/**
 * `npm run demo`: examples/org against the embedded emulator. With a Pulumi CLI (on PATH, cached or
 * downloadable by the `pulumi` npm package) it runs `pulumi up` (examples/demo/cli.ts); without one it runs the
 * same program through the engine stand-in and shows preview, up, an edit's preview, a second up and the
 * resulting organization (examples/demo/standIn.ts), so the demo works offline too.
 *
 * DEVICEMGMT_DEMO_ENGINE=cli|stand-in chooses the path instead of looking for a CLI (the test forces the
 * stand-in); DEVICEMGMT_DEMO_STATE=<folder> keeps the emulator's state file there instead of a temp folder.
 */
import { findPulumiCli, runWithCli } from "./demo/cli";
import { runWithStandIn } from "./demo/standIn";

async function main(): Promise<void> {
  const choice = process.env.DEVICEMGMT_DEMO_ENGINE;
  if (choice !== undefined && choice !== "cli" && choice !== "stand-in") {
    console.error(`demo: DEVICEMGMT_DEMO_ENGINE must be "cli" or "stand-in", not "${choice}"`);
    process.exit(2);
  }
  if (choice === "stand-in") return runWithStandIn("not looked for: DEVICEMGMT_DEMO_ENGINE=stand-in");

  const found = await findPulumiCli();
  if ("cli" in found) return runWithCli(found.cli);
  if (choice === "cli") {
    console.error(
      `demo: DEVICEMGMT_DEMO_ENGINE=cli, but the Pulumi CLI is not available (${found.reason}); install it (https://www.pulumi.com/docs/install/) or put \`pulumi\` on PATH.`,
    );
    process.exit(2);
  }
  return runWithStandIn(found.reason);
}

main().then(
  // The SDK and the emulator leave nothing that should keep the process, but exit explicitly all the same.
  () => process.exit(0),
  (error: Error) => {
    console.error(`demo: ${error.message}`);
    process.exit(1);
  },
);
