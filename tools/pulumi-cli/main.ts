/** `npm run pulumi-cli`: finds or builds the pinned Pulumi CLI (see index.ts) and says which one it is. */
import { ensurePulumiCli } from "./index";

try {
  const cli = ensurePulumiCli();
  console.log(`pulumi-cli: ${cli.binary} (${cli.version}, ${cli.source})`);
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
