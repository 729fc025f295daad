/**
 * Messages about one resource (upload progress, processing states, warnings) shown on that resource. The engine's
 * Log call takes a URN, and the CLI shows a message with one on its resource's line and counts its warnings there;
 * without one, on the stack. The dynamic-provider plugin hands the handlers no URN, so the classes of kinds that
 * write such messages (`logsOnResource` in their definition) register it in `__claimant` (kind.ts), and the
 * runtime runs each call in the resource's context (`onResource`). State written before carries no URN: those
 * calls' messages go to the stack, as they always did.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import * as pulumi from "@pulumi/pulumi";

const resourceOfCall = new AsyncLocalStorage<string | undefined>();

/**
 * The engine's address in the dynamic-provider plugin, if this is one. The engine starts every plugin with its own
 * address as the last argument (sdk/go/common/resource/plugin, `buildPluginArguments`), but the plugin's main
 * (@pulumi/pulumi/cmd/dynamic-provider) never connects to it, so the SDK's log functions print to stdout, which the
 * CLI shows as the stack's. Connecting the SDK to that address makes them the engine's Log calls, which take a URN.
 */
function dynamicPluginEngineAddress(): string | undefined {
  const script = process.argv[1] ?? "";
  const last = process.argv[process.argv.length - 1] ?? "";
  return /[\\/]dynamic-provider[\\/]/.test(script) && /^[\w.[\]:-]+:\d+$/.test(last) ? last : undefined;
}

/** Sends the SDK's log calls of this plugin to the engine (once; nothing where the SDK has an engine already). */
export function connectLogsToEngine(): void {
  if (pulumi.runtime.getEngine() !== undefined) return;
  const address = dynamicPluginEngineAddress();
  if (address === undefined) return;
  pulumi.runtime.resetOptions(
    pulumi.getProject(),
    pulumi.getStack(),
    -1,
    address,
    "",
    pulumi.runtime.isDryRun(),
    organizationIfSet(),
  );
}

/** The plugin's organization setting as it is (the SDK throws for none; none stays none). */
function organizationIfSet(): string {
  try {
    return pulumi.getOrganization();
  } catch {
    return "";
  }
}

/** Runs one provider call as a call about the resource with this URN (none: messages go to the stack). */
export function onResource<T>(urn: string | undefined, call: () => T): T {
  return resourceOfCall.run(urn, call);
}

/**
 * The SDK's log functions take the resource for its URN only (`resource.urn.promise()`): in the plugin there is no
 * resource object, so this stands for it.
 */
function resourceNamed(urn: string | undefined): pulumi.Resource | undefined {
  return urn === undefined ? undefined : ({ urn: pulumi.output(urn) } as unknown as pulumi.Resource);
}

/** Logs about the resource of the running call. */
export const resourceLog = {
  info: (message: string): Promise<void> =>
    pulumi.log.info(message, resourceNamed(resourceOfCall.getStore())),
  warn: (message: string): Promise<void> =>
    pulumi.log.warn(message, resourceNamed(resourceOfCall.getStore())),
};

/** An upload's progress as the client reports it (client/uploads). */
interface UploadProgress {
  sentBytes: number;
  totalBytes: number;
  partsSent: number;
  parts: number;
}

/** The `onProgress` of an upload: one line a part, naming the file (a bundle uploads several). */
export const uploadProgress =
  (filename: string) =>
  (p: UploadProgress): void =>
    void resourceLog.info(
      `${filename}: uploaded ${p.sentBytes} of ${p.totalBytes} bytes (part ${p.partsSent} of ${p.parts})`,
    );
