/**
 * `pulumi-resource-devicemgmt`: the provider plugin's entry point. The engine starts it (through the launcher
 * `tools/plugin` writes) and reads the port it prints; see docs/plugin.md.
 */
import { main } from "@pulumi/pulumi/provider";
import { PluginConfiguration, serveConfiguration } from "./configure";
import { pluginProvider } from "./provider";
import { pluginVersion } from "./version";

const configuration = new PluginConfiguration();
serveConfiguration(configuration);
void main(pluginProvider(pluginVersion(), configuration), process.argv.slice(2));
