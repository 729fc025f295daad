/**
 * `pulumi-resource-devicemgmt`: the provider plugin's entry point. The engine starts it (through the launcher
 * `tools/plugin` writes) and reads the port it prints; see docs/plugin.md.
 */
import { main } from "@pulumi/pulumi/provider";
import { PluginConfiguration, serveConfiguration } from "./configure";
import { pluginProvider } from "./provider";
import { pluginVersion } from "./version";
import { logToEngine } from "./resourceLogs";

/** The engine's address: the first argument that is neither a flag nor a flag's value (as the SDK's server reads it). */
function engineAddress(args: string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--tracing") i++;
    else if (!args[i].startsWith("-")) return args[i];
  }
  return undefined;
}

logToEngine(engineAddress(process.argv.slice(2)));
const configuration = new PluginConfiguration();
serveConfiguration(configuration);
void main(pluginProvider(pluginVersion(), configuration), process.argv.slice(2));
