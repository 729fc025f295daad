/**
 * What the engine gives the provider plugin besides the program's resources: its config (Configure, and the
 * plugin's environment), and the warning it prints when earlier operations are still pending.
 */
import type { PendingOperation } from "./types";

/** Config as the plugin's Configure receives it: values, and which keys are secret. */
export interface ProviderConfig {
  config: Record<string, string>;
  secretKeys: string[];
}

/**
 * The engine's warning for pending operations, word for word (pkg/resource/deploy/deployment_executor.go,
 * printPendingOperationsWarning). Execute prints it for every non-preview run that is not a refresh: `up` and
 * `destroy`, not `preview` (DryRun) nor `refresh` (opts.Refresh takes the other branch).
 */
export function pendingOperationsWarning(pending: PendingOperation[]): string {
  return (
    `Attempting to deploy or update resources with ${pending.length} pending operations from previous deployment.\n` +
    pending.map((op) => `  * ${op.urn}, interrupted while ${op.type}\n`).join("") +
    "These resources are in an unknown state because the Pulumi CLI was interrupted while waiting for changes " +
    "to these resources to complete. You should confirm whether or not the operations listed completed " +
    "successfully by checking the state of the appropriate provider. For example, if you are using AWS, you " +
    "can confirm using the AWS Console.\n\nOnce you have confirmed the status of " +
    "the interrupted operations, you can repair your stack using `pulumi refresh` which will refresh the state " +
    "from the provider you are using and clear the pending operations if there are any.\n\nNote that `pulumi " +
    "refresh` will need to be run interactively to clear pending CREATE operations."
  );
}

/**
 * The environment the engine gives a provider plugin besides its own (pkg/host/host.go, Provider, and
 * sdk/go/common/resource/plugin/provider_plugin.go, NewProvider): `PULUMI_CONFIG`, the current stack config of
 * the plugin's package (`pulumi-nodejs` for dynamic providers) as JSON keyed by name without the namespace
 * (always set: an empty config is `{}`), and `PULUMI_PROJECT`. `TestPulumiConfig` reads it in a provider.
 */
export function pluginConfigEnv(config: Record<string, string>): Record<string, string> {
  const ownPackage: Record<string, string> = {};
  for (const [key, value] of Object.entries(config)) {
    if (key.startsWith(`${DYNAMIC_PROVIDER_PACKAGE}:`)) {
      ownPackage[key.slice(DYNAMIC_PROVIDER_PACKAGE.length + 1)] = value;
    }
  }
  return { PULUMI_CONFIG: JSON.stringify(ownPackage) };
}

const DYNAMIC_PROVIDER_PACKAGE = "pulumi-nodejs";

export function sameProviderConfig(a: ProviderConfig, b: ProviderConfig): boolean {
  const sorted = (c: ProviderConfig) =>
    JSON.stringify([Object.entries(c.config).sort(), [...c.secretKeys].sort()]);
  return sorted(a) === sorted(b);
}
