/**
 * `npm run plugin [-- --install]`: packs the provider plugin (see index.ts) into dist/plugin/ and prints the
 * command that installs it; with --install, installs it into PULUMI_HOME (default ~/.pulumi) with the Pulumi CLI
 * on PATH.
 */
import { join } from "node:path";
import { installPlugin, packPlugin, PLUGIN_NAME } from "./index";

try {
  const packed = packPlugin(join(__dirname, "../../dist/plugin"));
  console.log(`plugin: ${packed.tarball}`);
  if (process.argv.includes("--install")) {
    installPlugin("pulumi", packed, process.env);
    console.log(`plugin: installed resource ${PLUGIN_NAME} ${packed.version}`);
  } else {
    console.log(
      `install: pulumi plugin install resource ${PLUGIN_NAME} ${packed.version} --file ${packed.tarball}`,
    );
  }
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
