/**
 * `pulumi-resource-devicemgmt`: the provider plugin's entry point. The engine starts it (through the launcher
 * `tools/plugin` writes) and reads the port it prints; see docs/plugin.md.
 */
import { main } from "@pulumi/pulumi/provider";
import { PluginConfiguration, serveConfiguration } from "./configure";
import { pluginProvider } from "./provider";
import { pluginVersion } from "./version";

/** The engine's address: the first argument that is neither a flag nor a flag's value (as the SDK's server reads it). */
function engineAddress(args: string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--tracing") i++;
    else if (!args[i].startsWith("-")) return args[i];
  }
  return undefined;
}

// The SDK's log functions (framework/resourceLog.ts gives each line its resource's URN) reach the engine only at
// this address; set before the SDK first reads its settings.
const engine = engineAddress(process.argv.slice(2));
if (engine) process.env.PULUMI_NODEJS_ENGINE = engine;
const configuration = new PluginConfiguration();
serveConfiguration(configuration);
void main(pluginProvider(pluginVersion(), configuration), process.argv.slice(2));
